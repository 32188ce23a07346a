#!/usr/bin/env bash
# GraspIt's EigenGrasp planner beside Clasp's, in one run on this machine (docs/benchmarks.md,
# "Issue 20"). GraspIt is built in a chroot (graspit.sh says how, and its settings).
#
#   sudo bash crates/clasp-bench/graspit/compare.sh
set -euo pipefail
source "$(dirname "$0")/graspit.sh"
# Clasp's default search: 10,000 steps from GraspIt's step 30,000; GraspIt runs the same.
steps=10000
objects=mug,flask,glass,phone,book

run_graspit() {
  local files
  files=$(tr , '\n' <<<"$objects" | sed 's|.*|/models/objects/&.xml|' | paste -sd,)
  in_chroot env GRASPIT=/src/graspit LD_LIBRARY_PATH=/src/graspit/build \
    CLASP_HAND=/models/robots/Barrett/Barrett.xml CLASP_OBJECTS="$files" \
    CLASP_STEPS=$((30000 + steps)) CLASP_SECONDS=10 \
    xvfb-run -a /src/graspit/build/graspit_simulator --headless --plugin /src/planner_timing.so \
    2> "$out/graspit.log" | grep '^{' | tee "$out/graspit.jsonl"
}

prepare_graspit
out=$(mktemp -d)
echo "GraspIt's log and figures: $out"
echo "GraspIt ($commit), Barrett, $steps annealing steps a run, one planner thread:"
run_graspit
echo "Clasp, the same hand and objects, right after:"
cd "$repo"
cargo run -q --release -p clasp-bench -- --full --planner-only --library "$models" \
  --graspit "$out/graspit.jsonl"
