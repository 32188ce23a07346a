"""MuJoCo's MJCF, written by `clasp-cli export --mjcf`: MuJoCo loads the default scene and
GraspIt's Barrett (coupled joints with offsets), and every link stands where Clasp's kinematics
puts it; a second of MuJoCo's dynamics runs on it."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import clasp
from clasp import BodyId

mujoco = pytest.importorskip("mujoco")


def export(clasp_cli, world_file, out, root=None):
    command = [str(clasp_cli), "export", str(world_file), "--mjcf", str(out)]
    if root is not None:
        command += ["--graspit-root", str(root)]
    subprocess.run(command, check=True, capture_output=True, text=True)
    return mujoco.MjModel.from_xml_path(str(out))


def assert_links_where_clasp_puts_them(world, model, keyframe=False):
    """At zero joint values (every DOF at 0), or at the keyframe the export wrote (the world as
    it stood), each link body's frame is Clasp's link pose."""
    data = mujoco.MjData(model)
    if keyframe:
        mujoco.mj_resetDataKeyframe(model, data, 0)
    else:
        data.qpos[:] = model.qpos0
    mujoco.mj_forward(model, data)
    robot = 0
    checked = 0
    for body in world.body_ids:
        if body.robot != robot or body.chain is None:
            continue
        name = f"robot{robot}_" + "".join(c if c.isalnum() else "_" for c in world.body_name(body))
        k = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name)
        assert k >= 0, name
        pose = world.body_pose(body)
        np.testing.assert_allclose(data.xpos[k] * 1000.0, pose[:3, 3], atol=1e-6, err_msg=name)
        np.testing.assert_allclose(data.xmat[k].reshape(3, 3), pose[:3, :3], atol=1e-9, err_msg=name)
        checked += 1
    assert checked > 0


def test_the_default_scene_exports_to_mujoco_and_its_links_stand_where_clasps_do(clasp_cli, models, tmp_path):
    world = clasp.World.load(models / "worlds" / "default.xml")
    zeros = np.zeros(len(world.dof_values(0)))
    world.set_dofs(0, zeros)
    saved = tmp_path / "zero.xml"
    world.save(saved)
    model = export(clasp_cli, saved, tmp_path / "default_mj.xml")
    assert model.nu == len(zeros) and model.neq > 0
    assert_links_where_clasp_puts_them(world, model)
    data = mujoco.MjData(model)
    mujoco.mj_step(model, data, nstep=1000)
    assert np.isfinite(data.qpos).all()


def test_graspits_barrett_exports_with_its_couplings(clasp_cli, graspit, tmp_path):
    world = clasp.World()
    world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml")
    world.set_dofs(0, np.zeros(len(world.dof_values(0))))
    saved = tmp_path / "barrett.xml"
    world.save(saved)
    model = export(clasp_cli, saved, tmp_path / "barrett_mj.xml", root=graspit)
    assert model.nu == 4
    assert_links_where_clasp_puts_them(world, model)


def test_the_exports_keyframe_puts_mujoco_where_clasp_stands(clasp_cli, graspit, tmp_path):
    world = clasp.World()
    world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml")
    rng = np.random.default_rng(7)
    for trial in range(5):
        # Random DOFs within the limits the first joint of each DOF allows (the Barrett's are
        # all within 0 and its closing limits).
        values = rng.uniform(0.0, 1.0, len(world.dof_values(0))) * np.array([3.0, 2.4, 2.4, 2.4])
        world.set_dofs(0, values)
        saved = tmp_path / f"barrett{trial}.xml"
        world.save(saved)
        model = export(clasp_cli, saved, tmp_path / f"barrett{trial}_mj.xml", root=graspit)
        assert_links_where_clasp_puts_them(world, model, keyframe=True)
        # Each actuator is driven to where its joint stands: the hand holds its place.
        data = mujoco.MjData(model)
        mujoco.mj_resetDataKeyframe(model, data, 0)
        for u in range(model.nu):
            joint = model.actuator_trnid[u][0]
            assert data.ctrl[u] == pytest.approx(data.qpos[model.jnt_qposadr[joint]], abs=1e-9)


# MJCF read by Clasp: its forward kinematics is MuJoCo's.


def dof_joints(model):
    """MuJoCo's joints that carry Clasp's DOFs, in Clasp's DOF order: every hinge and slide joint
    that no active joint equality holds to another."""
    held = {
        model.eq_obj1id[e]
        for e in range(model.neq)
        if model.eq_type[e] == int(mujoco.mjtEq.mjEQ_JOINT) and model.eq_active0[e]
    }
    moving = (int(mujoco.mjtJoint.mjJNT_HINGE), int(mujoco.mjtJoint.mjJNT_SLIDE))
    return [j for j in range(model.njnt) if model.jnt_type[j] in moving and j not in held]


def qpos_of(model, dofs):
    """MuJoCo's qpos for Clasp's DOF values: DOF joints take them (mm to m for slides), held
    joints follow their equality (q1 − ref1 = c0 + c1 (q2 − ref2)), free joints stay at qpos0."""
    qpos = model.qpos0.copy()
    for joint, value in zip(dof_joints(model), dofs):
        slide = model.jnt_type[joint] == int(mujoco.mjtJoint.mjJNT_SLIDE)
        qpos[model.jnt_qposadr[joint]] = value / 1000.0 if slide else value
    for e in range(model.neq):
        if model.eq_type[e] != int(mujoco.mjtEq.mjEQ_JOINT) or not model.eq_active0[e]:
            continue
        a, b = (model.jnt_qposadr[model.eq_obj1id[e]], model.jnt_qposadr[model.eq_obj2id[e]])
        c0, c1 = model.eq_data[e][:2]
        qpos[a] = model.qpos0[a] + c0 + c1 * (qpos[b] - model.qpos0[b])
    return qpos


def assert_clasp_kinematics_is_mujocos(path, trials=100, seed=11):
    """At `trials` random DOF values within Clasp's limits, every link of the robot Clasp reads
    from the MJCF at `path` stands where MuJoCo's mj_kinematics puts the body of its name."""
    world = clasp.World.load(path)
    model = mujoco.MjModel.from_xml_path(str(path))
    data = mujoco.MjData(model)
    limits = world.dof_limits(0)
    assert len(dof_joints(model)) == len(limits)
    rng = np.random.default_rng(seed)
    links = [b for b in world.body_ids if b.robot == 0]
    for _ in range(trials):
        dofs = rng.uniform(np.maximum(limits[:, 0], -3.0), np.minimum(limits[:, 1], 3.0))
        world.set_dofs(0, dofs)
        data.qpos[:] = qpos_of(model, dofs)
        mujoco.mj_kinematics(model, data)
        for link in links:
            name = world.body_name(link)
            k = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name)
            assert k >= 0, name
            pose = world.body_pose(link)
            np.testing.assert_allclose(pose[:3, 3], data.xpos[k] * 1000.0, rtol=0, atol=1e-6, err_msg=name)
            np.testing.assert_allclose(pose[:3, :3], data.xmat[k].reshape(3, 3), rtol=0, atol=1e-9, err_msg=name)
    return len(links)


