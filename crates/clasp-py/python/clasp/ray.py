"""A grasp dataset on a Ray cluster: each task of the job (``clasp.dataset``) runs as a Ray task
on one CPU of some worker, its grasps come back to the driver as columns, and the driver writes
them as a Parquet shard. A rerun skips the shards already written. Ray is an optional extra
(``pip install ./crates/clasp-py[ray]``); without it, or with ``--local``, the same job runs on
this machine, and ``--shard i/n`` runs one part of it (a Slurm array's task).

From the command line::

    python -m clasp.ray HAND.xml OBJECT.xml [OBJECT.xml ...] --grasps 1000 --out results/
        [--seed S] [--task-size 50] [--test] [--test-preset NAME] [--record] [--views N] [--plan]
        [--address auto] [--local]
        [--shard i/n] [--threads T]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

from . import dataset
from ._clasp import TEST_PRESETS
from .dataset import Job

__all__ = ["run", "main"]


def _evaluate_remote(job: dict, task: dict) -> tuple[dict, dict, dict | None]:
    """The body of a Ray task: one task's grasps (and its object's views, when it carries
    them), on the one CPU Ray gave it."""
    from clasp.dataset import Job, Task, evaluate_with_views

    return task, *evaluate_with_views(Job(**job), Task(**task), threads=1)


def run(
    job: Job,
    address: str | None = None,
    num_cpus: int | None = None,
    progress: Callable[[str], None] | None = print,
) -> list[Path]:
    """Runs the job's remaining tasks on a Ray cluster: the one ``ray.init`` already joined,
    else ``address`` (``"auto"``: the local cluster ``ray start --head`` made), else a new local
    one with ``num_cpus`` CPUs. Each task takes one CPU; shards are written as tasks finish.
    Returns the shards written."""
    import ray

    remaining = dataset.todo(job)
    started_ray = not ray.is_initialized()
    if started_ray:
        ray.init(address=address, num_cpus=num_cpus, include_dashboard=False)
    try:
        written, failed = _run_tasks(ray, job, remaining, progress)
        dataset.finish(job, written, failed)
        return written
    finally:
        if started_ray:
            ray.shutdown()


def _run_tasks(ray, job: Job, remaining: list, progress) -> tuple[list[Path], set[int]]:
    """Sends every task, writes each shard as its task finishes; an object that does not load
    is one line on stderr naming its file, and the rest go on; any other failure cancels the
    others (the shards written stay: a rerun resumes) and raises its error. Returns the shards
    written and the objects that did not load."""
    evaluate = ray.remote(num_cpus=1)(_evaluate_remote)
    plain = dataset.job_dict(job)
    pending = [evaluate.remote(plain, vars(task)) for task in remaining]
    written, grasps, started = [], 0, time.perf_counter()
    failed: set[int] = set()
    by_reference = dict(zip(pending, remaining))
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for reference in finished:
                try:
                    task, columns, views = ray.get(reference)
                except dataset.LoadError as error:
                    index = by_reference[reference].object_index
                    if index not in failed:
                        print(f"{job.objects[index]}: {error}", file=sys.stderr)
                    failed.add(index)
                    continue
                task = dataset.Task(**task)
                written.append(dataset.write_task(job, task, columns, views))
                grasps += task.count
                if progress:
                    progress(dataset.report(len(written), len(remaining), grasps, started))
    except BaseException:
        for reference in pending:
            ray.cancel(reference)
        raise
    return written, failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m clasp.ray",
        description="Evaluate a grasp dataset (objects x grasp candidates) on a Ray cluster "
        "or on this machine, writing Parquet shards; a rerun resumes.",
    )
    parser.add_argument("hand", help="the hand: a GraspIt robot file or a URDF")
    parser.add_argument("objects", nargs="+", help="the objects: GraspIt body files, meshes, or folders of them (each mesh, and each folder of meshes, as YCB and Objaverse ship them)")
    parser.add_argument("--units", choices=["m", "mm"], help="the unit of every bare mesh's numbers (default: glTF's metres, else each mesh's size decides)")
    parser.add_argument("--grasps", type=int, default=100, help="grasp candidates per object")
    parser.add_argument("--out", required=True, help="the folder the shards go to")
    parser.add_argument("--seed", type=int, default=0, help="where the candidates are drawn from")
    parser.add_argument("--task-size", type=int, default=50, help="grasps per task (and shard)")
    parser.add_argument("--metric", choices=["epsilon", "volume"], default="volume")
    parser.add_argument("--gws", choices=["l1", "linf"], default="l1")
    parser.add_argument("--test", action="store_true", help="add each grasp's physics test (held, and how far the object moved and turned along each axis)")
    parser.add_argument(
        "--test-preset",
        choices=TEST_PRESETS,
        help="which physics test: Clasp's own (the default) or the field's as Clasp reproduces them (docs/presets.md); implies --test",
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="keep each grasp's physics test as a recording Clasp's app opens (recordings/<object>/grasp-N.clasprec); implies --test",
    )
    parser.add_argument("--plan", action="store_true", help="plan each object's grasps (GraspIt's EigenGrasp planner, its defaults) instead of drawing candidates: one task per object, a row per grasp returned, at most --grasps; with --test, those that held first")
    parser.add_argument("--views", type=int, default=0, help="render each object alone from N views (views/*.parquet) and each grasp from one view (column image): 640x480 RGB, depth and mask as .npz bytes")
    parser.add_argument("--address", help='a Ray cluster to join ("auto": the local one)')
    parser.add_argument("--num-cpus", type=int, help="CPUs of a new local Ray cluster")
    parser.add_argument("--local", action="store_true", help="run on this machine, without Ray")
    parser.add_argument("--shard", help="run only part i of n (i/n), on this machine")
    parser.add_argument("--threads", type=int, help="threads of a local run (default: all)")
    args = parser.parse_args(argv)
    try:
        job = Job(
            hand=args.hand,
            objects=tuple(args.objects),
            grasps=args.grasps,
            out=args.out,
            seed=args.seed,
            task_size=args.task_size,
            metric=args.metric,
            gws=args.gws,
            test=args.test or args.test_preset is not None or args.record,
            views=args.views,
            test_preset=args.test_preset,
            record=args.record,
            plan=args.plan,
            units=args.units,
        )
        shard = dataset.parse_shard(args.shard) if args.shard else None
    except ValueError as error:
        parser.error(str(error))
    started = time.perf_counter()
    if args.local or shard is not None:
        written = dataset.run_local(job, shard=shard, threads=args.threads)
    else:
        written = run(job, address=args.address, num_cpus=args.num_cpus)
    seconds = time.perf_counter() - started
    print(f"{len(written)} shards written to {args.out} in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
