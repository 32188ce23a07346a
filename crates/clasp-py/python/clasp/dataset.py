"""Grasp datasets: objects x grasp candidates, split into tasks sized for one worker, each task
one batch call, each task's grasps one Parquet shard (a row per grasp: object, hand, pose,
DOFs, quality). The same job runs on one machine (``run_local``), as one shard of a Slurm array
(``shard=(i, n)``), or on a Ray cluster (``clasp.ray.run``); a rerun skips the shards already
written, so a job that stopped resumes where it was.

The candidates of an object are drawn from the job's seed and the object's place in the job,
exactly as ``clasp-cli batch OBJECT --hand HAND --seed S`` draws them (S = ``object_seed``), so
every shard can be checked against the Rust batch.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from ._clasp import World, grasp_candidates

# Columns of a shard, in order. `palm` is the 4x4 pose row-major (16 numbers), `dofs` one per
# DOF; `epsilon` and `volume` are NaN when the grasp is not force-closure.
COLUMNS = [
    "object_id",
    "object_index",
    "grasp_index",
    "hand",
    "palm",
    "dofs",
    "contacts",
    "force_closure",
    "epsilon",
    "volume",
    "seconds",
]

# A job with ``test`` adds the physics test of each grasp (``World.test_grasp``): whether it
# held, and per direction (+x, -x, +y, -y, +z, -z) how far the object moved (mm) and turned
# (degrees).
TEST_COLUMNS = ["held", "hold_displacement", "hold_rotation"]


@dataclass(frozen=True)
class Job:
    """What a dataset job computes: ``grasps`` candidates of ``hand`` on each of ``objects``
    (GraspIt body files or meshes), drawn from ``seed``, in tasks of ``task_size`` grasps,
    written under ``out``. Paths are made absolute, so that Ray workers find them whatever
    folder they run in (the files must be at the same path on every node)."""

    hand: str
    objects: tuple[str, ...]
    grasps: int
    out: str
    seed: int = 0
    task_size: int = 50
    metric: str = "volume"
    gws: str = "l1"
    test: bool = False

    def __post_init__(self):
        absolute = lambda p: str(Path(p).resolve())  # noqa: E731
        object.__setattr__(self, "hand", absolute(self.hand))
        object.__setattr__(self, "objects", tuple(absolute(o) for o in self.objects))
        object.__setattr__(self, "out", absolute(self.out))
        if self.grasps < 1 or self.task_size < 1:
            raise ValueError("a job needs at least one grasp per object and per task")
        if not self.objects:
            raise ValueError("a job needs at least one object")

    def recipe(self) -> dict:
        """What decides the grasps and where they go in the shards (all but ``out``): a folder
        of shards holds one recipe's. ``test`` is named only when asked for, so folders written
        before it existed still resume."""
        recipe = {k: v for k, v in asdict(self).items() if k != "out"} | {"objects": list(self.objects)}
        if not self.test:
            del recipe["test"]
        return recipe


@dataclass(frozen=True)
class Task:
    """Grasps ``first`` to ``first + count`` of object ``object_index``: one shard."""

    object_index: int
    first: int
    count: int


def object_seed(job: Job, object_index: int) -> int:
    """The seed an object's candidates are drawn from."""
    return job.seed * 1_000_003 + object_index


def object_id(path: str) -> str:
    """An object's name in the dataset: its file name without the extension."""
    return Path(path).stem


def tasks(job: Job) -> list[Task]:
    """Every task of the job, object by object."""
    return [
        Task(index, first, min(job.task_size, job.grasps - first))
        for index in range(len(job.objects))
        for first in range(0, job.grasps, job.task_size)
    ]


def shard_path(job: Job, task: Task) -> Path:
    """Where a task's shard is written."""
    name = f"{task.object_index:04d}-{object_id(job.objects[task.object_index])}-{task.first:07d}.parquet"
    return Path(job.out) / name


MANIFEST = "job.json"


def claim(job: Job) -> None:
    """Writes the job's recipe beside its shards, or checks that the folder's shards are this
    recipe's: a rerun with another seed, task size, hand or objects into the same folder would
    mix two datasets, so it is refused."""
    folder = Path(job.out)
    folder.mkdir(parents=True, exist_ok=True)
    manifest = folder / MANIFEST
    if manifest.exists():
        written = json.loads(manifest.read_text())
        if written != job.recipe():
            raise ValueError(
                f"{folder} holds the shards of another job ({manifest}); "
                "use another --out, or the same recipe to resume"
            )
        return
    partial = manifest.with_name(f"{MANIFEST}.{os.getpid()}.partial")
    partial.write_text(json.dumps(job.recipe(), indent=1))
    os.replace(partial, manifest)