def test_an_mjcf_hands_links_stand_where_mujocos_kinematics_puts_them(models):
    # Defaults, childclass, degrees, all five orientations, two joints in a body, a joint off its
    # body's origin, a ref, a slide, a coupling with an offset, a frame.
    assert assert_clasp_kinematics_is_mujocos(models / "robots" / "ClaspMJCF" / "three_finger.xml") == 6


def test_graspits_barrett_exported_and_read_back_has_mujocos_kinematics(clasp_cli, graspit, tmp_path):
    world = clasp.World()
    world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml")
    saved = tmp_path / "barrett.xml"
    world.save(saved)
    out = tmp_path / "barrett_mj.xml"
    export(clasp_cli, saved, out, root=graspit)
    assert assert_clasp_kinematics_is_mujocos(out) == 1 + 8


FIELD_HANDS = [
    "allegro_hand/allegro_hand_right.urdf",
    "allegro_hand/allegro_hand_left.urdf",
    "leap_hand/leap_hand_right.urdf",
    "inspire_hand/inspire_hand_right.urdf",
    "inspire_hand/inspire_hand_left.urdf",
    "ability_hand/ability_hand_right.urdf",
    "ability_hand/ability_hand_left.urdf",
    "panda_gripper/panda_gripper_glb.urdf",
]


@pytest.mark.parametrize("hand", FIELD_HANDS + ["Barrett"])
def test_the_mug_with_each_field_hand_and_the_barrett_exports_to_an_mjcf_mujoco_loads_and_steps(
    hand, graspit, tmp_path
):
    world = clasp.World()
    world.add_body(graspit / "objects" / "mug.xml")
    if hand == "Barrett":
        world.add_robot(graspit / "robots" / "Barrett" / "Barrett.xml")
    else:
        world.add_robot(graspit.parent / "hands" / hand)
    out = tmp_path / "mug_and_hand.xml"
    changes = world.save_mjcf(out)
    model = mujoco.MjModel.from_xml_path(str(out))
    data = mujoco.MjData(model)
    mujoco.mj_resetDataKeyframe(model, data, 0)
    mujoco.mj_step(model, data, nstep=500)
    assert np.isfinite(data.qpos).all() and data.time > 0
    # The Allegro's URDF gives its finger links inertias no solid has (MuJoCo refuses them,
    # "inertia must satisfy A + B >= C"): the export mends them, and says which.
    if hand.startswith("allegro"):
        assert changes, "the Allegro's impossible inertias should have been mended"
        assert all("break A + B ≥ C" in c for c in changes), changes
    for change in changes:
        assert "lowered to the sum of the other two" in change
