"""Dynamics from Python: a box falls onto a table and rests there, its weight carried by the
contacts' impulses; bad values raise and change nothing."""

from __future__ import annotations

import signal
import threading

import numpy as np
import pytest
import trimesh

import clasp


def box_on_table(height: float) -> tuple[clasp.World, clasp.BodyId]:
    world = clasp.World()
    table = trimesh.creation.box(extents=(400.0, 400.0, 20.0))
    world.add_mesh(table.vertices, table.faces, name="table", kind="obstacle", pose=clasp.pose((0, 0, -10)))
    cube = trimesh.creation.box(extents=(20.0, 20.0, 20.0))
    box = world.add_mesh(cube.vertices, cube.faces, name="box", pose=clasp.pose((0, 0, 10 + height)))
    return world, box


def test_a_free_body_falls_as_gravity_says():
    world, box = box_on_table(1000.0)
    world.set_velocity(box, [100.0, 0.0, 0.0])
    assert world.simulate(0.2) == 200
    z = world.body_pose(box)[2, 3]
    assert z == pytest.approx(1010.0 - 0.5 * 9810.0 * 0.2**2, abs=1e-6)
    linear, angular = world.velocity(box)
    np.testing.assert_allclose(linear, [100.0, 0.0, -9810.0 * 0.2], atol=1e-6)
    np.testing.assert_allclose(angular, 0.0, atol=1e-12)


def test_a_dropped_box_rests_and_its_contacts_carry_its_weight():
    world, box = box_on_table(3.0)
    world.simulate(1.0)
    assert not world.overlapping_pairs()
    assert world.body_pose(box)[2, 3] == pytest.approx(10.0, abs=0.1)
    world.step()
    contacts = world.contacts_of(box)
    assert contacts
    # The box is object B (the table came first): the impulse from B on A presses the table
    # down, so the box is pushed up by its negative.
    up = -sum(c.world_impulse for c in contacts)
    mass = 8.0  # 20 mm cube at 1 g/cm³
    assert up[2] == pytest.approx(mass * 9810.0 * world.time_step, rel=0.01)
    assert all(c.impulse[2] > 0 for c in contacts)
    arrays = world.contact_arrays(box)
    np.testing.assert_allclose(arrays["world_impulse"].sum(axis=0), -up, rtol=1e-9)
    assert np.all(arrays["impulse"][:, 2] > 0)
    assert all(c.index_in_contact_problem is not None for c in contacts)
    for c in contacts:
        g = c.inverse_inertia
        np.testing.assert_allclose(g, g.T, atol=1e-12)
        assert np.all(np.linalg.eigvalsh(g) > 0), "the box answers every impulse"


@pytest.mark.parametrize("solver", ["newton", "sweeps", "lcp"])
def test_each_contact_solver_rests_the_box_on_its_weight(solver):
    world, box = box_on_table(3.0)
    assert world.contact_solver == "newton", "Newton's method is the default"
    world.contact_solver = solver
    assert world.contact_solver == solver
    world.simulate(0.5)
    world.step()
    up = -sum(c.world_impulse for c in world.contacts_of(box))
    assert up[2] == pytest.approx(8.0 * 9810.0 * world.time_step, rel=0.01)
    assert world.body_pose(box)[2, 3] == pytest.approx(10.0, abs=0.1)


def test_bad_dynamics_values_raise_and_change_nothing():
    world, box = box_on_table(3.0)
    with pytest.raises(clasp.MoveError):
        world.time_step = 0.0
    with pytest.raises(ValueError, match="no contact solver"):
        world.contact_solver = "gauss"
    assert world.contact_solver == "newton"
    with pytest.raises(clasp.MoveError):
        world.gravity = [0.0, float("nan"), 0.0]
    with pytest.raises(clasp.MoveError):
        world.set_velocity(clasp.BodyId.free(0), [1.0, 0.0, 0.0])  # the table does not move
    with pytest.raises(clasp.MoveError):
        world.set_velocity(box, [float("inf"), 0.0, 0.0])
    # A step too short to end a run or too long to see a contact coming, a duration that is
    # not one, a run that would not end: each refused up front, saying what is wrong.
    for seconds in (1e-300, 0.5):
        with pytest.raises(clasp.MoveError, match="a time step must be between"):
            world.time_step = seconds
    with pytest.raises(clasp.MoveError, match="a duration must be"):
        world.simulate(-1.0)
    with pytest.raises(clasp.MoveError, match="run it in parts"):
        world.simulate(1e300)
    assert world.time_step == 0.001
    np.testing.assert_allclose(world.gravity, [0.0, 0.0, -9810.0])
    world.gravity = [0.0, 0.0, 0.0]
    world.simulate(0.1)
    assert world.body_pose(box)[2, 3] == pytest.approx(13.0)


