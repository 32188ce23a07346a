#!/usr/bin/env python3
"""MuJoCo's side of `clasp-bench --grasp-test`: the physics test of each grasp Clasp tested,
on the world `save_mjcf` exported at the grasp with each actuator driven to the squeeze's
target (the keyframe's controls), run as Clasp runs it and timed on one thread.

    python3 grasp_tests.py PLAN.json --json OUT.json [--coacd]

The test: from the keyframe, the squeeze without gravity for `squeeze_seconds`; then, each from
where the squeeze left hand and object, gravity of `gravity` m/s² along +x, -x, +y, -y, +z, -z
for `seconds` each. Held when the object's centre ends within `max_mm` of the grasp and it
turns no more than `max_radians` in all six. The same end rules as Clasp's: a pull ends once
the object is past the bounds, and a phase once hand and object have rested for five path
intervals of `interval` seconds (the object's fastest point slower than 1 mm/s, its centre
moved less than 0.01 mm and turned less than 1e-4 rad over the interval, no joint moved more
than 1e-4). MuJoCo's options as `hold_compare.py` sets them: elliptic friction cones,
impratio 10. It collides each mesh as its convex hull, or with `--coacd` each of the hand's
meshes as CoACD's convex parts (each mesh decomposed once, not timed). The seconds are
MuJoCo's steps and the end rules' checks, not the model's loading.
"""

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

try:
    import mujoco
except ImportError:
    sys.exit("mujoco is not installed: pip install mujoco")

sys.path.insert(0, str(Path(__file__).resolve().parent))

DIRECTIONS = [(0, 1.0), (0, -1.0), (1, 1.0), (1, -1.0), (2, 1.0), (2, -1.0)]
REST_SPEED, REST_MOVE, REST_TURN, REST_SPANS = 1.0, 0.01, 1e-4, 5


def load(path):
    model = mujoco.MjModel.from_xml_path(str(path))
    model.opt.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
    model.opt.impratio = 10.0
    data = mujoco.MjData(model)
    mujoco.mj_resetDataKeyframe(model, data, 0)
    mujoco.mj_forward(model, data)
    return model, data


def object_body(model):
    """The free body: the graspable object."""
    return next(b for b in range(model.nbody)
                if model.body_jntnum[b] and model.jnt_type[model.body_jntadr[b]] == 0)


def object_radius(model, body):
    """How far the object's geoms reach from its centre (m), for its fastest point's speed."""
    geoms = [g for g in range(model.ngeom) if model.geom_bodyid[g] == body]
    return max((np.linalg.norm(model.geom_pos[g]) + model.geom_rbound[g] for g in geoms), default=0.0)


def turned(q, q0):
    return 2.0 * math.acos(min(1.0, abs(float(np.dot(q, q0)))))


class Test:
    """One grasp's test on its model."""

    def __init__(self, model, data, plan):
        self.model, self.plan = model, plan
        self.body = object_body(model)
        self.radius = object_radius(model, self.body)
        self.start = (data.xipos[self.body].copy(), data.xquat[self.body].copy())
        # The object's joint is the first in qpos; the hand's joints follow.
        self.hand = slice(7, model.nq)
        self.steps = 0
        self.contacts = []

    def frame(self, data):
        return data.xipos[self.body].copy(), data.xquat[self.body].copy(), data.qpos[self.hand].copy()

    def past_bounds(self, data):
        centre, quat = data.xipos[self.body], data.xquat[self.body]
        moved = 1000.0 * np.linalg.norm(centre - self.start[0])
        return moved > self.plan["max_mm"] or turned(quat, self.start[1]) > self.plan["max_radians"]

    def rested(self, data, before, now):
        velocity = np.zeros(6)
        mujoco.mj_objectVelocity(self.model, data, mujoco.mjtObj.mjOBJ_BODY, self.body, velocity, 0)
        speed = 1000.0 * (np.linalg.norm(velocity[3:]) + np.linalg.norm(velocity[:3]) * self.radius)
        still = 1000.0 * np.linalg.norm(now[0] - before[0]) < REST_MOVE and turned(now[1], before[1]) < REST_TURN
        hand_still = np.all(np.abs(now[2] - before[2]) < REST_TURN)
        return speed < REST_SPEED and still and hand_still

    def phase(self, data, seconds, let_go):
        """Steps a phase in path intervals, ending it at rest or, with `let_go`, past the bounds."""
        span = max(1, round(self.plan["interval"] / self.model.opt.timestep))
        left = round(seconds / self.model.opt.timestep)
        resting, before = 0, self.frame(data)
        while left > 0 and resting < REST_SPANS:
            n = min(span, left)
            mujoco.mj_step(self.model, data, nstep=n)
            self.steps += n
            left -= n
            self.contacts.append(data.ncon)
            if let_go and self.past_bounds(data):
                return
            now = self.frame(data)
            resting = resting + 1 if self.rested(data, before, now) else 0
            before = now

    def run(self, data):
        """Whether the grasp holds, and how far the object went in each direction (mm)."""
        self.model.opt.gravity[:] = 0.0
        self.phase(data, self.plan["squeeze_seconds"], let_go=False)
        squeezed = (data.qpos.copy(), data.qvel.copy(), data.qacc_warmstart.copy())
        moved, held = [], True
        # Every direction runs, as Clasp's do (on domains of their own).
        for axis, sign in DIRECTIONS:
            data.qpos[:], data.qvel[:], data.qacc_warmstart[:] = squeezed
            data.time = 0.0
            mujoco.mj_forward(self.model, data)
            gravity = np.zeros(3)
            gravity[axis] = sign * self.plan["gravity"]
            self.model.opt.gravity[:] = gravity
            self.phase(data, self.plan["seconds"], let_go=True)
            moved.append(1000.0 * float(np.linalg.norm(data.xipos[self.body] - self.start[0])))
            held = held and not self.past_bounds(data)
        return held, moved


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("plan", type=Path)
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--coacd", action="store_true")
    args = parser.parse_args()
    plan = json.loads(args.plan.read_text())
    decomposer = None
    if args.coacd:
        from coacd_parts import Decomposer

        decomposer = Decomposer()
    scenes = []
    for scene in plan["scenes"]:
        held, moved, seconds, steps, contacts = [], [], 0.0, 0, []
        for file in scene["files"]:
            if decomposer is not None:
                decomposer.rewrite(Path(file))
            model, data = load(file)
            test = Test(model, data, plan)
            tick = time.perf_counter()
            ok, far = test.run(data)
            seconds += time.perf_counter() - tick
            held.append(ok)
            moved.append(far)
            steps += test.steps
            contacts.extend(test.contacts)
        scenes.append({"hand": scene["hand"], "held": held, "moved": moved, "seconds": seconds,
                       "steps": steps, "contacts_median": float(np.median(contacts)) if contacts else 0.0,
                       "nv": int(model.nv) if scene["files"] else 0})
    out = {"version": mujoco.__version__, "geometry": "CoACD parts" if args.coacd else "convex hulls",
           "scenes": scenes}
    args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
