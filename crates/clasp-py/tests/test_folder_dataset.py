"""A dataset over a folder of meshes as the field ships them: files in metres and in
millimetres side by side, YCB's one folder per object, a file that is no mesh. Each object is
read in its own units, each row names its object, units and scale, the bad file is one line and
the rest go on, the job ends in one Parquet file, and a run stopped halfway resumes to the
same rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import clasp
from clasp import dataset
from clasp.dataset import Job

trimesh = pytest.importorskip("trimesh")

# (file, size across in mm, written in metres?)
MESHES = [
    ("box_a.obj", 60.0, True),
    ("box_b.stl", 80.0, True),
    ("box_c.ply", 50.0, False),
    ("box_d.obj", 70.0, False),
    ("box_e.off", 90.0, False),
    ("cyl_f.glb", 65.0, True),
    ("003_cracker_box/google_16k/textured.obj", 75.0, True),
    ("004_sugar_box/google_16k/textured.obj", 55.0, True),
    ("005_tomato_soup_can/google_16k/textured.obj", 68.0, True),
    ("006_mustard_bottle/google_16k/textured.obj", 85.0, False),
]


def make_folder(root: Path) -> Path:
    folder = root / "objects"
    for name, size, metres in MESHES:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        scale = 1e-3 if metres else 1.0
        if name.startswith("cyl"):
            mesh = trimesh.creation.cylinder(radius=size / 2 * scale, height=size * scale, sections=24)
            # glTF is Y up: the cylinder's axis along y, as a glTF exporter writes it.
            mesh.apply_transform(trimesh.transformations.rotation_matrix(-np.pi / 2, [1, 0, 0]))
        else:
            mesh = trimesh.creation.box(extents=[size * scale, 0.8 * size * scale, 0.6 * size * scale])
        mesh.export(path)
    # YCB ships a PLY and an STL beside the textured OBJ: the OBJ is taken.
    trimesh.creation.box(extents=[1, 1, 1]).export(folder / "003_cracker_box" / "google_16k" / "nontextured.ply")
    (folder / "broken.obj").write_text("v 0 0 0\nv 1 0 0\nf 1 2 9\n")
    (folder / "empty").mkdir()
    return folder


def folder_job(models, folder, out) -> Job:
    return Job(
        hand=str(models / "robots" / "ClaspHand" / "ClaspHand.xml"),
        objects=(str(folder),),
        grasps=4,
        out=str(out),
        seed=5,
        task_size=2,
    )


def test_a_folder_of_meshes_in_mixed_units_makes_one_dataset_that_resumes(models, tmp_path, capfd):
    folder = make_folder(tmp_path)
    objects, problems = clasp.objects_in(folder)
    assert [name for name, _ in objects] == [
        "003_cracker_box",
        "004_sugar_box",
        "005_tomato_soup_can",
        "006_mustard_bottle",
        "box_a",
        "box_b",
        "box_c",
        "box_d",
        "box_e",
        "broken",
        "cyl_f",
    ]
    assert dict(objects)["003_cracker_box"].endswith("google_16k/textured.obj")
    assert len(problems) == 1 and "empty" in problems[0]

    whole = folder_job(models, folder, tmp_path / "whole")
    dataset.run_local(whole, progress=None)
    said = capfd.readouterr().err
    # The broken file is one line naming it; every other object says how it was read.
    assert "broken.obj" in said
    assert "box_a.obj: 0.06 across, read as metres (60 mm)" in said
    assert "box_c.ply: 50 across, read as millimetres (50 mm)" in said
    assert "cyl_f.glb: 0.065 across, read as metres (65 mm), as glTF is; Y up, turned to Z up" in said
    table = pq.read_table(Path(whole.out) / "grasps.parquet")
    assert table.num_rows == 10 * 4
    rows = table.to_pylist()
    by_object = {r["object_id"]: r for r in rows}
    assert "broken" not in by_object
    for name, size, metres in MESHES:
        object_name = name.split("/")[0].split(".")[0]
        row = by_object[object_name]
        assert row["object_units"] == ("m" if metres else "mm"), object_name
        assert row["object_scale"] == (1000.0 if metres else 1.0), object_name
    # Read at their true sizes, the hand touches them all.
    assert sum(r["contacts"] > 0 for r in rows) >= 30

    # Stopped halfway (after three shards), then run again: the same rows.
    halfway = folder_job(models, folder, tmp_path / "halfway")

    class Stop(Exception):
        pass

    def stop_after_three(line: str) -> None:
        if line.startswith("3/"):
            raise Stop

    with pytest.raises(Stop):
        dataset.run_local(halfway, progress=stop_after_three)
    assert not (Path(halfway.out) / "grasps.parquet").exists()
    dataset.run_local(halfway, progress=None)
    again = pq.read_table(Path(halfway.out) / "grasps.parquet")
    assert dataset.same_rows(again, table)
    # The objects' units and names are in every row, and a second rerun writes nothing.
    assert again.column("object_units").to_pylist() == table.column("object_units").to_pylist()
    assert dataset.run_local(halfway, progress=None) == []


def test_the_units_given_win_over_the_size(models, tmp_path):
    folder = tmp_path / "one"
    folder.mkdir()
    trimesh.creation.box(extents=[0.05, 0.04, 0.03]).export(folder / "small.obj")
    world = clasp.World()
    body = world.add_body(folder / "small.obj", units="mm")
    assert world.body_units(body) == "mm"
    lo, hi = world.body_mesh(body)[0].min(axis=0), world.body_mesh(body)[0].max(axis=0)
    assert np.allclose(hi - lo, [0.05, 0.04, 0.03])
    body = world.add_body(folder / "small.obj")
    assert world.body_units(body) == "m"
    with pytest.raises(ValueError, match="mm or m"):
        world.add_body(folder / "small.obj", units="inch")
    with pytest.raises(ValueError):
        Job(hand="h", objects=(str(folder),), grasps=1, out=str(tmp_path / "o"), units="cm")
