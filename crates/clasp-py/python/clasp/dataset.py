"""Grasp datasets: objects x grasp candidates, split into tasks sized for one worker, each task
one batch call, each task's grasps one Parquet shard (a row per grasp: object, hand, pose,
DOFs, quality). The same job runs on one machine (``run_local``), as one shard of a Slurm array
(``shard=(i, n)``), or on a Ray cluster (``clasp.ray.run``); a rerun skips the shards already
written, so a job that stopped resumes where it was.

``objects`` may name folders: each mesh (or GraspIt body file) in one is an object, and so is
each folder in it that holds meshes, as YCB and Objaverse ship them (``objects_in``; the object
is named by its folder). Each bare mesh is read in its own units (metres or millimetres, as its
file and size say, or ``units``), and each row names the object, its units and its scale. A
mesh that does not load is one line naming its file, and the other objects go on. When every
task is done, ``run_local`` gathers the shards into one file, ``grasps.parquet``.

The candidates of an object are drawn from the job's seed and the object's place in the job,
exactly as ``clasp-cli batch OBJECT --hand HAND --seed S`` draws them (S = ``object_seed``), so
every shard can be checked against the Rust batch.

A job with ``plan`` plans each object's grasps instead of drawing them: GraspIt's EigenGrasp
planner (``World.plan``, the planner's defaults, the object's seed), one task per object, a row
per grasp the planner returns (at most ``grasps``; with ``test``, those that held first), and
the state's ``energy`` as a column.

A job with ``views`` adds pictures (``World.render``, 640x480): each grasp seen from one view
(column ``image``), and each object alone from ``views`` directions spread over the sphere,
one Parquet file per object under ``views/``. Each picture is the bytes of a compressed NumPy
``.npz`` (``rgb``, ``depth`` in mm, ``segmentation``, ``intrinsics``, ``camera``;
``decode_image`` reads it) stored in the Parquet file itself, not in files beside it: a shard
then holds all its grasps' pictures or does not exist, so a rerun resumes exactly as before
(nothing written twice, nothing half-written), Ray workers need no shared folder (the driver
writes what they return), and a dataset moves as its Parquet files.
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from ._clasp import BodyId, World, grasp_candidates, objects_in
from .errors import LoadError

# What a user of a dataset calls; the rest are the steps `run_local` and `clasp.ray` share.
__all__ = ["Job", "run_local", "read", "read_views", "decode_image", "recording_path", "object_seed", "combine"]

# Columns of a shard, in order. `palm` is the 4x4 pose row-major (16 numbers), `dofs` one per
# DOF; `epsilon` and `volume` are NaN when the grasp is not force-closure. `object_units` is
# the unit a bare mesh's numbers were read in ("m" or "mm"; None for a GraspIt body file) and
# `object_scale` the millimetres per one of them (the world is in mm).
COLUMNS = [
    "object_id",
    "object_index",
    "object_units",
    "object_scale",
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

# A job with ``test`` adds the physics test of each grasp (``World.test_grasp``; its
# ``test_preset`` names which): whether it held, per run (+x, -x, +y, -y, +z, -z, or GraspGen's
# one) how far the object moved (mm) and turned (degrees), and after the squeeze the normal
# force on the object (N) and which fingers touch it.
TEST_COLUMNS = ["held", "hold_displacement", "hold_rotation", "squeeze_force", "fingers_on_object"]

# A job with ``plan`` adds each planned grasp's energy (the planner's score of its state).
PLAN_COLUMNS = ["energy"]

# A job with ``views`` adds each grasp's picture (a compressed .npz's bytes, see
# ``decode_image``).
VIEW_COLUMNS = ["image"]

# Millimetres per one of a mesh's units.
UNIT_SCALE = {"m": 1000.0, "mm": 1.0}

# The pictures' size, pixels.
VIEW_SIZE = (640, 480)


@dataclass(frozen=True)
class Job:
    """What a dataset job computes: ``grasps`` candidates of ``hand`` on each of ``objects``
    (GraspIt body files, meshes, or folders of them: ``objects_in``), drawn from ``seed``, in
    tasks of ``task_size`` grasps, written under ``out``. A bare mesh is read in ``units``
    ("m" or "mm"; default: as its file and size say, each object its own). Folders are
    expanded and paths made absolute, so that Ray workers find them whatever folder they run
    in (the files must be at the same path on every node); ``object_names`` are the objects'
    names in the dataset (a file's stem, or its object folder's name)."""

    hand: str
    objects: tuple[str, ...]
    grasps: int
    out: str
    seed: int = 0
    task_size: int = 50
    metric: str = "volume"
    gws: str = "l1"
    test: bool = False
    views: int = 0
    test_preset: str | None = None
    plan: bool = False
    # Keep each tested grasp's run as a recording (``recording_path``); it changes no label, so
    # it is not part of the recipe.
    record: bool = False
    units: str | None = None
    # Filled from ``objects`` (a Ray worker's copy gets them passed along).
    object_names: tuple[str, ...] = ()

    def __post_init__(self):
        absolute = lambda p: str(Path(p).resolve())  # noqa: E731
        object.__setattr__(self, "hand", absolute(self.hand))
        object.__setattr__(self, "out", absolute(self.out))
        if len(self.object_names) != len(self.objects) or any(Path(o).is_dir() for o in self.objects):
            names, files = expand_objects(self.objects)
            object.__setattr__(self, "objects", files)
            object.__setattr__(self, "object_names", names)
        else:
            object.__setattr__(self, "objects", tuple(absolute(o) for o in self.objects))
            object.__setattr__(self, "object_names", tuple(self.object_names))
        if self.units not in (None, "m", "mm"):
            raise ValueError(f'units is "m" or "mm" (or None: as each file says), not {self.units!r}')
        if self.grasps < 1 or self.task_size < 1:
            raise ValueError("a job needs at least one grasp per object and per task")
        if not self.objects:
            raise ValueError("a job needs at least one object")
        if self.views < 0:
            raise ValueError("views is a number of views, 0 or more")
        if self.test_preset is not None and not self.test:
            raise ValueError("a test preset needs the physics test (test=True)")
        if self.plan and (self.record or self.views):
            raise ValueError("a planned job keeps no recordings or views (yet): plan without them")
        if self.record and not self.test:
            raise ValueError("a recording keeps the physics test's run: it needs test=True")

    def recipe(self) -> dict:
        """What decides the grasps and where they go in the shards (all but ``out``): a folder
        of shards holds one recipe's. ``test`` is named only when asked for, so folders written
        before it existed still resume."""
        recipe = {k: v for k, v in asdict(self).items() if k not in ("out", "record")}
        recipe |= {"objects": list(self.objects), "object_names": list(self.object_names)}
        # Names that are the files' stems say nothing more than the files do.
        if all(name == Path(o).stem for name, o in zip(self.object_names, self.objects)):
            del recipe["object_names"]
        for extra in ("test", "views", "test_preset", "plan", "units"):
            if not recipe[extra]:
                del recipe[extra]
        return recipe


def expand_objects(given: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The objects' names and absolute files: a file as it is, named by its stem; a folder as
    its objects (``objects_in``), each folder in it that holds no mesh said on stderr."""
    names, files = [], []
    for entry in given:
        path = Path(entry).resolve()
        if path.is_dir():
            found, problems = objects_in(path)
            for problem in problems:
                print(problem, file=sys.stderr)
            names += [name for name, _ in found]
            files += [str(Path(file).resolve()) for _, file in found]
        else:
            names.append(path.stem)
            files.append(str(path))
    if not files:
        raise ValueError(f"no object found in {', '.join(map(str, given))}")
    return tuple(names), tuple(files)


