"""Batches of grasps: one call evaluates many grasps in parallel and gives what each gives run
alone; the same seed gives the same candidates; the Rust CLI's batch gives the same grasps."""

from __future__ import annotations

import json
import subprocess
import threading
import time

import numpy as np

import clasp


def scene(models):
    world = clasp.World()
    world.add_body(models / "objects" / "clasp_mug.xml")
    world.add_robot(models / "robots" / "ClaspHand" / "ClaspHand.xml")
    return world


def test_batch_results_equal_the_same_grasps_run_one_by_one(models):
    world = scene(models)
    candidates = clasp.grasp_candidates(world, 24, seed=5)
    again = clasp.grasp_candidates(world, 24, seed=5)
    for name in ("direction", "roll", "dofs", "palm", "approach"):
        assert np.array_equal(candidates[name], again[name])
    assert not np.array_equal(clasp.grasp_candidates(world, 24, seed=6)["palm"], candidates["palm"])
    batch = world.grasp_batch(candidates)
    # Explicit starts end where the aims they came from end: within the contact band (the 4x4
    # matrices round-trip through quaternions a few ulps off, and a move stops anywhere in a
    # gap of (0, threshold/2)).
    starts = {name: candidates[name] for name in ("palm", "dofs", "approach")}
    from_starts = world.grasp_batch(starts)
    assert np.allclose(from_starts["palm"], batch["palm"], atol=world.contact_threshold)
    assert batch["palm"].shape == (24, 4, 4) and batch["dofs"].shape == (24, 4)
    assert batch["force_closure"].dtype == bool and (batch["seconds"] > 0).all()
    assert batch["force_closure"].any()
    for k in range(24):
        alone = world.copy()
        reach = alone.aim(candidates["direction"][k], candidates["roll"][k])
        alone.set_dofs(0, candidates["dofs"][k])
        assert reach == candidates["approach"][k]
        assert np.array_equal(alone.robot_pose(0), candidates["palm"][k])
        alone.approach(distance=reach)
        alone.auto_grasp()
        assert np.array_equal(alone.robot_pose(0), batch["palm"][k])
        assert np.array_equal(alone.dof_values(0), batch["dofs"][k])
        on_mug = [c for c in alone.contacts_of(clasp.BodyId.free(0)) if c.other.robot == 0]
        assert len(on_mug) == batch["contacts"][k]
        if on_mug:
            quality = alone.grasp_quality(metric="volume")
            assert quality.force_closure == batch["force_closure"][k]
            if quality.force_closure:
                assert quality.epsilon == batch["epsilon"][k]
                assert quality.volume == batch["volume"][k]


def test_the_rust_batch_gives_the_same_grasps(models, clasp_cli):
    mug = models / "objects" / "clasp_mug.xml"
    hand = models / "robots" / "ClaspHand" / "ClaspHand.xml"
    command = [str(clasp_cli), "batch", str(mug), "--hand", str(hand), "--grasps", "16",
               "--seed", "9", "--json"]
    rust = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    world = scene(models)
    batch = world.grasp_batch(clasp.grasp_candidates(world, 16, seed=9))
    for k, row in enumerate(rust["results"]):
        assert batch["palm"][k].reshape(16).tolist() == row["palm"]
        assert batch["dofs"][k].tolist() == row["dofs"]
        assert batch["force_closure"][k] == row["force_closure"]
        if row["force_closure"]:
            assert batch["epsilon"][k] == row["epsilon"] and batch["volume"][k] == row["volume"]


def test_a_batch_releases_the_gil(models):
    world = scene(models)
    candidates = clasp.grasp_candidates(world, 60, seed=1)
    ticks = []
    running = threading.Event()

    def count():
        running.set()
        end = time.perf_counter() + 0.3
        while time.perf_counter() < end:
            ticks.append(1)
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    running.wait()
    world.grasp_batch(candidates, threads=1)
    counter.join()
    assert len(ticks) > 20, "Python ran while the batch did"
