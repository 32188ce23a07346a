#!/usr/bin/env python3
"""Time Coal (the C++ collision library behind Pinocchio) on the meshes and poses `clasp-bench
--export DIR` wrote, and set its times beside ours.

    python3 coal_compare.py DIR [--budget-ms 300] [--json OUT]

Coal is only reachable from Python here, so every call pays the binding's cost on top of the
C++ work. That cost is measured on a call that does almost nothing in C++ (two tiny spheres far
apart) and subtracted, so the comparison is of the C++ work as far as we can isolate it. Answers
are checked against ours before anything is timed: a fast wrong answer is not a result.
See README.md beside this file.
"""

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

# The comparison scripts' shared OBJ reader, one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from obj_file import read_obj  # noqa: E402

try:
    import coal
except ImportError:
    sys.exit("coal is not installed: pip install coal")

NOW = time.perf_counter_ns
ABS_TOL, REL_TOL = 1e-6, 1e-6  # mm, and relative to our distance


def build_model(vertices, faces):
    """An OBBRSS tree (what Coal recommends for distance queries) and its build time in ns.
    The OBJ parse is left out: only the tree build is Coal's work."""
    start = NOW()
    model = coal.BVHModelOBBRSS()
    model.beginModel(len(faces), len(vertices))
    model.addVertices(vertices)
    model.addTriangles(faces)
    model.endModel()
    return model, NOW() - start


def transform(pose):
    """A row-major 4×4 pose as a `coal.Transform3s`, made once, outside any timed region."""
    m = np.asarray(pose, dtype=np.float64)
    return coal.Transform3s(np.ascontiguousarray(m[:3, :3]), np.ascontiguousarray(m[:3, 3]))


class Query:
    """One query kind through Coal's functors (`ComputeDistance`/`ComputeCollision`), which hold
    the pair's dispatch and solver, and cost about half the binding time of `coal.distance`/
    `coal.collide` per call. Request and result are made once and reused; the result is
    cleared before each call, outside the timed region (Coal accumulates into it otherwise)."""

    def __init__(self, kind, geometry_a, geometry_b):
        self.kind = kind
        if kind == "distance":
            # Defaults: exact (rel_err = abs_err = 0), nearest points always computed in Coal 3,
            # as ours returns closest points.
            self.call = coal.ComputeDistance(geometry_a, geometry_b)
            self.request, self.result = coal.DistanceRequest(), coal.DistanceResult()
        elif kind == "collide":
            # Defaults: stop at the first contact (num_max_contacts = 1).
            self.call = coal.ComputeCollision(geometry_a, geometry_b)
            self.request, self.result = coal.CollisionRequest(), coal.CollisionResult()
        else:
            raise ValueError(f"unknown query {kind!r}")

    def answer(self, tf_a, tf_b):
        """Coal's answer for one pose: the distance (mm), or whether they collide."""
        self.result.clear()
        value = self.call(tf_a, tf_b, self.request, self.result)
        return float(value) if self.kind == "distance" else self.result.isCollision()

    def median_ns(self, tf_pairs, budget_ns):
        """Median ns per call, the poses interleaved and repeated until the budget is spent.
        Each call is timed alone so that clearing the result stays outside; the timer's own
        cost is in the overhead and so subtracted with it. GC is off to keep pauses out."""
        call, request, result = self.call, self.request, self.result
        times = []
        gc.disable()
        try:
            end = NOW() + budget_ns
            while not times or NOW() < end:
                for tf_a, tf_b in tf_pairs:
                    result.clear()
                    start = NOW()
                    call(tf_a, tf_b, request, result)
                    times.append(NOW() - start)
        finally:
            gc.enable()
        return statistics.median(times)


def overhead_ns(kind, budget_ns):
    """The binding's cost per call: the same call between two 1 µm spheres 1 m apart, which
    costs the C++ side a few ns. Subtracted from every cell of that query kind."""
    sphere = coal.Sphere(1e-3)
    far = coal.Transform3s(np.eye(3), np.array([1000.0, 0.0, 0.0]))
    return Query(kind, sphere, sphere).median_ns([(far, coal.Transform3s())], budget_ns)


def check(kind, coal_answers, ours):
    """(mismatching poses, max |Coal − ours| in mm or None for collide)."""
    if kind == "collide":
        return sum(bool(c) != bool(o) for c, o in zip(coal_answers, ours)), None
    deviations = [abs(c - o) for c, o in zip(coal_answers, ours)]
    bad = sum(d > ABS_TOL + REL_TOL * abs(o) for d, o in zip(deviations, ours))
    return bad, max(deviations, default=0.0)


