#!/usr/bin/env python3
"""Time MuJoCo on the scenes `clasp-bench --dynamics` wrote: the same meshes, poses, masses,
inertias, friction, gravity and time step, one thread, and write its steps a second.

    python3 mujoco_bench.py FOLDER [--json OUT] [--no-decomposition]

MuJoCo collides a mesh as its convex hull. Each scene runs with every mesh as its hull, and a
scene whose dynamic bodies are not convex (the mug, the glass) also with each as CoACD's convex
decomposition of it (`pip install coacd`), the way a MuJoCo user models it; the
decomposition's own time is reported beside. Steps are taken by `mj_step(..., nstep=N)`, so
Python's call costs nothing per step.
"""

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# The comparison scripts' shared OBJ reader, one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from obj_file import read_obj  # noqa: E402

try:
    import mujoco
except ImportError:
    sys.exit("mujoco is not installed: pip install mujoco")

def write_obj(path, vertices, faces):
    lines = [f"v {x} {y} {z}" for x, y, z in vertices]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in faces]
    Path(path).write_text("\n".join(lines) + "\n")


def pose_attributes(matrix):
    m = np.array(matrix)
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, m[:3, :3].ravel())
    return f'pos="{m[0, 3]} {m[1, 3]} {m[2, 3]}" quat="{quat[0]} {quat[1]} {quat[2]} {quat[3]}"'


def decompose(vertices, faces, folder, stem):
    """CoACD's parts as OBJ files, and the seconds it took."""
    import coacd

    coacd.set_log_level("error")
    started = time.perf_counter()
    parts = coacd.run_coacd(coacd.Mesh(vertices, faces))
    seconds = time.perf_counter() - started
    files = []
    for k, (v, f) in enumerate(parts):
        file = Path(folder) / f"{stem}_part{k}.obj"
        write_obj(file, v, f)
        files.append(file)
    return files, seconds


def mjcf(scene, meshes):
    """The scene's MJCF; `meshes[i]` lists the OBJ files body i collides as."""
    g = scene["gravity"]
    assets, world = [], []
    for i, body in enumerate(scene["bodies"]):
        mu = body["friction"]
        geoms = []
        for k, file in enumerate(meshes[i]):
            assets.append(f'<mesh name="b{i}_{k}" file="{file}"/>')
            geoms.append(f'<geom type="mesh" mesh="b{i}_{k}" friction="{mu} 0.005 0.0001"/>')
        if not body["dynamic"]:
            world.append(f'<body {pose_attributes(body["pose"])}>{"".join(geoms)}</body>')
            continue
        inertia = np.array(body["inertia"]).reshape(3, 3)
        full = [inertia[0, 0], inertia[1, 1], inertia[2, 2], inertia[0, 1], inertia[0, 2], inertia[1, 2]]
        cog = " ".join(str(c) for c in body["cog"])
        world.append(
            f'<body {pose_attributes(body["pose"])}><freejoint/>'
            f'<inertial pos="{cog}" mass="{body["mass"]}" fullinertia="{" ".join(map(str, full))}"/>'
            f'{"".join(geoms)}</body>'
        )
    return f"""<mujoco>
  <option timestep="{scene["time_step"]}" gravity="{g[0]} {g[1]} {g[2]}"/>
  <asset>{"".join(assets)}</asset>
  <worldbody>{"".join(world)}</worldbody>
</mujoco>"""


def time_steps(xml, scene):
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    settle = int(round(scene["settle_seconds"] / scene["time_step"]))
    if settle:
        mujoco.mj_step(model, data, nstep=settle)
    started = time.perf_counter()
    mujoco.mj_step(model, data, nstep=scene["steps"])
    return scene["steps"] / (time.perf_counter() - started)


def run_scene(folder, decomposition):
    scene = json.loads((folder / "scene.json").read_text())
    hulls = [[body["mesh"]] for body in scene["bodies"]]
    ways = {"convex hulls": {"steps_per_second": time_steps(mjcf(scene, hulls), scene), "prepare_seconds": 0.0}}
    if not decomposition:
        return {"scene": scene["name"], "ways": ways}
    # Every dynamic body decomposed; a convex one comes back whole, and a scene of those only
    # is the hulls' scene again.
    parts, prepare = list(hulls), 0.0
    for i, body in enumerate(scene["bodies"]):
        if body["dynamic"]:
            files, seconds = decompose(*read_obj(body["mesh"]), folder, f"{i}")
            parts[i] = [str(f) for f in files]
            prepare += seconds
    split = [len(p) for p, body in zip(parts, scene["bodies"]) if body["dynamic"] and len(p) > 1]
    if split:
        rate = time_steps(mjcf(scene, parts), scene)
        ways[f"CoACD, {sum(split)} parts"] = {"steps_per_second": rate, "prepare_seconds": prepare}
    return {"scene": scene["name"], "ways": ways}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--no-decomposition", action="store_true", help="skip CoACD (minutes a mesh)")
    args = parser.parse_args()
    scenes = [run_scene(d, not args.no_decomposition) for d in sorted(args.folder.iterdir()) if (d / "scene.json").exists()]
    report = {"version": mujoco.__version__, "scenes": scenes}
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    else:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
