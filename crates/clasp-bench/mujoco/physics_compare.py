#!/usr/bin/env python3
"""Clasp and MuJoCo side by side on the dynamics issue's analytic scenes, in one run:

1. a 20 mm box on a tilted table (gravity tilted by θ, the same thing): the angle where it
   starts to slide, beside atan μs;
2. a 10 mm mesh ball rolling down a 15° incline: its acceleration, beside (5/7) g sin θ.

    python3 physics_compare.py [--json OUT]

Units are mm, g and s in both (gravity 9,810 mm/s²), the time step 1 ms, friction the
material table's generic pair (μs = 0.5; MuJoCo has one μ, given μs). MuJoCo collides meshes
as their convex hulls, which for a box and a ball is the mesh itself. Needs `pip install
mujoco trimesh` and Clasp's Python package (`pip install ./crates/clasp-py`).
"""

import argparse
import json
import math
import sys

import numpy as np

try:
    import mujoco
    import trimesh
except ImportError as e:
    sys.exit(f"{e.name} is not installed: pip install mujoco trimesh")
import clasp

G = 9810.0
DT = 0.001
ANGLES = [20.0, 22.0, 24.0, 25.0, 25.5, 26.0, 26.5, 27.0, 28.0]
ROLL_TILT = 15.0


def tilted_gravity(degrees):
    t = math.radians(degrees)
    return [G * math.sin(t), 0.0, -G * math.cos(t)]


def box_mesh():
    return trimesh.creation.box(extents=(20.0, 20.0, 20.0))


def ball_mesh():
    return trimesh.creation.icosphere(subdivisions=4, radius=10.0)


# --- Clasp -------------------------------------------------------------------------------


def clasp_scene(mesh, degrees, lift):
    world = clasp.World()
    table = trimesh.creation.box(extents=(4000.0, 400.0, 20.0))
    world.add_mesh(table.vertices, table.faces, name="table", kind="obstacle", pose=clasp.pose((0, 0, -10)))
    body = world.add_mesh(mesh.vertices, mesh.faces, name="body", pose=clasp.pose((0, 0, lift)))
    world.gravity = tilted_gravity(degrees)
    world.time_step = DT
    return world, body


def clasp_x(world, body):
    return float(world.body_pose(body)[0, 3])


def clasp_friction():
    world, body = clasp_scene(box_mesh(), 0.0, 10.001)
    world.simulate(0.05)
    c = world.contacts_of(body)[0]
    return c.static_friction, c.kinetic_friction


def clasp_box_drift(degrees):
    world, body = clasp_scene(box_mesh(), degrees, 10.001)
    world.simulate(0.1)
    x0 = clasp_x(world, body)
    world.simulate(1.0)
    return clasp_x(world, body) - x0


def clasp_roll():
    world, body = clasp_scene(ball_mesh(), ROLL_TILT, 10.01)
    world.simulate(0.1)
    s1 = clasp_x(world, body)
    world.simulate(0.15)
    s2 = clasp_x(world, body)
    world.simulate(0.15)
    return (clasp_x(world, body) - 2 * s2 + s1) / 0.15**2


# --- MuJoCo ------------------------------------------------------------------------------


def mesh_asset(name, mesh):
    vertices = " ".join(f"{v:.9g}" for v in np.asarray(mesh.vertices).ravel())
    faces = " ".join(str(int(i)) for i in np.asarray(mesh.faces).ravel())
    return f'<mesh name="{name}" vertex="{vertices}" face="{faces}"/>'


def mujoco_scene(mesh, degrees, lift, mu):
    gx, gy, gz = tilted_gravity(degrees)
    mass = float(mesh.volume) * 1e-3  # 1 g/cm³, as Clasp's default density
    xml = f"""
<mujoco>
  <option timestep="{DT}" gravity="{gx} {gy} {gz}" cone="elliptic"/>
  <asset>{mesh_asset("body", mesh)}</asset>
  <worldbody>
    <geom type="box" size="2000 200 10" pos="0 0 -10" friction="{mu} 0.005 0.0001"/>
    <body name="body" pos="0 0 {lift}">
      <freejoint/>
      <geom type="mesh" mesh="body" mass="{mass}" friction="{mu} 0.005 0.0001"/>
    </body>
  </worldbody>
</mujoco>"""
    model = mujoco.MjModel.from_xml_string(xml)
    return model, mujoco.MjData(model)


def mujoco_x(data):
    return float(data.qpos[0])


def run(model, data, seconds):
    mujoco.mj_step(model, data, nstep=int(round(seconds / DT)))


def mujoco_box_drift(degrees, mu):
    model, data = mujoco_scene(box_mesh(), degrees, 10.0, mu)
    run(model, data, 0.1)
    x0 = mujoco_x(data)
    run(model, data, 1.0)
    return mujoco_x(data) - x0


def mujoco_roll(mu):
    model, data = mujoco_scene(ball_mesh(), ROLL_TILT, 10.0, mu)
    run(model, data, 0.1)
    s1 = mujoco_x(data)
    run(model, data, 0.15)
    s2 = mujoco_x(data)
    run(model, data, 0.15)
    return (mujoco_x(data) - 2 * s2 + s1) / 0.15**2


# --- Both --------------------------------------------------------------------------------


def first_sliding(drifts, angles):
    """The first angle whose box slid more than 1 mm in a second."""
    return next((a for a, d in zip(angles, drifts) if d > 1.0), None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    mu_s, mu_k = clasp_friction()
    print(f"Clasp beside MuJoCo {mujoco.__version__}; generic friction μs = {mu_s}, μk = {mu_k}; "
          f"atan μs = {math.degrees(math.atan(mu_s)):.2f}°")
    print("\nbox on an incline: drift over 1 s (mm)")
    print("  angle    Clasp      MuJoCo")
    clasp_drifts, mujoco_drifts = [], []
    for a in ANGLES:
        c, m = clasp_box_drift(a), mujoco_box_drift(a, mu_s)
        clasp_drifts.append(c)
        mujoco_drifts.append(m)
        print(f"  {a:5.1f}°  {c:9.4f}  {m:9.4f}")
    thresholds = {
        "analytic": math.degrees(math.atan(mu_s)),
        "clasp": first_sliding(clasp_drifts, ANGLES),
        "mujoco": first_sliding(mujoco_drifts, ANGLES),
    }
    print(f"  first angle that slides: Clasp {thresholds['clasp']}°, MuJoCo {thresholds['mujoco']}° "
          f"(atan μs = {thresholds['analytic']:.2f}°)")
    expected = 5.0 / 7.0 * G * math.sin(math.radians(ROLL_TILT))
    rolls = {"analytic": expected, "clasp": clasp_roll(), "mujoco": mujoco_roll(mu_s)}
    print(f"\nmesh ball ({len(ball_mesh().faces)} triangles) rolling down {ROLL_TILT}°: acceleration (mm/s²)")
    for who in ("analytic", "clasp", "mujoco"):
        print(f"  {who:9} {rolls[who]:9.1f}  ({rolls[who] / expected:.3f} of (5/7) g sin θ)")
    if args.json:
        figures = {
            "friction": {"static": mu_s, "kinetic": mu_k},
            "incline": {"angles": ANGLES, "clasp_drift": clasp_drifts, "mujoco_drift": mujoco_drifts,
                        "first_sliding": thresholds},
            "rolling": rolls,
        }
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)


if __name__ == "__main__":
    main()
