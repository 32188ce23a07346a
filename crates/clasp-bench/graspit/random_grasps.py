"""Random grasps for the GraspIt parity record (issue 32), beside the planned ones.

    python3 random_grasps.py WORLD COUNT SEED OUT_PREFIX --graspit-root ROOT

WORLD holds a hand and an object. Each grasp starts the hand pointed at the object's centre
from a direction drawn uniformly over the sphere, turned a random roll about that line
(`World.aim`), approaches until it touches, and closes every finger (`World.auto_grasp`); a
grasp in which fewer than two of the hand's bodies touch the object is drawn again. Each kept
grasp is saved as a GraspIt world, OUT_PREFIX-K.xml (K from 0). Needs the `clasp` package
(`pip install ./crates/clasp-py`).
"""

import argparse
import math
import random
from pathlib import Path

import clasp

MOST_TRIES_A_GRASP = 20


def random_direction(draw):
    """A unit vector drawn uniformly over the sphere."""
    z = draw.uniform(-1.0, 1.0)
    angle = draw.uniform(0.0, 2.0 * math.pi)
    ring = math.sqrt(1.0 - z * z)
    return [ring * math.cos(angle), ring * math.sin(angle), z]


def touching_bodies(world):
    """The hand's bodies that touch the grasped object."""
    on_object = world.contacts_of(world.grasped_object)
    return {c.other for c in on_object if c.other.robot is not None}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("world", type=Path)
    parser.add_argument("count", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("out_prefix")
    parser.add_argument("--graspit-root", type=Path, required=True)
    args = parser.parse_args()
    draw = random.Random(args.seed)
    saved = 0
    for _ in range(MOST_TRIES_A_GRASP * args.count):
        if saved == args.count:
            break
        world = clasp.World.load(args.world, graspit_root=args.graspit_root)
        reach = world.aim(random_direction(draw), draw.uniform(0.0, 2.0 * math.pi))
        world.approach(reach)
        world.auto_grasp()
        if len(touching_bodies(world)) < 2:
            continue
        world.save(f"{args.out_prefix}-{saved}.xml", graspit_root=args.graspit_root)
        saved += 1
    if saved < args.count:
        raise SystemExit(f"{args.world}: only {saved} of {args.count} random grasps touch")


if __name__ == "__main__":
    main()
