"""Sets where GraspIt put each saved grasp's hand beside where Clasp puts it.

    python3 compare_worlds.py SAVED GRASPIT_JSONL

SAVED holds, per object, the plan (`OBJECT.plan.json`, `clasp-cli plan --json`) and each
saved world with Clasp's reading of it (`OBJECT/grasp-K.xml.clasp.json`, `clasp-cli
inspect`); GRASPIT_JSONL has one line per world from world_check.cpp. Prints a row per world
and exits 1 if GraspIt did not load one, put a body of the hand elsewhere, read other DOF
values, found a pair interpenetrating, or found the hand not touching the object.
"""

import json
import math
import sys
from pathlib import Path

# How far GraspIt may put a body from where Clasp does: rounding only.
MM = 1e-6
RAD = 1e-6


def turn(a, b):
    """The angle between two rotations given as unit quaternions (w, x, y, z)."""
    dot = abs(sum(x * y for x, y in zip(a, b)))
    return 2.0 * math.acos(min(1.0, dot))


def offsets(clasp_bodies, graspit_bodies):
    """The largest distance and angle between the same bodies' poses; infinite when the
    bodies are not the same (GraspIt's names leave the robot's name off the front)."""
    same = len(clasp_bodies) == len(graspit_bodies) and all(
        c["name"].endswith(g["name"]) for c, g in zip(clasp_bodies, graspit_bodies)
    )
    if not same:
        return math.inf, math.inf
    shift = max(
        math.dist(c["pose"]["translation"], g["pose"]["translation"])
        for c, g in zip(clasp_bodies, graspit_bodies)
    )
    angle = max(
        turn(c["pose"]["rotation_wxyz"], g["pose"]["rotation_wxyz"])
        for c, g in zip(clasp_bodies, graspit_bodies)
    )
    return shift, angle


def check(saved, reading):
    """One world: its row, and whether it passes."""
    world = reading["file"].removeprefix("/saved/")
    obj, name = world.split("/")
    k = int(name.removeprefix("grasp-").removesuffix(".xml"))
    clasp = json.loads((saved / (world + ".clasp.json")).read_text())
    if isinstance(clasp, list):
        clasp = clasp[0]
    planned = json.loads((saved / (obj + ".plan.json")).read_text())["grasps"][k]
    if not reading["loaded"]:
        return f"{world}: GraspIt did not load it", False
    robot, ours = reading["robot"], clasp["robots"][0]
    shift, angle = offsets([{"name": ours["name"], "pose": ours["pose"]}] + ours["bodies"],
                           [{"name": robot["name"], "pose": robot["pose"]}] + robot["bodies"])
    dofs = max(abs(a - b) for a, b in zip(ours["dof_values"], robot["dof_values"]))
    dofs = dofs if len(ours["dof_values"]) == len(robot["dof_values"]) else math.inf
    planned_dofs = max(abs(a - b) for a, b in zip(planned["dofs"], ours["dof_values"]))
    pairs = reading["interpenetrating"]
    touching = reading["contacts_on_object"]
    ok = (shift <= MM and angle <= RAD and dofs <= 1e-9 and planned_dofs <= 1e-9
          and not pairs and touching > 0)
    row = (f"{obj:<6} {k:>5} {shift:>12.2e} {angle:>12.2e} {dofs:>10.2e} "
           f"{len(pairs):>16} {touching:>16} {planned['contacts']:>14} "
           f"{str(planned['force_closure']):>14}  {'ok' if ok else 'FAILED ' + str(pairs)}")
    return row, ok


def main():
    saved, lines = Path(sys.argv[1]), Path(sys.argv[2]).read_text().splitlines()
    print(f"{'object':<6} grasp  body offset  body turn  DOF diff  "
          f"GraspIt overlaps  GraspIt contacts  Clasp contacts  Clasp FC")
    results = [check(saved, json.loads(line)) for line in lines if line.strip()]
    for row, _ in results:
        print(row)
    passed = sum(ok for _, ok in results)
    print(f"{passed} of {len(results)} saved grasps open in GraspIt where Clasp put them")
    sys.exit(0 if results and passed == len(results) else 1)


main()
