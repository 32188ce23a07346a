"""A hand as the field ships it (URDF): what Clasp works out of its kinematics, from Python."""

from __future__ import annotations

import numpy as np

import clasp


def test_a_branching_urdf_hand_reports_where_its_palm_faces_and_what_each_dof_does(models):
    world = clasp.World()
    world.add_robot(models / "robots" / "ClaspTreeHand" / "ClaspTreeHand.urdf")
    reference, direction = world.hand_approach(0)
    # The tree hand's fingers curl toward the palm's -y side.
    np.testing.assert_allclose(direction, [0.0, -1.0, 0.0], atol=1e-6)
    assert reference[1] < 0.0
    roles = world.dof_roles(0)
    assert len(roles) == len(world.dof_limits(0)) == 23
    # Two wrist joints carry every finger; each finger's first joint spreads it, the others curl it.
    assert roles[:2] == ["wrist", "wrist"]
    assert roles[2:5] == ["spread", "close+", "close+"]
    assert set(roles) == {"wrist", "spread", "close+"}



def test_a_hand_s_settings_file_says_what_clasp_worked_out(models):
    import xml.etree.ElementTree as ElementTree

    world = clasp.World()
    world.add_robot(models / "robots" / "ClaspTreeHand" / "ClaspTreeHand.urdf")
    root = ElementTree.fromstring(world.hand_settings(0))
    assert root.tag == "claspHand"
    # Each DOF once, its velocity's sign the way the kinematics say it closes (0: left alone).
    dofs = root.findall("dof")
    assert [int(d.get("index")) for d in dofs] == list(range(23))
    senses = {"close+": 1.0, "close-": -1.0, "spread": 0.0, "wrist": 0.0}
    for dof, role in zip(dofs, world.dof_roles(0)):
        assert np.sign(float(dof.get("velocity"))) == senses[role]
    direction = [float(x) for x in root.find("approach/direction").text.split()]
    np.testing.assert_allclose(direction, world.hand_approach(0)[1])

def test_a_graspit_hand_keeps_its_file_s_approach(graspit):
    world = clasp.World()
    world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml")
    reference, direction = world.hand_approach(0)
    assert list(direction) == [0.0, 0.0, 1.0]
    assert world.dof_roles(0) == ["spread", "close+", "close+", "close+"]


def test_a_parallel_gripper_s_candidates_are_antipodal_starts_that_close_both_jaws(graspit):
    hands = graspit.parent / "hands"
    world = clasp.World()
    world.add_body(graspit / "objects" / "mug.xml", kind="graspable")
    world.add_robot(hands / "panda_gripper" / "panda_gripper_glb.urdf")
    candidates = clasp.grasp_candidates(world, 6, seed=0)
    # No aims: a gripper's candidates are starts that approach all the way to their pair.
    assert "direction" not in candidates
    assert candidates["palm"].shape == (6, 4, 4)
    assert candidates["through"].tolist() == [True] * 6
    results = world.grasp_batch(candidates, test=True)
    # Both jaws touch the mug (at least a contact each); the physics test labels each grasp.
    assert (results["contacts"] >= 2).sum() >= 5, results["contacts"]
    assert results["held"].shape == (6,)


def test_a_parallel_gripper_plans_grasps_that_hold(graspit):
    # The planner at its defaults: antipodal candidates, each closed and tested, until ten
    # distinct grasps hold (the release build measured 10 of 10 on the mug).
    world = clasp.World()
    world.add_body(graspit / "objects" / "mug.xml", kind="graspable")
    world.add_robot(graspit.parent / "hands" / "panda_gripper" / "panda_gripper_glb.urdf")
    plan = world.plan(seed=0)
    assert plan["why_empty"] is None
    assert plan["held"].sum() >= 5, plan["held"]
    # Held first; each grasp's energy is the most the mug moved in its test, within the
    # test's 20 mm for every grasp that held.
    held = plan["held"].tolist()
    assert held == sorted(held, reverse=True)
    assert (plan["energy"][plan["held"]] <= 20.0).all()