def todo(job: Job, shard: tuple[int, int] | None = None) -> list[Task]:
    """The tasks still to run (no shard written yet), of shard ``(i, n)`` only when given
    (every n-th task from the i-th: a Slurm array's ``$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT``).
    Claims the output folder for the job first (``claim``)."""
    claim(job)
    chosen = tasks(job)
    if shard is not None:
        i, n = shard
        if not 0 <= i < n:
            raise ValueError(f"shard {i}/{n}: i must be in 0..n-1")
        chosen = chosen[i::n]
    return [t for t in chosen if not shard_path(job, t).exists()]


def scene(job: Job, object_index: int) -> World:
    """The world a task grasps in: the object (body 0), then the hand (robot 0)."""
    world = World()
    world.add_body(job.objects[object_index], kind="graspable")
    world.add_robot(job.hand)
    return world


def evaluate(job: Job, task: Task, threads: int | None = None) -> dict[str, list]:
    """Runs one task: its candidates in one batch call. Columns as ``COLUMNS``, then
    ``TEST_COLUMNS`` when the job tests its grasps."""
    world = scene(job, task.object_index)
    candidates = grasp_candidates(world, job.grasps, seed=object_seed(job, task.object_index))
    part = slice(task.first, task.first + task.count)
    aims = {name: candidates[name][part] for name in ("direction", "roll", "dofs")}
    results = world.grasp_batch(aims, metric=job.metric, gws=job.gws, threads=threads, test=job.test)
    n = task.count
    columns = {
        "object_id": [object_id(job.objects[task.object_index])] * n,
        "object_index": [task.object_index] * n,
        "grasp_index": list(range(task.first, task.first + n)),
        "hand": [world.robot_name(0)] * n,
        "palm": [p.reshape(16).tolist() for p in results["palm"]],
        "dofs": [d.tolist() for d in results["dofs"]],
        "contacts": results["contacts"].tolist(),
        "force_closure": results["force_closure"].tolist(),
        "epsilon": results["epsilon"].tolist(),
        "volume": results["volume"].tolist(),
        "seconds": results["seconds"].tolist(),
    }
    if job.test:
        columns["held"] = results["held"].tolist()
        columns["hold_displacement"] = results["hold_displacement"].tolist()
        columns["hold_rotation"] = results["hold_rotation"].tolist()
    return columns


def write_shard(path: Path, columns: dict[str, list]) -> None:
    """Writes a shard atomically: a shard that exists is whole."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + f".{os.getpid()}.partial")
    pq.write_table(pa.table(columns), partial)
    os.replace(partial, path)


def read(out: str | Path):
    """Every shard under ``out`` as one pyarrow table, sorted by object and grasp."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    shards = sorted(Path(out).glob("*.parquet"))
    if not shards:
        return pa.table({name: [] for name in COLUMNS})
    table = pa.concat_tables(pq.read_table(p) for p in shards)
    return table.sort_by([("object_index", "ascending"), ("grasp_index", "ascending")])


def report(done: int, total: int, grasps: int, started: float) -> str:
    """A progress line: shards written, grasps and their rate."""
    seconds = max(time.perf_counter() - started, 1e-9)
    return f"{done}/{total} shards, {grasps} grasps, {grasps / seconds:.1f} grasps/s"


def run_local(
    job: Job,
    shard: tuple[int, int] | None = None,
    threads: int | None = None,
    progress: Callable[[str], None] | None = print,
) -> list[Path]:
    """Runs the job's remaining tasks (of one shard when given) on this machine, one after
    another, each on ``threads`` threads (default: every core). Returns the shards written."""
    remaining = todo(job, shard)
    written, grasps, started = [], 0, time.perf_counter()
    for task in remaining:
        path = shard_path(job, task)
        write_shard(path, evaluate(job, task, threads))
        written.append(path)
        grasps += task.count
        if progress:
            progress(report(len(written), len(remaining), grasps, started))
    return written


def job_dict(job: Job) -> dict:
    """The job as plain data (what a Ray task is sent)."""
    return asdict(job)


def parse_shard(text: str) -> tuple[int, int]:
    """``"i/n"`` as ``(i, n)``."""
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError as error:
        raise ValueError(f"a shard is i/n (as 3/10), not {text!r}") from error
    if not 0 <= i < n:
        raise ValueError(f"shard {text}: i must be in 0..n-1")
    return i, n


def same_rows(a, b, ignore: Iterable[str] = ("seconds",)) -> bool:
    """Whether two result tables hold the same grasps (every column but the times)."""
    names = [c for c in COLUMNS if c not in set(ignore)]
    left, right = a.select(names).to_pylist(), b.select(names).to_pylist()
    return _nan_equal(left, right)


def _nan_equal(x, y) -> bool:
    if isinstance(x, float) and isinstance(y, float):
        return x == y or (np.isnan(x) and np.isnan(y))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_nan_equal(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(_nan_equal(p, q) for p, q in zip(x, y))
    return x == y
