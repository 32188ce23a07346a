"""Save keeps every edit: each property of a body, changed from Python, is in the saved world and
reads back equal; numbers a body cannot have are refused and change nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import clasp

MUG = clasp.BodyId.free(0)


@pytest.fixture
def world(models: Path) -> clasp.World:
    # Read from the repository's files, so that Save refers to files it can read again.
    return clasp.World.load(models / "worlds" / "default.xml")


def saved_and_loaded(world: clasp.World, tmp_path: Path) -> clasp.World:
    path = tmp_path / "edited.xml"
    world.save(path)
    return clasp.World.load(path)


def test_a_material_is_saved(world, tmp_path):
    assert world.body_material(MUG) != "rubber"
    world.set_material(MUG, "rubber")
    assert saved_and_loaded(world, tmp_path).body_material(MUG) == "rubber"


def test_a_mass_is_saved_and_the_rest_stays(world, tmp_path):
    centre, inertia = world.body_centre(MUG), world.body_inertia(MUG)
    world.set_mass(MUG, mass=123.456789012345)
    loaded = saved_and_loaded(world, tmp_path)
    assert loaded.body_mass(MUG) == 123.456789012345
    assert np.array_equal(loaded.body_centre(MUG), centre)
    assert np.array_equal(loaded.body_inertia(MUG), inertia)


def test_a_centre_of_gravity_is_saved(world, tmp_path):
    world.set_mass(MUG, centre=[1 / 3, -2.5, 40.125])
    assert saved_and_loaded(world, tmp_path).body_centre(MUG).tolist() == [1 / 3, -2.5, 40.125]


def test_an_inertia_is_saved_row_by_row(world, tmp_path):
    # Six different numbers, so a write that mixed up two entries reads back different (one
    # that is not symmetric is repaired on reading).
    inertia = np.array([[900.0, 1.5, -0.75], [1.5, 800.0, 0.25], [-0.75, 0.25, 700 / 3]])
    world.set_mass(MUG, inertia=inertia)
    assert np.array_equal(world.body_inertia(MUG), inertia)
    assert np.array_equal(saved_and_loaded(world, tmp_path).body_inertia(MUG), inertia)


def test_a_youngs_modulus_is_saved_and_makes_contacts_soft(world, tmp_path):
    assert world.body_youngs(MUG) is None
    world.set_youngs(MUG, 2.5e6)
    assert saved_and_loaded(world, tmp_path).body_youngs(MUG) == 2.5e6
    world.set_youngs(MUG, None)
    assert saved_and_loaded(world, tmp_path).body_youngs(MUG) is None


def test_a_name_body_type_velocity_and_groups_are_saved(world, tmp_path):
    world.set_body_name(MUG, "saucer & <cup>")
    world.set_body_type(MUG, "kinematic")
    world.set_velocity(MUG, [1.0, -2.0, 0.5], [0.0, 0.1, 0.0])
    world.set_collision_groups(MUG, 5, 0b1011)
    loaded = saved_and_loaded(world, tmp_path)
    assert loaded.body_name(MUG) == "saucer & <cup>"
    assert loaded.body_type(MUG) == "kinematic"
    linear, angular = loaded.velocity(MUG)
    assert linear.tolist() == [1.0, -2.0, 0.5] and angular.tolist() == [0.0, 0.1, 0.0]
    assert loaded.collision_groups(MUG) == (5, 0b1011)


def test_numbers_a_body_cannot_have_are_refused_and_change_nothing(world):
    mass, centre = world.body_mass(MUG), world.body_centre(MUG)
    with pytest.raises(clasp.MoveError):
        world.set_mass(MUG, mass=-1.0)
    with pytest.raises(clasp.MoveError):
        world.set_mass(MUG, mass=5.0, centre=[0.0, float("nan"), 0.0])
    with pytest.raises(ValueError):
        world.set_mass(MUG, inertia=np.eye(2))
    with pytest.raises(clasp.MoveError):
        world.set_youngs(MUG, 0.0)
    with pytest.raises(ValueError):
        world.set_material(MUG, "cheese")
    assert world.body_mass(MUG) == mass and np.array_equal(world.body_centre(MUG), centre)
    assert world.body_youngs(MUG) is None


def test_a_contacts_depth_is_minus_its_separation(world):
    world.auto_grasp()
    contacts = world.contacts()
    assert contacts
    for contact in contacts:
        assert contact.depth == -contact.separation
        assert contact.depth <= 0.0
