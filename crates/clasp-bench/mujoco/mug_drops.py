#!/usr/bin/env python3
"""GraspIt's mug dropped on a table from 50 random turns, in Clasp and in MuJoCo in one run:
how many still move after 3 s (≥ 1 mm/s, or 50 mm times the turning rate), how many left the
table. The turns are the `clasp-io` test `dynamics_drops`'s (SplitMix64 from 2026), so Clasp's
figures here are that test's.

    python3 mug_drops.py [--library ../shared/graspit-models] [--seconds 3] [--coacd]

MuJoCo collides the mug as its convex hull, or with `--coacd` as CoACD's decomposition (about a
minute to make). Needs `pip install mujoco` and Clasp's Python package.
"""

import argparse
import math
import sys
from pathlib import Path

import numpy as np

try:
    import mujoco
except ImportError:
    sys.exit("mujoco is not installed: pip install mujoco")
import clasp

DROPS = 50
MASK = (1 << 64) - 1


class SplitMix64:
    """Clasp's generator (crates/clasp-random), the same numbers from the same seed."""

    def __init__(self, seed):
        self.state = seed

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def range(self, lo, hi):
        return lo + (hi - lo) * ((self.next_u64() >> 11) / float(1 << 53))


def turns():
    """The test's 50 turns, as unit quaternions x, y, z, w."""
    random = SplitMix64(2026)
    out = []
    for _ in range(DROPS):
        axis = np.array([random.range(-1, 1) for _ in range(3)])
        angle = random.range(0.0, math.pi)
        axis /= np.linalg.norm(axis)
        out.append(np.append(axis * math.sin(angle / 2), math.cos(angle / 2)))
    return out


def rotation(q):
    return clasp.pose((0, 0, 0), q)[:3, :3]


def moving(linear, angular):
    return max(np.linalg.norm(linear), 50.0 * np.linalg.norm(angular)) >= 1.0


def clasp_drops(library, qs, seconds):
    ends = []
    for q in qs:
        world = clasp.World()
        table = np.array([[x, y, z] for x in (-300, 300) for y in (-300, 300) for z in (-20, 0)], float)
        faces = [[0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
                 [2, 6, 7], [2, 7, 3], [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5]]
        world.add_mesh(table, faces, name="table", kind="obstacle")
        mug = world.add_body(library / "objects/mug.xml")
        vertices, _ = world.body_mesh(mug)
        low = (np.asarray(vertices) @ rotation(q).T)[:, 2].min()
        world.set_pose(mug, clasp.pose((0, 0, 5.0 - low), q))
        world.simulate(seconds)
        linear, angular = world.velocity(mug)
        ends.append((moving(linear, angular), world.body_pose(mug)[2, 3] < -20.0))
    return ends, vertices, faces_of(world, mug)


def faces_of(world, mug):
    return np.asarray(world.body_mesh(mug)[1])


def mujoco_drops(parts, qs, seconds, low_of):
    assets = "".join(
        f'<mesh name="p{k}" vertex="{" ".join(map(str, v.ravel()))}" face="{" ".join(map(str, f.ravel()))}"/>'
        for k, (v, f) in enumerate(parts)
    )
    geoms = "".join(f'<geom type="mesh" mesh="p{k}" density="0.001" friction="0.5 0.005 0.0001"/>' for k in range(len(parts)))
    ends = []
    for q in qs:
        x, y, z, w = q
        xml = f"""<mujoco><option timestep="0.001" gravity="0 0 -9810"/><asset>{assets}</asset>
<worldbody><geom type="box" size="300 300 10" pos="0 0 -10" friction="0.5 0.005 0.0001"/>
<body pos="0 0 {5.0 - low_of(q)}" quat="{w} {x} {y} {z}"><freejoint/>{geoms}</body></worldbody></mujoco>"""
        model = mujoco.MjModel.from_xml_string(xml)
        data = mujoco.MjData(model)
        mujoco.mj_step(model, data, nstep=int(round(seconds / 0.001)))
        linear, angular = data.qvel[:3], data.qvel[3:6]
        ends.append((moving(linear, angular), data.qpos[2] < -20.0))
    return ends


def summary(name, ends):
    still = sum(1 for m, _ in ends if m)
    off = sum(1 for _, o in ends if o)
    print(f"  {name:<28} {still:>3} of {len(ends)} still move, {off} off the table")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, default=Path(__file__).resolve().parents[3].parent / "shared/graspit-models")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--coacd", action="store_true")
    args = parser.parse_args()
    qs = turns()
    clasp_ends, vertices, faces = clasp_drops(args.library, qs, args.seconds)
    vertices = np.asarray(vertices)
    low_of = lambda q: (vertices @ rotation(q).T)[:, 2].min()
    print(f"GraspIt's mug dropped 5 mm onto a table from {DROPS} turns, after {args.seconds} s:")
    summary("Clasp (exact mesh)", clasp_ends)
    summary(f"MuJoCo {mujoco.__version__} (convex hull)", mujoco_drops([(vertices, faces)], qs, args.seconds, low_of))
    if args.coacd:
        import coacd

        coacd.set_log_level("error")
        parts = [(np.asarray(v), np.asarray(f)) for v, f in coacd.run_coacd(coacd.Mesh(vertices, faces))]
        summary(f"MuJoCo (CoACD, {len(parts)} parts)", mujoco_drops(parts, qs, args.seconds, low_of))


if __name__ == "__main__":
    main()
