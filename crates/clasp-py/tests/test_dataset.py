"""The dataset job: tasks and shards on one machine, a Slurm array's shard, and on a local Ray
cluster of 2 CPUs: every row equal to the single-machine run, and a rerun resumes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from clasp import dataset
from clasp.dataset import Job


def job(models, out, grasps=100, objects=("clasp_mug.xml", "clasp_sphere.xml"), task_size=25, **options):
    return Job(
        hand=str(models / "robots" / "ClaspHand" / "ClaspHand.xml"),
        objects=tuple(str(models / "objects" / o) for o in objects),
        grasps=grasps,
        out=str(out),
        seed=3,
        task_size=task_size,
        **options,
    )


def test_a_job_runs_on_one_machine_and_resumes(models, tmp_path):
    small = job(models, tmp_path / "local", grasps=40)
    assert len(dataset.tasks(small)) == 2 * 2
    written = dataset.run_local(small, progress=None)
    assert len(written) == 4 and all(p.exists() for p in written)
    table = dataset.read(small.out)
    assert table.num_rows == 80
    assert table.column_names == dataset.COLUMNS
    assert table.column("grasp_index").to_pylist() == list(range(40)) * 2
    assert set(table.column("object_id").to_pylist()) == {"clasp_mug", "clasp_sphere"}
    assert all(len(p) == 16 for p in table.column("palm").to_pylist())
    assert dataset.run_local(small, progress=None) == []
    # A shard lost is the one shard a rerun writes.
    lost = written[2]
    lost.unlink()
    stamps = {p: p.stat().st_mtime_ns for p in written if p != lost}
    assert dataset.run_local(small, progress=None) == [lost]
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps
    assert dataset.read(small.out).num_rows == 80


def test_a_folder_of_another_jobs_shards_is_refused(models, tmp_path):
    first = job(models, tmp_path / "one", grasps=10)
    dataset.run_local(first, progress=None)
    other = Job(**{**dataset.job_dict(first), "seed": 4})
    with pytest.raises(ValueError, match="another job"):
        dataset.run_local(other, progress=None)
    # Relative paths are made absolute, so workers anywhere find the files.
    assert Path(first.hand).is_absolute() and Path(first.out).is_absolute()


def test_slurm_shards_split_the_job_and_together_make_it(models, tmp_path):
    whole = job(models, tmp_path / "whole", grasps=50)
    dataset.run_local(whole, progress=None)
    parts = job(models, tmp_path / "parts", grasps=50)
    for i in range(3):
        dataset.run_local(parts, shard=(i, 3), threads=1, progress=None)
    assert dataset.same_rows(dataset.read(whole.out), dataset.read(parts.out))
    with pytest.raises(ValueError):
        dataset.parse_shard("3/3")


def test_the_ray_job_on_a_local_two_cpu_cluster_matches_one_machine(models, tmp_path):
    ray = pytest.importorskip("ray", reason="Ray is the optional extra clasp[ray]")
    from clasp import ray as clasp_ray

    reference = job(models, tmp_path / "local")
    dataset.run_local(reference, progress=None)
    on_ray = job(models, tmp_path / "ray")
    lines = []
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        written = clasp_ray.run(on_ray, progress=lines.append)
        assert len(written) == len(dataset.tasks(on_ray)) == 8
        assert lines[-1].startswith("8/8 shards, 200 grasps")
        local, remote = dataset.read(reference.out), dataset.read(on_ray.out)
        assert remote.num_rows == 2 * 100
        assert dataset.same_rows(local, remote)
        closures = np.array(remote.column("force_closure").to_pylist())
        assert closures.any()
        # A second run finds every shard written and writes nothing new.
        stamps = {p: p.stat().st_mtime_ns for p in written}
        assert clasp_ray.run(on_ray, progress=None) == []
        assert {p: p.stat().st_mtime_ns for p in written} == stamps
    finally:
        ray.shutdown()


def test_the_command_line_runs_the_job_locally(models, tmp_path):
    from clasp import ray as clasp_ray

    out = tmp_path / "cli"
    hand = str(models / "robots" / "ClaspHand" / "ClaspHand.xml")
    mug = str(models / "objects" / "clasp_mug.xml")
    args = [hand, mug, "--grasps", "30", "--task-size", "10", "--out", str(out), "--local"]
    assert clasp_ray.main(args) == 0
    assert dataset.read(out).num_rows == 30
    shards = sorted(out.glob("*.parquet"))
    stamps = [p.stat().st_mtime_ns for p in shards]
    assert clasp_ray.main(args) == 0
    assert sorted(out.glob("*.parquet")) == shards
    assert [p.stat().st_mtime_ns for p in shards] == stamps, "a rerun writes nothing"


def test_a_job_with_the_physics_test_adds_held_and_each_directions_figures(models, tmp_path):
    tested = job(models, tmp_path / "tested", grasps=2, objects=("clasp_mug.xml",), task_size=2, test=True)
    dataset.run_local(tested, progress=None)
    table = dataset.read(tested.out)
    assert table.column_names == dataset.COLUMNS + dataset.TEST_COLUMNS
    assert table.num_rows == 2
    for moved, turned in zip(table.column("hold_displacement").to_pylist(), table.column("hold_rotation").to_pylist()):
        assert len(moved) == 6 and len(turned) == 6
    held = table.column("held").to_pylist()
    moved = table.column("hold_displacement").to_pylist()
    turned = table.column("hold_rotation").to_pylist()
    for h, m, t in zip(held, moved, turned):
        assert h == (all(x <= 20.0 for x in m) and all(y <= 15.0 for y in t))
    # A rerun resumes: nothing left to test again.
    assert dataset.run_local(tested, progress=None) == []


def test_a_job_with_views_pictures_objects_and_grasps_and_resumes_without_rendering(models, tmp_path):
    viewed = job(models, tmp_path / "viewed", grasps=3, objects=("clasp_mug.xml",), task_size=2, views=4)
    written = dataset.run_local(viewed, progress=None)
    table = dataset.read(viewed.out)
    assert table.column_names == dataset.COLUMNS + dataset.VIEW_COLUMNS
    assert table.num_rows == 3
    for data in table.column("image").to_pylist():
        picture = dataset.decode_image(data)
        assert picture["rgb"].shape == (480, 640, 3) and picture["depth"].shape == (480, 640)
        labels = set(np.unique(picture["segmentation"]).tolist())
        assert 0 in labels, "the object is seen"
        assert labels - {-1, 0}, "and so is the hand"
    views = dataset.read_views(viewed.out)
    assert views.column("view").to_pylist() == [0, 1, 2, 3]
    directions = np.array(views.column("direction").to_pylist())
    assert np.allclose(np.linalg.norm(directions, axis=1), 1.0)
    for data in views.column("image").to_pylist():
        picture = dataset.decode_image(data)
        assert set(np.unique(picture["segmentation"]).tolist()) == {-1, 0}, "the object alone"
        seen = picture["segmentation"] == 0
        assert np.isfinite(picture["depth"][seen]).all() and np.isinf(picture["depth"][~seen]).all()
    # A rerun renders nothing; a lost shard is written again without its object's views (and
    # the shards gathered again into grasps.parquet).
    files = sorted(p for p in Path(viewed.out).rglob("*.parquet") if p.name != dataset.COMBINED)
    stamps = [p.stat().st_mtime_ns for p in files]
    assert dataset.run_local(viewed, progress=None) == []
    written[0].unlink()
    assert dataset.run_local(viewed, progress=None) == [written[0]]
    assert [p.stat().st_mtime_ns for p in files if p != written[0]] == [
        s for p, s in zip(files, stamps) if p != written[0]
    ]


def test_the_ray_job_takes_a_test_preset(graspit, tmp_path):
    from clasp import ray as clasp_ray

    hand = str(graspit / "robots" / "Barrett" / "Barrett.xml")
    mug = str(graspit / "objects" / "mug.xml")
    for preset, runs in {"clasp": 6, "dexgraspnet": 6, "bodex": 6, "graspgen": 1}.items():
        out = tmp_path / preset
        args = [hand, mug, "--grasps", "2", "--task-size", "2", "--out", str(out), "--local", "--test-preset", preset]
        assert clasp_ray.main(args) == 0
        table = dataset.read(out)
        assert table.column_names == dataset.COLUMNS + dataset.TEST_COLUMNS, preset
        assert all(len(moved) == runs for moved in table.column("hold_displacement").to_pylist()), preset
        assert all(len(f) == 3 for f in table.column("fingers_on_object").to_pylist()), preset
    with pytest.raises(ValueError, match="preset needs the physics test"):
        dataset.Job(hand=hand, objects=(mug,), grasps=1, out=str(tmp_path), test_preset="bodex")


def test_the_ray_job_keeps_each_grasps_test_as_a_recording(graspit, tmp_path):
    from clasp import ray as clasp_ray

    hand = str(graspit / "robots" / "Barrett" / "Barrett.xml")
    mug = str(graspit / "objects" / "mug.xml")
    out = tmp_path / "recorded"
    args = [hand, mug, "--grasps", "3", "--task-size", "3", "--out", str(out), "--local", "--record"]
    assert clasp_ray.main(args) == 0
    table = dataset.read(out)
    assert table.column_names == dataset.COLUMNS + dataset.TEST_COLUMNS, "--record implies --test"
    job = dataset.Job(hand=hand, objects=(mug,), grasps=3, out=str(out), test=True, record=True)
    for k in range(len(table)):
        path = dataset.recording_path(job, 0, k)
        assert path.is_file() and path.with_name(path.name + ".xml").is_file(), path
        moments = json.loads(path.read_text())["moments"]
        assert len(moments) > 6 and moments[0]["time"] == 0.0
        # The runs recorded start from the row's grasp: the palm (body 1, after the mug) where
        # the row says, the fingers at its DOFs.
        palm = np.asarray(table.column("palm")[k].as_py()).reshape(4, 4)
        assert np.allclose(moments[0]["poses"][1][:3], palm[:3, 3], atol=1e-9), k
        assert np.allclose(moments[0]["robots"][0]["dofs"], table.column("dofs")[k].as_py(), atol=1e-9), k
    assert dataset.Job(hand=hand, objects=(mug,), grasps=1, out=str(out), test=True, record=True).recipe() == dataset.Job(
        hand=hand, objects=(mug,), grasps=1, out=str(out), test=True
    ).recipe(), "recording changes no label: it is not in the recipe"
    with pytest.raises(ValueError, match="needs test=True"):
        dataset.Job(hand=hand, objects=(mug,), grasps=1, out=str(tmp_path), record=True)


def test_a_planned_job_writes_the_planners_grasps_held_first_and_resumes(models, graspit, tmp_path):
    planned = Job(
        hand=str(graspit / "robots" / "Barrett" / "Barrett.xml"),
        objects=(str(models / "objects" / "clasp_mug.xml"),),
        grasps=3,
        out=str(tmp_path / "planned"),
        seed=3,
        test=True,
        plan=True,
    )
    assert dataset.tasks(planned) == [dataset.Task(0, 0, 3)]
    assert len(dataset.run_local(planned, progress=None)) == 1
    table = dataset.read(planned.out)
    assert table.column_names == dataset.COLUMNS + dataset.TEST_COLUMNS + dataset.PLAN_COLUMNS
    assert 1 <= table.num_rows <= 3
    held = table.column("held").to_pylist()
    assert held == sorted(held, reverse=True), "held grasps first"
    # A grasp held has fingers on the mug at the end of its squeeze. (Not force closure as a
    # rule: a kinematic closing stops each finger at its first touch, and the squeeze may add
    # the contacts that hold; with this seed the plan's three held grasps have 4-5 contacts.)
    fingers = table.column("fingers_on_object").to_pylist()
    assert all(sum(map(bool, f)) >= 2 for f, h in zip(fingers, held) if h), fingers
    # The same rows as the plan itself, and a rerun writes nothing.
    world = dataset.scene(planned, 0)
    plan = world.plan(grasps=3, seed=dataset.object_seed(planned, 0), test=True)
    assert table.column("energy").to_pylist() == plan["energy"].tolist()
    assert held == plan["held"].tolist()
    assert table.column("force_closure").to_pylist() == plan["force_closure"].tolist()
    assert dataset.run_local(planned, progress=None) == []
    with pytest.raises(ValueError, match="planned job"):
        Job(**{**dataset.job_dict(planned), "views": 2})
