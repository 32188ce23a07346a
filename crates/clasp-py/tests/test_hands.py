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


def test_a_graspit_hand_keeps_its_file_s_approach(graspit):
    world = clasp.World()
    world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml")
    reference, direction = world.hand_approach(0)
    assert list(direction) == [0.0, 0.0, 1.0]
    assert world.dof_roles(0) == ["spread", "close+", "close+", "close+"]
