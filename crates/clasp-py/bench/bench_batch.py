"""Clasp from Python, measured side by side with Rust in one run (docs/benchmarks.md):

1. grasps per second of Python's batch call (``World.grasp_batch``, numpy in and out) against
   the Rust batch (``clasp-cli batch``, release build, the batch alone timed) on the same
   grasps, 1 and 2 threads; target: Python >= 95 % of Rust;
2. the Ray dataset job (2 objects) on a local Ray cluster of 2 CPUs against 1 CPU, workers
   started before the clock starts; target >= 1.7x.

Run from the repository root, in an environment with clasp[ray] installed:

    python crates/clasp-py/bench/bench_batch.py [--grasps 400] [--repeats 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import clasp
from clasp import dataset

REPO = Path(__file__).resolve().parents[3]
MODELS = REPO / "models"
GRASPIT = REPO.parent / "shared" / "graspit-models"


def scenes():
    """(name, object, hand) pairs: Clasp's hand on its mug, and GraspIt's Barrett on GraspIt's
    mug when the model library is there."""
    found = [("ClaspHand on clasp_mug", MODELS / "objects/clasp_mug.xml",
              MODELS / "robots/ClaspHand/ClaspHand.xml")]
    if GRASPIT.is_dir():
        found.append(("Barrett on GraspIt's mug", GRASPIT / "objects/mug.xml",
                      GRASPIT / "robots/Barrett/Barrett.xml"))
    return found


def rust_cli() -> Path:
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "clasp-cli"], cwd=REPO, check=True)
    return REPO / "target/release/clasp-cli"


def rust_rate(cli: Path, obj: Path, hand: Path, grasps: int, threads: int) -> tuple[float, list]:
    command = [str(cli), "batch", str(obj), "--hand", str(hand), "--grasps", str(grasps),
               "--seed", "0", "--threads", str(threads), "--json"]
    out = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return out["grasps_per_second"], out["results"]


def python_rate(obj: Path, hand: Path, grasps: int, threads: int) -> tuple[float, dict]:
    world = clasp.World()
    world.add_body(obj)
    world.add_robot(hand)
    candidates = clasp.grasp_candidates(world, grasps, seed=0)
    started = time.perf_counter()
    results = world.grasp_batch(candidates, metric="volume", threads=threads)  # as the CLI
    return grasps / (time.perf_counter() - started), results


def batch_section(grasps: int, repeats: int) -> list[dict]:
    cli = rust_cli()
    rows = []
    for name, obj, hand in scenes():
        for threads in (1, 2):
            rust, python = [], []
            for _ in range(repeats):  # interleaved, so drift hits both alike
                rate, rust_results = rust_rate(cli, obj, hand, grasps, threads)
                rust.append(rate)
                rate, py_results = python_rate(obj, hand, grasps, threads)
                python.append(rate)
            same = len(rust_results) == grasps and all(
                py_results["palm"][k].reshape(16).tolist() == row["palm"]
                and py_results["dofs"][k].tolist() == row["dofs"]
                for k, row in enumerate(rust_results)
            )
            r, p = statistics.median(rust), statistics.median(python)
            rows.append({"scene": name, "threads": threads, "grasps": grasps,
                         "rust_grasps_per_second": r, "python_grasps_per_second": p,
                         "python_over_rust": p / r, "same_grasps": same})
            print(f"{name}, {threads} thread(s), {grasps} grasps: Rust {r:.1f} grasps/s, "
                  f"Python {p:.1f} grasps/s, Python/Rust {p / r:.3f} (target >= 0.95: "
                  f"{'met' if p / r >= 0.95 else 'NOT met'}); same grasps: {same}")
    return rows


def ray_job_seconds(job: dataset.Job, cpus: int) -> float:
    import ray

    from clasp import ray as clasp_ray

    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    try:
        # Start every worker (and import clasp in it) before the clock starts.
        warm = ray.remote(num_cpus=1)(lambda: __import__("clasp").World().robots)
        ray.get([warm.remote() for _ in range(4 * cpus)])
        started = time.perf_counter()
        clasp_ray.run(job, progress=None)
        return time.perf_counter() - started
    finally:
        ray.shutdown()


def ray_section(grasps: int) -> dict:
    objects = (str(MODELS / "objects/clasp_mug.xml"), str(MODELS / "objects/clasp_sphere.xml"))
    hand = str(MODELS / "robots/ClaspHand/ClaspHand.xml")
    seconds = {}
    with tempfile.TemporaryDirectory() as folder:
        for cpus in (1, 2):
            job = dataset.Job(hand=hand, objects=objects, grasps=grasps,
                              out=f"{folder}/{cpus}", task_size=50)
            seconds[cpus] = ray_job_seconds(job, cpus)
        same = dataset.same_rows(dataset.read(f"{folder}/1"), dataset.read(f"{folder}/2"))
    total = 2 * grasps
    speedup = seconds[1] / seconds[2]
    print(f"Ray job, 2 objects x {grasps} grasps (tasks of 50): 1 CPU {seconds[1]:.2f} s "
          f"({total / seconds[1]:.1f} grasps/s), 2 CPUs {seconds[2]:.2f} s "
          f"({total / seconds[2]:.1f} grasps/s): {speedup:.2f}x (target >= 1.7: "
          f"{'met' if speedup >= 1.7 else 'NOT met'}); same rows: {same}")
    return {"grasps": total, "seconds_one_cpu": seconds[1], "seconds_two_cpus": seconds[2],
            "speedup": speedup, "same_rows": same}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--grasps", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    figures = {"batch": batch_section(args.grasps, args.repeats), "ray": ray_section(args.grasps)}
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
