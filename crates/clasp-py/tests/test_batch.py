"""Batches of grasps: one call evaluates many grasps in parallel and gives what each gives run
alone; the same seed gives the same candidates; the Rust CLI's batch gives the same grasps."""

from __future__ import annotations

import json
import subprocess
import threading
import time

import numpy as np
import pytest

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
    batch = world.grasp_batch(candidates, metric="volume")
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
    batch = world.grasp_batch(clasp.grasp_candidates(world, 16, seed=9), metric="volume")
    assert len(rust["results"]) == 16
    for k, row in enumerate(rust["results"]):
        assert batch["palm"][k].reshape(16).tolist() == row["palm"]
        assert batch["dofs"][k].tolist() == row["dofs"]
        assert batch["force_closure"][k] == row["force_closure"]
        if row["force_closure"]:
            assert batch["epsilon"][k] == row["epsilon"] and batch["volume"][k] == row["volume"]


def test_a_batch_releases_the_gil(models):
    world = scene(models)
    candidates = clasp.grasp_candidates(world, 80, seed=1)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.01)
    started = time.perf_counter()
    world.grasp_batch(candidates, threads=1)
    ended = time.perf_counter()
    stop.set()
    counter.join()
    assert ended - started > 0.1, "the batch is long enough to tell"
    during = [t for t in ticks if started < t < ended]
    assert len(during) > 0.3 * (ended - started) / 0.001 / 2, "Python ran while the batch did"


def test_bad_candidates_raise_value_errors_naming_them(models):
    world = scene(models)
    candidates = clasp.grasp_candidates(world, 4, seed=2)
    wrong = dict(candidates, direction=candidates["direction"][:, :2])
    with pytest.raises(ValueError, match=r"\(N, 3\)"):
        world.grasp_batch(wrong)
    outside = dict(candidates, dofs=candidates["dofs"] + 100.0)
    with pytest.raises(ValueError, match="candidate 0"):
        world.grasp_batch(outside)
    with pytest.raises(ValueError, match="threads"):
        world.grasp_batch(candidates, threads=0)
    with pytest.raises(ValueError, match="need"):
        world.grasp_batch({"dofs": candidates["dofs"]})


def test_the_planner_from_python(graspit):
    world = clasp.World()
    world.add_body(graspit / "objects" / "mug.xml")
    world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml", pose=clasp.pose((0, 0, 1000)))
    plan = world.plan(steps=1500, seed=3)
    again = world.plan(steps=1500, seed=3)
    assert plan["steps"] == 4 * 1500 and plan["evaluations"] >= plan["steps"]
    assert plan["palm"].shape[1:] == (4, 4) and len(plan["energy"]) == len(plan["palm"])
    assert plan["force_closure"].any()
    for name in ("palm", "dofs", "contacts", "force_closure", "energy"):
        assert np.array_equal(plan[name], again[name]), name
    assert plan["why_empty"] is None
    # The mug alone: the default mixed energy's searches take the two energies in turn.
    assert plan["search_energies"] == ["contact", "contact-quality"] * 2
    # Where the searches' time went, share by share; planning on the object's distance
    # grid finds force closure too.
    shares = plan["shares"]
    assert set(shares) == {"placement", "collision", "distances", "quality", "search"}
    assert shares["collision"] > 0 and shares["distances"] > 0 and shares["placement"] > 0
    grid = world.plan(steps=1500, seed=3, distance_grid=True)
    assert grid["force_closure"].any() and grid["steps"] == plan["steps"]
    # The annealing's parameters by GraspIt's names: its defaults change nothing, others do.
    graspits = dict(yc=7, hc=7, ydims=8, hdims=8, nbr_adj=1, err_adj=1e-6, t0=1e6, k0=30000)
    named = world.plan(steps=1500, seed=3, annealing=graspits)
    assert np.array_equal(named["palm"], plan["palm"])
    hot = world.plan(steps=1500, seed=3, annealing={"k0": 0, "t0": 1e7})
    assert not np.array_equal(hot["palm"], plan["palm"])
    guided = world.plan(steps=500, seed=3, guided=2)
    assert (guided["energy"] < 0).any(), guided["energy"]
    with pytest.raises(ValueError, match="no annealing parameter cooling"):
        world.plan(steps=10, annealing={"cooling": 1.0})
    with pytest.raises(ValueError, match="t0 cannot be"):
        world.plan(steps=10, annealing={"t0": float("nan")})
    with pytest.raises(ValueError, match="energy"):
        world.plan(energy="pleasure")
    with pytest.raises(clasp.MoveError, match="virtual contacts"):
        clasp.World.default_scene().plan(steps=10)


def test_the_planner_tests_its_grasps_until_those_asked_for_hold(graspit):
    world = clasp.World()
    world.add_body(graspit / "objects" / "mug.xml")
    world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml", pose=clasp.pose((0, 0, 1000)))
    plan = world.plan(steps=1500, seed=3, grasps=4, test=True)
    held = plan["held"]
    assert held.shape == (len(plan["palm"]),) and plan["hold_displacement"].shape == (len(held), 6)
    # It closed states until four held, and those come first.
    assert held.all() and len(held) == 4, plan["why_short_of_held"]
    assert plan["why_short_of_held"] is None and 4 <= plan["tested"] <= plan["closed"]
    # Grasps that failed were tried again where their squeezes settled them, and say so.
    assert plan["settled"].shape == held.shape and plan["settled_tested"] >= plan["settled"].sum()
    # A preset names the test (and implies it): GraspGen's is one run.
    one = world.plan(steps=1500, seed=3, grasps=1, preset="graspgen")
    assert one["hold_displacement"].shape == (len(one["held"]), 1)
    with pytest.raises(ValueError, match="unknown test preset"):
        world.plan(steps=10, preset="isaac")
