"""Sets GraspIt's reading of each recorded grasp beside Clasp's (issue 32).

    python3 parity.py RECORD [--graspit-root DIR] [--cli PATH] [--threshold MM] [--graspit]
                     [--json OUT]

RECORD holds `worlds/*.xml` (grasps saved as GraspIt worlds), `graspit.jsonl` (one line a
world and a run of GraspIt, from parity.cpp: GraspIt's contacts of the hand on the object, and
its epsilon and volume on the L1 wrench space; GraspIt's answers vary from run to run, and
Clasp's reading is set beside the run it agrees with best) and `qhull.jsonl` (GraspIt's hull,
qhull with GraspIt's options, built on Clasp's own wrenches of each grasp: where the qualities
differ, whether GraspIt's hull is why). For each world, `clasp-cli quality --metric volume` reads the
same file; the contacts are matched one to one (the same link, the points on the object within
0.1 mm, the normals within 1 degree) and the qualities compared (epsilon within 1e-3, volume
within 1 %). Prints a row a world and a summary; `--json` writes every row.
"""

import argparse
import json
import math
import re
import subprocess
import sys
from pathlib import Path

POINT_MM = 0.1
NORMAL_DEGREES = 1.0
EPSILON = 1e-3
VOLUME_SHARE = 0.01


def link_of(name):
    """The chain and link a body's name ends with ("_chain0_link1"), or the name for a base."""
    found = re.search(r"_chain(\d+)_link(\d+)$", name)
    return (int(found[1]), int(found[2])) if found else "base"


def angle(u, v):
    dot = sum(a * b for a, b in zip(u, v))
    norms = math.hypot(*u) * math.hypot(*v)
    return math.degrees(math.acos(max(-1.0, min(1.0, dot / norms)))) if norms else 180.0


def graspit_contacts(reading):
    """GraspIt's contacts, seen from the object: link, point, normal into the object (GraspIt's
    normals point into their own body, as Clasp's object-side normal does)."""
    return [
        {
            "link": link_of(c["link"]),
            "point": c["object_point"],
            "normal": c["object_normal"],
        }
        for c in reading["contacts"]
    ]


def clasp_contacts(ours):
    return [
        {"link": link_of(c["body"]["name"]), "point": c["point"], "normal": c["normal"]}
        for c in ours["contacts"]
    ]


def match(theirs, ours):
    """Pairs each of GraspIt's contacts with the nearest unpaired one of Clasp's on the same
    link, if within the tolerances; the pairs and what is left on each side."""
    left = list(range(len(ours)))
    pairs, unmatched = [], []
    for g in theirs:
        near = [
            (math.dist(g["point"], ours[k]["point"]), k)
            for k in left
            if ours[k]["link"] == g["link"]
        ]
        best = min(near, default=None)
        if best and best[0] <= POINT_MM and angle(g["normal"], ours[best[1]]["normal"]) <= NORMAL_DEGREES:
            pairs.append((g, ours[best[1]], best[0]))
            left.remove(best[1])
        else:
            unmatched.append(g)
    return pairs, unmatched, [ours[k] for k in left]


def clasp_reading(cli, world, root, threshold, graspit):
    command = [cli, "quality", str(world), "--metric", "volume", "--json"]
    if graspit:
        command.append("--graspit")
    if threshold:
        command += ["--threshold", str(threshold)]
    if root:
        command += ["--graspit-root", root]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip()
    return json.loads(done.stdout), None


def against(reading, ours):
    """Clasp's reading beside one of GraspIt's runs."""
    theirs = graspit_contacts(reading)
    pairs, only_graspit, only_clasp = match(theirs, clasp_contacts(ours))
    graspit_epsilon = reading["epsilon"]
    clasp_epsilon = ours["epsilon"] if ours["force_closure"] else -1.0
    row = dict(
        graspit_contacts=len(theirs),
        clasp_contacts=len(ours["contacts"]),
        matched=len(pairs),
        contacts_match=not only_graspit and not only_clasp,
        largest_offset_mm=max((d for _, _, d in pairs), default=0.0),
        only_graspit=[{"link": c["link"], "point": c["point"]} for c in only_graspit],
        only_clasp=[{"link": c["link"], "point": c["point"]} for c in only_clasp],
        graspit_epsilon=graspit_epsilon,
        clasp_epsilon=clasp_epsilon,
        graspit_volume=reading["volume"],
        clasp_volume=ours["volume"] or 0.0,
    )
    row["epsilon_match"] = abs(graspit_epsilon - clasp_epsilon) <= EPSILON
    row["volume_match"] = abs(row["graspit_volume"] - row["clasp_volume"]) <= VOLUME_SHARE * max(
        abs(row["graspit_volume"]), 1e-12
    )
    return row


def answer(reading):
    """What one GraspIt run said, rounded, to tell runs apart."""
    points = sorted(tuple(round(x, 4) for x in c["object_point"]) for c in reading["contacts"])
    return points, round(reading["epsilon"], 6)