@dataclass(frozen=True)
class Task:
    """Grasps ``first`` to ``first + count`` of object ``object_index``: one shard."""

    object_index: int
    first: int
    count: int


def object_seed(job: Job, object_index: int) -> int:
    """The seed an object's candidates are drawn from."""
    return job.seed * 1_000_003 + object_index


def object_id(job: Job, object_index: int) -> str:
    """An object's name in the dataset: its file's stem, or its object folder's name."""
    return job.object_names[object_index]


def tasks(job: Job) -> list[Task]:
    """Every task of the job, object by object (a planned job's: one per object)."""
    if job.plan:
        return [Task(index, 0, job.grasps) for index in range(len(job.objects))]
    return [
        Task(index, first, min(job.task_size, job.grasps - first))
        for index in range(len(job.objects))
        for first in range(0, job.grasps, job.task_size)
    ]


def recording_path(job: Job, object_index: int, grasp_index: int) -> Path:
    """Where a job with ``record`` keeps a grasp's physics test as Clasp's recording (its
    world beside it): ``recordings/<object id>/grasp-<index>.clasprec``; Clasp's app opens it,
    and its timeline plays the test's runs one after another."""
    name = f"{object_index:04d}-{object_id(job, object_index)}"
    return Path(job.out) / "recordings" / name / f"grasp-{grasp_index:07d}.clasprec"


