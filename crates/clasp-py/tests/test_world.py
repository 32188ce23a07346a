"""The world from Python: loading, meshes from numpy, moves to contact, contacts, collision
switches, groups and masks, quality against the Rust CLI, errors with file and line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
import trimesh

import clasp
from clasp import BodyId


def test_the_default_world_loads():
    world = clasp.World.default_scene()
    assert world.bodies == [BodyId.free(0), BodyId.free(1)]
    assert world.robots == [0]
    assert world.robot_name(0) == "ClaspHand"
    assert world.body_name(BodyId.free(0)) == "clasp_mug"
    assert world.body_name(BodyId.free(1)) == "clasp_table"  # under the mug
    assert world.current_hand == 0
    assert world.grasped_object == BodyId.free(0)
    assert len(world.body_ids) == 2 + 1 + 8
    assert world.contact_threshold == clasp.DEFAULT_CONTACT_THRESHOLD


def test_a_trimesh_box_dropped_onto_another_stops_at_contact():
    world = clasp.World()
    floor = trimesh.creation.box(extents=(200.0, 200.0, 20.0))
    box = trimesh.creation.box(extents=(40.0, 40.0, 40.0))
    below = world.add_mesh(floor.vertices, floor.faces, name="floor", kind="obstacle",
                           pose=clasp.pose((0, 0, -10)))
    above = world.add_mesh(box.vertices, box.faces, name="box", pose=clasp.pose((0, 0, 100)))
    outcome = world.move_to(above, clasp.pose((0, 0, -50)))
    assert not outcome.completed
    assert outcome.stopped_by == [(above, below)]
    z = world.body_pose(above)[2, 3]
    gap = z - 20.0  # the box's bottom over the floor's top (z = 0)
    assert 0.0 < gap < world.contact_threshold / 2, gap
    assert world.overlapping_pairs() == []
    assert len(world.contacts_of(above)) >= 3
    vertices, faces = world.body_mesh(above)
    assert np.allclose(vertices, box.vertices) and np.array_equal(faces, box.faces)


def test_every_contact_field():
    world = clasp.World.default_scene()
    world.auto_grasp()
    contacts = world.contacts()
    assert contacts
    threshold = world.contact_threshold
    for c in contacts:
        assert isinstance(c.body, BodyId) and isinstance(c.other, BodyId)
        mine = world.contacts_of(c.body)
        assert mine[c.index].point.tolist() == c.point.tolist()
        if c.pair_index is not None:
            mate = world.contacts_of(c.other)[c.pair_index]
            assert mate.other == c.body and mate.is_object_a != c.is_object_a
            assert np.array_equal(mate.normal, c.normal)
        assert c.point.shape == c.other_point.shape == c.normal.shape == c.inward.shape == (3,)
        assert abs(np.linalg.norm(c.normal) - 1.0) < 1e-9
        assert np.allclose(c.inward, c.normal if c.is_object_a else -c.normal)
        assert c.frame.shape == (4, 4) and np.allclose(c.frame[:3, 3], c.point)
        assert np.allclose(c.frame[:3, 2], c.normal)
        assert 0.0 <= c.separation < threshold
        assert abs(np.linalg.norm(c.point - c.other_point) - c.separation) < 1e-9
        faces = lambda id: len(world.body_mesh(id)[1])  # noqa: E731
        assert c.triangle < faces(c.body) and c.other_triangle < faces(c.other)
        assert not c.is_self_collision and not c.skip
        assert (c.local_index is None) == (c.body.kind == "free")
        assert c.body_type in ("static", "dynamic") and c.other_type in ("static", "dynamic")
        assert c.static_friction > 0 and c.kinetic_friction > 0
        assert c.model == "point" and c.soft is None
        assert c.friction_edges.shape == (8, 6)
    arrays = world.contact_arrays()
    assert arrays["point"].shape == (len(contacts), 3)
    assert np.array_equal(arrays["point"], np.array([c.point for c in contacts]))
    assert np.array_equal(arrays["separation"], [c.separation for c in contacts])
    assert arrays["body"].shape == (len(contacts), 4)


def test_soft_contacts_carry_their_patch(models):
    world = clasp.World.load(models / "worlds" / "soft_fingertips.xml")
    world.auto_grasp()
    soft = [c for c in world.contacts() if c.model == "soft"]
    assert soft
    details = soft[0].soft
    assert set(details) == {"semi_axes", "indentation", "torsion_radius", "relative_radii", "merged"}
    assert details["torsion_radius"] > 0


def test_toggle_collision_follows_graspit():
    world = clasp.World.default_scene()
    mug, palm = BodyId.free(0), BodyId.palm(0)
    assert world.collisions_on()
    assert world.toggle_collisions() is False  # nothing selected: the whole world
    assert world.checked_pairs() == []
    assert world.toggle_collisions() is True
    pairs_before = len(world.checked_pairs())
    assert world.toggle_collisions([mug, palm]) is False  # two: that pair only
    assert not world.collisions_on([mug, palm]) and world.collisions_on()
    remaining = world.checked_pairs()
    # The mug against the whole hand is off (GraspIt's rule); the table still meets the hand.
    assert all(mug not in (a, b) for a, b in remaining if 0 in (a.robot, b.robot))
    assert any(0 in (a.robot, b.robot) for a, b in remaining)
    assert len(remaining) < pairs_before
    # Collisions off, the hand passes into the mug; back on, it is found overlapping.
    target = world.robot_pose(0)
    target[0, 3] += 80.0
    assert world.move_to(palm, target).completed
    world.toggle_collisions([mug, palm])
    assert world.overlapping_pairs()


def test_groups_and_masks_decide_which_bodies_meet():
    world = clasp.World()
    box = trimesh.creation.box(extents=(10.0, 10.0, 10.0))
    a = world.add_mesh(box.vertices, box.faces, name="a")
    b = world.add_mesh(box.vertices, box.faces, name="b", pose=clasp.pose((30, 0, 0)))
    world.set_collision_groups(a, 1, 1 << 1)  # group 1 meets group 1 only
    world.set_collision_groups(b, 2, ~0 & 0xFFFFFFFFFFFFFFFF)
    assert world.collision_groups(a) == (1, 2)
    assert world.checked_pairs() == []
    assert world.move_to(b, clasp.pose((0, 0, 0))).completed  # passes through
    world.set_collision_groups(a, 1, (1 << 1) | (1 << 2))
    assert world.overlapping_pairs() == [(a, b)]
    with pytest.raises(ValueError, match="group 64"):
        world.set_collision_groups(a, 64, 0)
    world.set_collision_groups(a, 1, -1)  # RaiSim's "every group"
    assert world.collision_groups(a) == (1, 0xFFFFFFFFFFFFFFFF)
    for bad in (-2, 1 << 64):
        with pytest.raises(ValueError, match="collision mask"):
            world.set_collision_groups(a, 1, bad)
    assert world.collision_groups(a) == (1, 0xFFFFFFFFFFFFFFFF), "a refused mask changes nothing"


def test_a_grasps_quality_equals_the_rust_clis_to_the_bit(clasp_cli, models):
    file = models / "worlds" / "default.xml"
    command = [str(clasp_cli), "quality", str(file), "--approach", "--auto", "--metric", "volume", "--json"]
    rust = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    world = clasp.World.load(file)
    world.approach(distance=rust["approach"]["max_distance"])
    world.auto_grasp()
    quality = world.grasp_quality(metric="volume")
    assert quality.force_closure == rust["force_closure"]
    assert quality.epsilon == rust["epsilon"]
    assert quality.volume == rust["volume"]
    assert quality.contacts == len(rust["contacts"])
    # The hand's contacts as one list: every one on the hand, each of the mug's with it once.
    hand = world.robot_contacts(0)
    assert hand and all(c.body.robot == 0 for c in hand)
    with_hand = [c for c in world.contacts_of(BodyId.free(0)) if c.other.robot == 0]
    assert len(with_hand) == len([c for c in hand if c.other == BodyId.free(0)])


def test_a_bad_file_raises_an_error_naming_its_line(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<world>\n<obstacle>\n<filename>nowhere.xml</filename>\n</obstacle>\n</world>\n")
    with pytest.raises(clasp.LoadError) as caught:
        clasp.World.load(bad)
    assert caught.value.file.endswith("bad.xml")
    assert caught.value.line == 3
    assert "nowhere.xml" in str(caught.value)
    world = clasp.World()
    broken = tmp_path / "broken.off"
    broken.write_text("OFF\n3 1 0\n0 0 0\n1 0 nan\n0 1 0\n3 0 1 2\n")
    with pytest.raises(clasp.LoadError) as caught:
        world.add_body(broken)
    assert caught.value.line == 4
    assert world.bodies == []


def test_impossible_requests_raise_and_change_nothing():
    world = clasp.World.default_scene()
    before = world.dof_values(0).copy()
    with pytest.raises(clasp.MoveError, match="outside its limits"):
        world.set_dofs(0, [9.0] * len(before))
    assert np.array_equal(world.dof_values(0), before)
    with pytest.raises(ValueError, match="4x4"):
        world.set_pose(BodyId.free(0), np.eye(3))
    with pytest.raises(ValueError, match="rotation"):
        world.set_pose(BodyId.free(0), np.diag([2.0, 1.0, 1.0, 1.0]))
    with pytest.raises(clasp.MoveError):
        world.auto_grasp(7)


def test_poses_convert_both_ways():
    q = np.array([0.1, -0.3, 0.2, 0.9])
    q /= np.linalg.norm(q)
    matrix = clasp.pose((1.0, 2.0, 3.0), q)
    position, quaternion = clasp.position_quaternion(matrix)
    assert np.allclose(position, [1, 2, 3]) and np.allclose(quaternion, q)
    world = clasp.World.default_scene()
    world.set_pose(BodyId.free(0), matrix)
    assert np.allclose(world.body_pose(BodyId.free(0)), matrix)


def test_copies_move_apart():
    world = clasp.World.default_scene()
    copy = world.copy()
    copy.auto_grasp()
    assert not np.array_equal(copy.dof_values(0), world.dof_values(0))
    assert len(world.contacts()) == 0 and len(copy.contacts()) > 0



def test_body_ids_pickle_and_name_the_same_body():
    import copy
    import pickle

    for id in (BodyId.free(3), BodyId.palm(1), BodyId.link(0, 2, 1), BodyId.mount(4)):
        assert pickle.loads(pickle.dumps(id)) == id
        assert copy.deepcopy(id) == id
    assert len({BodyId.link(0, 2, 1), BodyId.link(0, 2, 1), BodyId.palm(0)}) == 2


def test_graspits_barrett_scores_its_virtual_contacts(graspit):
    world = clasp.World()
    barrett = world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml")
    assert not world.virtual_quality(barrett).force_closure  # open and flat
    low, high = world.dof_limits(barrett).T
    closed = world.dof_values(barrett) + 0.6 * (high - world.dof_values(barrett)) * [0, 1, 1, 1]
    world.set_dofs(barrett, closed)
    quality = world.virtual_quality(barrett, metric="volume")
    assert quality.force_closure and quality.epsilon > 0.05 and quality.volume > 0
    with pytest.raises(clasp.QualityError, match="no virtual contacts"):
        clasp.World.default_scene().virtual_quality()


def test_settings_and_unknown_bodies_are_refused():
    world = clasp.World.default_scene()
    with pytest.raises(ValueError, match="threshold"):
        world.contact_threshold = -1.0
    world.contact_threshold = 0.5
    assert world.contact_threshold == 0.5
    with pytest.raises(clasp.MoveError):
        world.contacts_of(BodyId.free(7))
    with pytest.raises(ValueError, match="whole numbers"):
        world.add_mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2.5]])


# GraspIt's barrettGlassDyn world, its file names from the model library's root: the Puma on its
# stand carrying the Barrett, a table, and the glass on it in front of the hand.
BARRETT_GLASS_DYN = """<world>
<obstacle><filename>obstacles/simpleFloor.xml</filename></obstacle>
<obstacle><filename>obstacles/table.xml</filename></obstacle>
<obstacle><filename>obstacles/puma_stand.xml</filename>
<transform><fullTransform>(+1 0 0 0)[0 0 -1]</fullTransform></transform></obstacle>
<graspableBody><filename>objects/glass.xml</filename>
<transform><fullTransform>(+0.996 -0.0781588 +0.0111872 +0.0418439)[+1.31244 +525.048 -465.928]</fullTransform></transform>
</graspableBody>
<robot><filename>robots/Puma560/Puma560.xml</filename>
<dofValues>+1.85318 +0.43586 -3.20326 +0.00906244 -0.397201 +0.218149</dofValues></robot>
<robot><filename>robots/Barrett/Barrett.xml</filename>
<dofValues>+4.98626e-06 +0.9 +0 +0 +0.9 +0 +0 +0.9 +0 +0</dofValues></robot>
<connection><parentRobot>0</parentRobot><parentChain>0</parentChain><childRobot>1</childRobot>
<mountFilename>robots/Barrett/iv/barrettmount.xml</mountFilename>
<transform><fullTransform>(+1 0 0 0)[0 0 +175.05]</fullTransform></transform></connection>
</world>
"""


def test_an_arm_puts_and_moves_its_hand_and_approaches_the_glass(graspit, tmp_path):
    path = tmp_path / "barrettGlassDyn.xml"
    path.write_text(BARRETT_GLASS_DYN)
    world = clasp.World.load(path, graspit_root=graspit)
    arm, hand = 0, world.current_hand
    assert hand == 1
    start, arm_start = world.robot_pose(hand), world.dof_values(arm)
    # Up 40 mm: the arm puts the palm there.
    raised = start.copy()
    raised[2, 3] += 40.0
    world.place_hand(raised)
    assert np.allclose(world.robot_pose(hand), raised, atol=1e-3)
    assert not np.allclose(world.dof_values(arm), arm_start)
    # Back down along the straight path.
    assert world.move_hand(start).completed
    assert np.allclose(world.robot_pose(hand), start, atol=1e-3)
    # Beyond the arm's reach: refused, nothing moves.
    far = start.copy()
    far[0, 3] += 5000.0
    before = world.dof_values(arm)
    with pytest.raises(clasp.MoveError, match="cannot put its palm there"):
        world.place_hand(far)
    assert np.array_equal(world.dof_values(arm), before)
    # A batch of the mounted hand's grasps says which its arm can hold.
    batch = world.grasp_batch(clasp.grasp_candidates(world, 12, seed=4))
    assert batch["reachable"].dtype == bool and batch["reachable"].shape == (12,)
    assert batch["reachable"].any() and not batch["reachable"].all(), batch["reachable"]
    for palm, dofs in zip(batch["palm"][batch["reachable"]], batch["dofs"][batch["reachable"]]):
        placed = world.copy()
        placed.place_hand(palm)
        assert np.allclose(placed.robot_pose(hand), palm, atol=1e-3)
    # The arm approaches the glass with the hand, and the hand closes on it.
    outcome = world.approach(1000.0)
    assert not outcome.completed
    world.auto_grasp()
    glass = world.grasped_object
    touching = {c.other for c in world.contacts() if c.body == glass}
    touching |= {c.body for c in world.contacts() if c.other == glass}
    assert len({id.chain for id in touching if id.robot == hand}) >= 2, touching


@pytest.mark.parametrize(
    ("name", "model"), [("book-Barrett-0.xml", "point"), ("mug-Schunk-0.xml", "soft")]
)
def test_graspit_contacts_give_graspits_quality_of_a_recorded_grasp(
    graspit, tmp_path, name, model
):
    """Grasps that GraspIt read (crates/clasp-bench/graspit/parity), a Barrett's point contacts
    on the book and a Schunk's soft fingertips on the mug: with GraspIt's contacts on, the same
    number of contacts, modelled as GraspIt does, and GraspIt's epsilon and volume; off again,
    Clasp's threshold."""
    record = Path(__file__).resolve().parents[2] / "clasp-bench" / "graspit" / "parity"
    theirs = next(
        json.loads(line)
        for line in (record / "graspit.jsonl").read_text().splitlines()
        if json.loads(line)["file"] == name
    )
    (tmp_path / "models").symlink_to(graspit)
    world = clasp.World.load(record / "worlds" / name, graspit_root=tmp_path)
    assert not world.graspit_contacts
    world.graspit_contacts = True
    assert world.graspit_contacts and world.contact_threshold == 0.2
    quality = world.grasp_quality(metric="volume")
    on_object = world.contacts_of(world.grasped_object)
    by_hand = [c for c in on_object if c.other.robot is not None]
    assert len(by_hand) == len(theirs["contacts"])
    assert {c.model for c in by_hand} == {model}
    assert abs(quality.epsilon - theirs["epsilon"]) <= 1e-3
    assert abs(quality.volume - theirs["volume"]) <= 0.01 * theirs["volume"]
    world.graspit_contacts = False
    assert world.contact_threshold == clasp.DEFAULT_CONTACT_THRESHOLD