def run(export, budget_ns):
    """Every cell of the export, timed and checked; returns everything the report shows."""
    manifest = json.loads((export / "manifest.json").read_text())
    models, meshes = {}, []
    for name, file in manifest["meshes"].items():
        vertices, faces = read_obj(export / file)
        models[name], build = build_model(vertices, faces)
        meshes.append({"name": name, "triangles": len(faces), "vertices": len(vertices),
                       "build_ms": build / 1e6})
    kinds = sorted({cell["query"] for cell in manifest["cells"]})
    overheads = {kind: overhead_ns(kind, budget_ns) for kind in kinds}
    identity = coal.Transform3s()
    cells = []
    for cell in manifest["cells"]:
        query = Query(cell["query"], models[cell["mesh_a"]], models[cell["mesh_b"]])
        tf_pairs = [(transform(pose), identity) for pose in cell["poses"]]
        answers = [query.answer(a, b) for a, b in tf_pairs]  # also warms the caches up
        mismatches, deviation = check(cell["query"], answers, cell["answers"])
        raw = query.median_ns(tf_pairs, budget_ns)
        net = max(0.0, raw - overheads[cell["query"]])
        ours = cell["ours_ns"]
        cells.append({key: cell[key] for key in ("name", "object", "triangles", "config", "query")}
                     | {"poses": len(tf_pairs), "ours_ns": ours, "coal_raw_ns": raw,
                        "coal_ns": net, "ratio": net / ours if ours > 0 else None,
                        "mismatches": mismatches, "max_deviation_mm": deviation,
                        "passed": mismatches == 0})
    summary = {}
    for kind in kinds:
        ratios = [(c["ratio"], c["name"]) for c in cells
                  if c["query"] == kind and c["ratio"] is not None]
        if ratios:
            summary[kind] = {"median_ratio": statistics.median(r for r, _ in ratios),
                             "min_ratio": min(ratios)[0], "min_cell": min(ratios)[1]}
    passed = sum(c["passed"] for c in cells)
    return {"coal_version": coal.__version__, "api": "ComputeDistance/ComputeCollision",
            "budget_ms": budget_ns / 1e6, "meshes": meshes, "overhead_ns": overheads,
            "cells": cells, "summary": summary, "passed": passed,
            "failed": len(cells) - passed}


def report(results):
    """The tables, in µs; a ratio above 1 means we are faster than Coal."""
    us = lambda ns: f"{ns / 1e3:10.2f}"
    print(f"Coal {results['coal_version']}, {results['api']} functors, "
          f"budget {results['budget_ms']:g} ms per cell\n")
    print(f"{'mesh':<24}{'triangles':>10}{'build ms':>10}")
    for m in results["meshes"]:
        print(f"{m['name']:<24}{m['triangles']:>10}{m['build_ms']:>10.2f}")
    print()
    for kind, ns in results["overhead_ns"].items():
        print(f"binding overhead per {kind} call: {ns:.0f} ns (subtracted)")
    print(f"\n{'object':<12}{'tris':>8}  {'config':<14}{'query':<9}{'ours µs':>10}"
          f"{'Coal raw':>10}{'Coal net':>10}{'ratio':>8}  check")
    for c in results["cells"]:
        ratio = f"{c['ratio']:8.2f}" if c["ratio"] is not None else f"{'-':>8}"
        verdict = "ok" if c["passed"] else f"FAIL {c['mismatches']}/{c['poses']} poses"
        if c["max_deviation_mm"] is not None:
            verdict += f" (max dev {c['max_deviation_mm']:.1e} mm)"
        print(f"{c['object']:<12}{c['triangles']:>8}  {c['config']:<14}{c['query']:<9}"
              f"{us(c['ours_ns'])}{us(c['coal_raw_ns'])}{us(c['coal_ns'])}{ratio}  {verdict}")
    print()
    for kind, s in results["summary"].items():
        print(f"{kind}: median ratio {s['median_ratio']:.2f}, "
              f"min {s['min_ratio']:.2f} ({s['min_cell']})")
    print(f"\n{results['passed']} passed, {results['failed']} failed")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("export", type=Path, help="folder written by clasp-bench --export")
    parser.add_argument("--budget-ms", type=float, default=300.0,
                        help="time spent calling Coal per cell (and per overhead measurement)")
    parser.add_argument("--json", type=Path, help="write every number to this file")
    args = parser.parse_args()
    results = run(args.export, int(args.budget_ms * 1e6))
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
