"""Recordings and videos from Python and from clasp-cli: rerun's SDK reads the .rrd files back
(the bodies' entities, their poses on the `sim_time` timeline, the contacts), Clasp's own files
carry their world beside them, videos have a frame for each 1/fps and show the bodies moving."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clasp

rerun_chunk = pytest.importorskip("rerun.chunk", reason="rerun-sdk is not installed (pip install rerun-sdk)")
Image = pytest.importorskip("PIL.Image", reason="pillow is not installed")


def rrd_entities(path: Path) -> dict[str, list]:
    """Each entity of an .rrd file with its chunks: (rows, timelines, static)."""
    entities: dict[str, list] = {}
    for chunk in rerun_chunk.RrdReader(path).stream():
        entities.setdefault(chunk.entity_path, []).append((chunk.num_rows, chunk.timeline_names, chunk.is_static))
    return entities


def assert_glass_run(path: Path, moments: int) -> None:
    entities = rrd_entities(path)
    for body in ("/world/bodies/0_table", "/world/bodies/1_glass"):
        chunks = entities[body]
        assert any(static for _, _, static in chunks), f"{body}'s mesh is logged once"
        timed = [(rows, names) for rows, names, static in chunks if not static]
        assert sum(rows for rows, _ in timed) == moments and all("sim_time" in n for _, n in timed)
    for part in ("points", "normals", "forces"):
        assert sum(rows for rows, _, _ in entities[f"/world/contacts/{part}"]) == moments


def test_simulate_records_an_rrd_that_rerun_reads_back(graspit: Path, models: Path, tmp_path: Path):
    world = clasp.World.load(models / "worlds" / "graspit_glass_on_table.xml", graspit_root=graspit)
    steps = world.simulate(0.5, record=tmp_path / "glass.rrd")
    assert steps == 500
    assert_glass_run(tmp_path / "glass.rrd", moments=51)


def test_clasp_cli_records_two_seconds_that_rerun_reads_back(graspit: Path, models: Path, clasp_cli: Path, tmp_path: Path):
    out = tmp_path / "r.rrd"
    world = models / "worlds" / "graspit_glass_on_table.xml"
    env = dict(os.environ, CLASP_PYTHON=sys.executable)
    args = [clasp_cli, "simulate", world, "--seconds", "2", "--record", out, "--graspit-root", graspit]
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "recorded 201 moments" in done.stdout
    assert_glass_run(out, moments=201)


def test_clasp_recordings_keep_their_world_beside_them(graspit: Path, models: Path, tmp_path: Path):
    world = clasp.World.default_scene()
    world.approach(distance=200.0)
    world.auto_grasp()
    world.test_grasp(seconds=0.1, record=tmp_path / "test.clasprec")
    assert (tmp_path / "test.clasprec.xml").is_file()
    document = json.loads((tmp_path / "test.clasprec").read_text())
    times = [m["time"] for m in document["moments"]]
    assert len(times) > 6 and times == pytest.approx([0.01 * k for k in range(len(times))])


def test_unknown_kinds_are_refused_before_the_run(models: Path, tmp_path: Path):
    world = clasp.World.load(models / "worlds" / "raisim_four_spheres.xml")
    before = world.body_pose(world.bodies[0])
    with pytest.raises(ValueError, match="a recording is a .rrd file"):
        world.simulate(0.1, record=tmp_path / "run.txt")
    with pytest.raises(ValueError, match="a video is a .gif"):
        world.render_video(tmp_path / "run.avi", 0.1)
    with pytest.raises(ValueError, match="give 1 to 50"):
        world.render_video(tmp_path / "fast.gif", 0.1, fps=60)
    # A video that cannot be written takes its run back.
    with pytest.raises(clasp.MoveError):
        world.render_video(tmp_path / "no" / "such" / "folder.gif", 0.1)
    assert np.array_equal(world.body_pose(world.bodies[0]), before)
    assert not list(tmp_path.iterdir())


def test_render_video_draws_a_frame_for_each_thirtieth_of_a_falling_world(models: Path, tmp_path: Path):
    world = clasp.World.load(models / "worlds" / "raisim_four_spheres.xml")
    frames = world.render_video(tmp_path / "fall.gif", 0.5, width=160, height=120, fps=30, look_from=[1.0, 0.0, 0.0])
    assert frames == 16
    with Image.open(tmp_path / "fall.gif") as video:
        assert video.size == (160, 120) and video.n_frames == 16
        video.seek(0)
        first = np.asarray(video.convert("RGB"))
        video.seek(15)
        last = np.asarray(video.convert("RGB"))
    assert (first != last).any(axis=2).sum() > 100, "the spheres fall between the first and last frames"