def test_ctrl_c_stops_a_long_simulation_at_a_whole_step():
    # A box falling for the whole run under a gentle pull (1 mm/s², so that 900,000 steps
    # never reach the speed a blown-up step is refused at).
    def falling():
        world, box = box_on_table(1e9)
        world.gravity = [0.0, 0.0, -1.0]
        return world, box

    world, box = falling()
    # Python's own Ctrl-C handler, whatever an earlier test's library (Ray's workers) left in
    # its place: the run must see KeyboardInterrupt, not a signal taken elsewhere.
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, lambda: signal.raise_signal(signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            world.simulate(900.0)  # 900,000 steps: seconds, were it not stopped
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, handler)
    z, vz = world.body_pose(box)[2, 3], world.velocity(box)[0][2]
    # A whole number of steps: each adds g dt to the speed.
    steps = round(-vz / (1.0 * world.time_step))
    assert 0 < steps < 900_000
    again, box_again = falling()
    again.simulate(steps * again.time_step)
    assert world.body_pose(box)[2, 3] == again.body_pose(box_again)[2, 3] == z
    # And it goes on from there.
    world.step()
    assert world.velocity(box)[0][2] < vz


def test_bodies_that_start_inside_one_another_are_refused_or_separated():
    world, box = box_on_table(-15.0)  # its bottom 15 mm into the table
    with pytest.raises(clasp.MoveError, match="table and box interpenetrate"):
        world.simulate(0.1)
    assert world.body_pose(box)[2, 3] == pytest.approx(-5.0)
    assert world.simulate(0.1, resolve_overlaps=True) == 100
    assert not world.overlapping_pairs()
    assert world.body_pose(box)[2, 3] == pytest.approx(10.0, abs=0.1)


def test_a_kinematic_pusher_moves_as_told_and_pushes_the_box():
    world, box = box_on_table(0.02)
    block = trimesh.creation.box(extents=(20.0, 20.0, 20.0))
    pusher = world.add_mesh(block.vertices, block.faces, name="pusher", kind="obstacle", pose=clasp.pose((-21.0, 0, 10.5)))
    assert world.body_type(pusher) == "static"
    with pytest.raises(clasp.MoveError):
        world.set_body_type(pusher, "floating")
    world.set_body_type(pusher, "kinematic")
    world.set_velocity(pusher, [100.0, 0.0, 0.0])
    start = world.body_pose(box)[0, 3]
    world.simulate(0.5)
    assert world.body_pose(pusher)[0, 3] == pytest.approx(-21.0 + 50.0, abs=1.0)
    assert world.body_pose(box)[0, 3] - start == pytest.approx(49.0, abs=2.0)
    assert [c.other_type for c in world.contacts_of(box) if c.other == pusher] != []
    assert all(c.other_type == "kinematic" for c in world.contacts_of(box) if c.other == pusher)
    assert not world.overlapping_pairs()


def test_a_grasp_that_closes_holds_in_six_directions_and_an_open_hand_does_not():
    world = clasp.World.default_scene()
    world.approach(distance=200.0)
    world.auto_grasp()
    test = world.test_grasp()
    assert test["held"] is True
    assert test["displacement"].shape == (6,) and test["rotation"].shape == (6,)
    assert test["direction_held"].all()
    assert (test["displacement"] <= 20.0).all() and (test["rotation"] <= 15.0).all()
    again = world.test_grasp()
    np.testing.assert_array_equal(again["displacement"], test["displacement"])
    world.auto_open()
    opened = world.test_grasp()
    assert opened["held"] is False
    assert (~opened["direction_held"]).sum() >= 4
    with pytest.raises(clasp.MoveError):
        world.test_grasp(seconds=-1.0)


def test_a_driven_hand_closes_towards_its_targets():
    world = clasp.World.default_scene()
    world.gravity = [0.0, 0.0, 0.0]
    start = world.dof_values(0).copy()
    targets = start.copy()
    targets[1] = start[1] + 0.3
    world.drive_robot(0, targets)
    world.simulate(0.05)
    assert world.dof_values(0)[1] > start[1] + 0.1, "the controller closes the finger"
    assert world.dof_velocities(0)[1] > 0.0
    world.release_robot(0)
    assert (world.dof_velocities(0) == 0.0).all()
    with pytest.raises(clasp.MoveError):
        world.drive_robot(0, [9.0] * len(start))