def shard_path(job: Job, task: Task) -> Path:
    """Where a task's shard is written."""
    name = f"{task.object_index:04d}-{object_id(job, task.object_index)}-{task.first:07d}.parquet"
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


def views_path(job: Job, object_index: int) -> Path:
    """Where an object's views are written."""
    return Path(job.out) / "views" / f"{object_index:04d}-{object_id(job, object_index)}.parquet"


def view_directions(count: int) -> np.ndarray:
    """``count`` directions spread evenly over the sphere (a Fibonacci lattice), (count, 3)."""
    k = np.arange(count) + 0.5
    z = 1.0 - 2.0 * k / count
    angle = np.pi * (1.0 + 5**0.5) * k
    r = np.sqrt(1.0 - z * z)
    return np.stack([r * np.cos(angle), r * np.sin(angle), z], axis=1)


def encode_image(images: dict) -> bytes:
    """A render (``World.render``'s arrays) as the bytes of a compressed .npz."""
    buffer = io.BytesIO()
    keep = ("rgb", "depth", "segmentation", "intrinsics", "camera")
    np.savez_compressed(buffer, **{k: images[k] for k in keep})
    return buffer.getvalue()


def decode_image(data: bytes) -> dict[str, np.ndarray]:
    """A picture of the dataset as arrays: ``rgb`` (H, W, 3), ``depth`` (H, W, mm, inf where
    nothing is seen), ``segmentation`` (H, W: the body's index in the world's ``body_ids``,
    -1 where none is), ``intrinsics`` (3x3) and ``camera`` (4x4 camera to world, OpenCV)."""
    with np.load(io.BytesIO(data)) as arrays:
        return {k: arrays[k] for k in arrays.files}


def object_views(job: Job, object_index: int) -> dict[str, list] | None:
    """The object alone from each of the job's view directions, as columns; ``None`` when the
    job has no views or they are written already."""
    if not job.views or views_path(job, object_index).exists():
        return None
    world = World()
    world.add_body(job.objects[object_index], kind="graspable", units=job.units)
    directions = view_directions(job.views)
    width, height = VIEW_SIZE
    images = [encode_image(world.render(width=width, height=height, look_from=d)) for d in directions]
    return {
        "object_id": [object_id(job, object_index)] * job.views,
        "object_index": [object_index] * job.views,
        "view": list(range(job.views)),
        "direction": directions.tolist(),
        "image": images,
    }