def compare(readings, record, cli, root, threshold, graspit):
    """One world's row, from GraspIt's runs of it: the run Clasp agrees with best, how many
    runs Clasp's contacts match, and whether GraspIt's runs agree among themselves."""
    first = readings[0]
    name = Path(first["file"]).name
    row = {"world": name, "runs": len(readings)}
    if not first.get("loaded") or "contacts" not in first:
        row["skipped"] = "GraspIt read no hand and object"
        return row
    ours, error = clasp_reading(cli, record / "worlds" / name, root, threshold, graspit)
    if ours is None:
        row["skipped"] = f"Clasp: {error}"
        return row
    rows = [against(r, ours) for r in readings]
    best = max(
        rows,
        key=lambda r: (r["contacts_match"], r["epsilon_match"] and r["volume_match"], r["matched"]),
    )
    row.update(best)
    row["first_run_matches"] = rows[0]["contacts_match"]
    row["runs_matched"] = sum(r["contacts_match"] for r in rows)
    row["graspit_repeats"] = len({str(answer(r)) for r in readings}) == 1
    return row


def qhull_readings(record):
    """GraspIt's qhull on Clasp's wrenches of each grasp (parity.sh, qhull_volume.c), by file."""
    path = record / "qhull.jsonl"
    if not path.exists():
        return {}
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {line["file"]: line for line in lines}


def explain_by_qhull(differing, hulls):
    """For the grasps whose contacts match and quality does not: what GraspIt's own hull
    (qhull with GraspIt's options) makes of Clasp's wrenches, beside Clasp's exact hull."""
    failed = [r for r in differing if hulls.get(r["world"], {}).get("failed")]
    graspit_failed = [r for r in failed if r["graspit_volume"] == 0 and r["graspit_epsilon"] == -1]
    print(
        f"Of the {len(differing)} whose contacts match and quality does not, GraspIt's qhull "
        f"fails on Clasp's wrenches in {len(failed)} (GraspIt's own hull failed in "
        f"{len(graspit_failed)} of those); in the others, GraspIt's qhull on Clasp's wrenches:"
    )
    for r in differing:
        hull = hulls.get(r["world"])
        if not hull or hull["failed"]:
            continue
        share = lambda v: (v - r["clasp_volume"]) / r["clasp_volume"] if r["clasp_volume"] else 0.0
        print(
            f"  {r['world']:32} epsilon {hull['epsilon']:8.5f} (GraspIt {r['graspit_epsilon']:8.5f}, "
            f"Clasp {r['clasp_epsilon']:8.5f}); volume {share(hull['volume']):+6.1%} off Clasp's "
            f"exact hull (GraspIt {share(r['graspit_volume']):+6.1%})"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", type=Path)
    parser.add_argument("--graspit-root")
    parser.add_argument("--cli", default="target/release/clasp-cli")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--threshold", type=float, help="Clasp's contact threshold (mm)")
    parser.add_argument(
        "--graspit", action="store_true", help="Clasp's GraspIt-compatible contacts"
    )
    args = parser.parse_args()
    readings = [
        json.loads(line)
        for line in (args.record / "graspit.jsonl").read_text().splitlines()
        if line.strip()
    ]
    by_world = {}
    for reading in readings:
        by_world.setdefault(reading["file"], []).append(reading)
    rows = [
        compare(runs, args.record, args.cli, args.graspit_root, args.threshold, args.graspit)
        for runs in by_world.values()
    ]
    print(f"{'world':34} contacts G/C/matched  epsilon G / C        volume G / C")
    for row in rows:
        if "skipped" in row:
            print(f"{row['world']:34} skipped: {row['skipped']}")
            continue
        mark = lambda ok: "" if ok else " ×"
        print(
            f"{row['world']:34} {row['graspit_contacts']:3} {row['clasp_contacts']:3} "
            f"{row['matched']:3}{mark(row['contacts_match']):2}  "
            f"{row['graspit_epsilon']:8.5f} {row['clasp_epsilon']:8.5f}{mark(row['epsilon_match']):2} "
            f"{row['graspit_volume']:9.6f} {row['clasp_volume']:9.6f}{mark(row['volume_match'])}"
        )
    compared = [r for r in rows if "skipped" not in r]
    same = [r for r in compared if r["contacts_match"]]
    quality = [r for r in same if r["epsilon_match"] and r["volume_match"]]
    first = [r for r in compared if r["first_run_matches"]]
    repeats = [r for r in compared if r["graspit_repeats"]]
    print(
        f"\n{len(compared)} grasps compared: contacts match one of GraspIt's runs in {len(same)} "
        f"(its first run in {len(first)}); of those, epsilon and volume match in {len(quality)}. "
        f"GraspIt gave the same answer in every run for {len(repeats)}."
    )
    hulls = qhull_readings(args.record)
    if hulls:
        explain_by_qhull([r for r in same if r not in quality], hulls)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    sys.exit(main())