def test_a_batch_can_carry_each_grasps_physics_test():
    world = clasp.World.default_scene()
    candidates = clasp.grasp_candidates(world, count=2, seed=7)
    grasps = world.grasp_batch(candidates, test=True, threads=2)
    assert grasps["held"].shape == (2,)
    assert grasps["hold_displacement"].shape == (2, 6) and grasps["hold_rotation"].shape == (2, 6)
    alone = world.grasp_batch(candidates, test=True, threads=1)
    np.testing.assert_array_equal(alone["hold_displacement"], grasps["hold_displacement"])


def test_dynamic_auto_grasp_closes_the_hand_until_it_presses():
    world = clasp.World.default_scene()
    world.gravity = [0.0, 0.0, 0.0]
    world.approach(distance=200.0)
    seconds = world.dynamic_auto_grasp(max_seconds=2.0)
    assert 0.0 < seconds < 2.0
    on_mug = world.contacts_of(clasp.BodyId.free(0))
    assert on_mug and any(np.linalg.norm(c.world_impulse) > 0.0 for c in on_mug)


def test_graspits_lift_raises_the_mug_in_the_closed_hand():
    world = clasp.World.default_scene()
    world.approach(distance=200.0)
    world.auto_grasp()
    lift = world.lift_grasp(height=100.0, speed=200.0)
    assert lift["held"] is True and lift["raised"] == pytest.approx(100.0, abs=5.0)
    with pytest.raises(clasp.MoveError):
        world.lift_grasp(speed=0.0)


def test_a_hand_with_a_free_base_falls_onto_the_mug_and_stops_there():
    world = clasp.World.default_scene()
    mug = clasp.BodyId.free(0)
    world.set_body_type(mug, "static")
    palm = clasp.BodyId.palm(0)
    # Over the mug, the fingers held open where they are.
    mug_top = world.body_pose(mug)[:3, 3] + [0.0, 0.0, 250.0]
    world.set_pose(palm, clasp.pose(mug_top))
    world.drive_robot(0, world.dof_values(0))
    assert not world.has_free_base(0)
    world.set_free_base(0)
    assert world.has_free_base(0)
    start = world.robot_pose(0)[2, 3]
    world.simulate(0.6)
    fell = start - world.robot_pose(0)[2, 3]
    assert 10.0 < fell < 0.5 * 9810.0 * 0.6**2, f"it fell {fell} mm, and the mug stopped it"
    assert world.overlapping_pairs() == []
    assert any(c.other == mug or c.body == mug for c in world.robot_contacts(0)), "it rests on the mug"
    world.set_free_base(0, False)
    assert not world.has_free_base(0)
    with pytest.raises(clasp.MoveError):
        world.set_free_base(5)


def test_the_squeeze_says_how_the_hand_presses():
    world = clasp.World.default_scene()
    world.approach(distance=200.0)
    world.auto_grasp()
    test = world.test_grasp()
    efforts, limits = test["dof_efforts"], test["effort_limits"]
    assert efforts.shape == limits.shape == (world.dof_values(0).shape[0],)
    assert (np.abs(efforts) <= limits * (1 + 1e-9)).all()
    assert test["squeeze_force"] > 0.0
    assert test["fingers_on_object"].any()
    assert len(test["fingers_on_fingers"]) == len(test["fingers_on_object"]) == len(test["fingers_on_palm"])
    with pytest.raises(ValueError, match="unknown test preset"):
        world.test_grasp(preset="isaac")


def test_each_preset_tests_the_barretts_grasp_of_graspits_mug(graspit):
    world = clasp.World()
    world.add_body(graspit / "objects" / "mug.xml")
    world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml", pose=clasp.pose((0, 0, 1000)))
    candidates = clasp.grasp_candidates(world, count=4, seed=2)
    runs = {"clasp": 6, "dexgraspnet": 6, "bodex": 6, "graspgen": 1}
    for preset, count in runs.items():
        batch = world.grasp_batch(candidates, test=True, test_preset=preset, threads=2)
        assert batch["held"].shape == (4,), preset
        assert batch["hold_displacement"].shape == (4, count), preset
        assert batch["fingers_on_object"].shape == (4, 3), preset
        assert (np.nan_to_num(batch["squeeze_force"]) >= 0.0).all(), preset
    # The default is Clasp's own test: the same answers as naming it.
    named = world.grasp_batch(candidates, test=True, test_preset="clasp", threads=2)
    plain = world.grasp_batch(candidates, test=True, threads=2)
    np.testing.assert_array_equal(named["hold_displacement"], plain["hold_displacement"])