def grasp_images(world: World, results: dict) -> list[bytes]:
    """Each grasp of a batch seen from one view: the hand put at its palm pose and DOFs, the
    object framed from halfway between the palm's side and above it."""
    palm, width, height = BodyId.palm(0), *VIEW_SIZE
    centre = world.body_pose(BodyId.free(0))[:3, 3]
    images = []
    for pose, dofs in zip(results["palm"], results["dofs"]):
        world.set_pose(palm, pose)
        world.set_dofs(0, dofs.tolist())
        towards = pose[:3, 3] - centre
        towards /= max(np.linalg.norm(towards), 1e-9)
        side = np.cross(towards, [0.0, 0.0, 1.0])
        if np.linalg.norm(side) < 1e-6:
            side = np.array([1.0, 0.0, 0.0])
        direction = towards + side / np.linalg.norm(side) + np.array([0.0, 0.0, 0.5])
        images.append(encode_image(world.render(width=width, height=height, look_from=direction)))
    return images


def scene(job: Job, object_index: int) -> World:
    """The world a task grasps in: the object (body 0), then the hand (robot 0)."""
    world = World()
    world.add_body(job.objects[object_index], kind="graspable", units=job.units)
    world.add_robot(job.hand)
    return world


def evaluate(job: Job, task: Task, threads: int | None = None) -> dict[str, list]:
    """Runs one task: its candidates in one batch call (a planned job's: the object's plan).
    Columns as ``COLUMNS``, then ``TEST_COLUMNS`` when the job tests its grasps, then
    ``PLAN_COLUMNS`` when it plans them."""
    world = scene(job, task.object_index)
    if job.plan:
        return planned(job, task, world, threads)
    candidates = grasp_candidates(world, job.grasps, seed=object_seed(job, task.object_index))
    part = slice(task.first, task.first + task.count)
    # A hand's aims, or a parallel gripper's starts (it has no aims: antipodal pairs).
    names = ("direction", "roll", "dofs") if "direction" in candidates else ("palm", "dofs", "approach", "through")
    aims = {name: candidates[name][part] for name in names}
    records = [recording_path(job, task.object_index, task.first + k) for k in range(task.count)] if job.record else None
    for path in records or []:
        path.parent.mkdir(parents=True, exist_ok=True)
    results = world.grasp_batch(
        aims,
        metric=job.metric,
        gws=job.gws,
        threads=threads,
        test=job.test,
        test_preset=job.test_preset,
        test_record=records,
    )
    return grasp_columns(job, task, world, results)


def planned(job: Job, task: Task, world: World, threads: int | None) -> dict[str, list]:
    """An object's planned grasps as a task's columns (``seconds``: the whole plan's, shared)."""
    plan = world.plan(
        grasps=job.grasps,
        seed=object_seed(job, task.object_index),
        threads=threads,
        test=job.test,
        preset=job.test_preset,
    )
    plan["seconds"] = np.full(len(plan["palm"]), plan["seconds"])
    columns = grasp_columns(job, Task(task.object_index, 0, len(plan["palm"])), world, plan)
    columns["energy"] = plan["energy"].tolist()
    return columns


def grasp_columns(job: Job, task: Task, world: World, results: dict) -> dict[str, list]:
    """The columns of a task's grasps, from a batch call's (or a plan's) arrays."""
    n = task.count
    units = world.body_units(BodyId.free(0))
    columns = {
        "object_id": [object_id(job, task.object_index)] * n,
        "object_index": [task.object_index] * n,
        "object_units": [units] * n,
        "object_scale": [UNIT_SCALE.get(units)] * n,
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
        columns["squeeze_force"] = results["squeeze_force"].tolist()
        columns["fingers_on_object"] = results["fingers_on_object"].tolist()
    if job.views:
        columns["image"] = grasp_images(world, results)
    return columns


def evaluate_with_views(job: Job, task: Task, threads: int | None = None) -> tuple[dict, dict | None]:
    """A task's columns, and its object's views when it is the object's first task and they
    are not written yet."""
    views = object_views(job, task.object_index) if task.first == 0 else None
    return evaluate(job, task, threads), views


def write_task(job: Job, task: Task, columns: dict, views: dict | None) -> Path:
    """Writes a task's object views (when it carries them), then its shard."""
    if views is not None:
        write_shard(views_path(job, task.object_index), views)
    path = shard_path(job, task)
    write_shard(path, columns)
    return path


def write_shard(path: Path, columns: dict[str, list]) -> None:
    """Writes a shard atomically: a shard that exists is whole."""
    import pyarrow as pa

    write_table(path, pa.table(columns))


def write_table(path: Path, table) -> None:
    """Writes a pyarrow table as Parquet atomically: a file that exists is whole."""
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + f".{os.getpid()}.partial")
    pq.write_table(table, partial)
    os.replace(partial, path)


