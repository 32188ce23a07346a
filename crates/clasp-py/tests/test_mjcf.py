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