def read_views(out: str | Path):
    """Every object's views under ``out`` as one pyarrow table, sorted by object and view."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = sorted((Path(out) / "views").glob("*.parquet"))
    if not files:
        return pa.table({"object_id": [], "object_index": [], "view": [], "direction": [], "image": []})
    table = pa.concat_tables(pq.read_table(p) for p in files)
    return table.sort_by([("object_index", "ascending"), ("view", "ascending")])


def read(out: str | Path):
    """Every shard under ``out`` as one pyarrow table, sorted by object and grasp."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    shards = sorted(p for p in Path(out).glob("*.parquet") if p.name != COMBINED)
    if not shards:
        return pa.table({name: [] for name in COLUMNS})
    table = pa.concat_tables(pq.read_table(p) for p in shards)
    return table.sort_by([("object_index", "ascending"), ("grasp_index", "ascending")])


# The one file every shard is gathered into once the job is done.
COMBINED = "grasps.parquet"


def combine(out: str | Path) -> Path:
    """Gathers every shard under ``out`` into one Parquet file, ``out/grasps.parquet`` (rows
    by object and grasp, as ``read`` gives them), written atomically; returns its path."""
    path = Path(out) / COMBINED
    write_table(path, read(out))
    return path


def report(done: int, total: int, grasps: int, started: float) -> str:
    """A progress line: shards written, grasps and their rate, and a bar."""
    seconds = max(time.perf_counter() - started, 1e-9)
    filled = round(20 * done / max(total, 1))
    bar = "#" * filled + "." * (20 - filled)
    return f"{done}/{total} shards, {grasps} grasps, {grasps / seconds:.1f} grasps/s [{bar}]"


def run_local(
    job: Job,
    shard: tuple[int, int] | None = None,
    threads: int | None = None,
    progress: Callable[[str], None] | None = print,
) -> list[Path]:
    """Runs the job's remaining tasks (of one shard when given) on this machine, one after
    another, each on ``threads`` threads (default: every core). An object that does not load
    is one line on stderr naming its file, and its tasks are passed over. Once no task is left
    (of the whole job), the shards are gathered into ``grasps.parquet``. Returns the shards
    written."""
    remaining = todo(job, shard)
    written, grasps, started = [], 0, time.perf_counter()
    failed: set[int] = set()
    for done, task in enumerate(remaining, start=1):
        if task.object_index in failed:
            continue
        try:
            columns = evaluate_with_views(job, task, threads)
        except LoadError as error:
            print(f"{job.objects[task.object_index]}: {error}", file=sys.stderr)
            failed.add(task.object_index)
            continue
        written.append(write_task(job, task, *columns))
        grasps += task.count
        if progress:
            progress(report(done, len(remaining), grasps, started))
    finish(job, written, failed)
    return written


def finish(job: Job, written: list[Path], failed: set[int]) -> None:
    """Gathers the shards into ``grasps.parquet`` once no task is left but those of objects
    that did not load, where this run wrote a shard or the file is not there yet."""
    if [t for t in todo(job) if t.object_index not in failed]:
        return
    if written or not (Path(job.out) / COMBINED).exists():
        combine(job.out)


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
