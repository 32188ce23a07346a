#!/usr/bin/env bash
# GraspIt parity (issue 32): the same grasp, read by GraspIt and by Clasp. Plans grasps of
# GraspIt's mug, flask, glass, phone and book with the Barrett and the Schunk hand
# (`clasp-cli plan --save`, each grasp saved as a GraspIt world), makes random grasps of the
# same (random_grasps.py: a random aim, approach, Auto Grasp; Python's `clasp` package, found
# by $PYTHON, default python3), has GraspIt close the hand
# of each of its own example worlds that hold a hand and an object (Auto Grasp, saved by
# GraspIt), and has GraspIt read every one (parity.cpp: its
# contacts and its quality dialog's epsilon and volume on the L1 wrench space). The worlds and
# GraspIt's answers are recorded in crates/clasp-bench/graspit/parity/, where
# parity.py (and a CI test) set Clasp's reading of the same files beside them. GraspIt is
# built in a chroot (graspit.sh says how, and its settings).
#
#   sudo [PYTHON=...] [RUNS=...] bash crates/clasp-bench/graspit/parity.sh [PLANNED [RANDOM]]
#
# PLANNED and RANDOM: grasps of each object with each hand (default 10 and 5); RUNS: how many
# times GraspIt reads every world (default 6).
set -euo pipefail
source "$(dirname "$0")/graspit.sh"
objects=(mug flask glass phone book)
hands=(Barrett/Barrett.xml Schunk/Schunk.xml)
grasps=${1:-10}
random_grasps=${2:-5}
runs=${RUNS:-6}
python=${PYTHON:-python3}
record=$here/parity

prepare_graspit
out=$(mktemp -d)
echo "GraspIt's log: $out/graspit.log"
rm -rf "$record/worlds"
mkdir -p "$out/root" "$record/worlds"
ln -s "$models" "$out/root/models"
cd "$repo"
cargo build -q --release -p clasp-cli
cli=target/release/clasp-cli
for object in "${objects[@]}"; do
  for hand in "${hands[@]}"; do
    name=$object-$(dirname "$hand")
    cat > "$out/$name.xml" <<WORLD
<world><graspableBody><filename>models/objects/$object.xml</filename></graspableBody>
<robot><filename>models/robots/$hand</filename>
<transform><translation>0 0 1000</translation></transform></robot></world>
WORLD
    "$cli" plan "$out/$name.xml" --graspit-root "$out/root" --grasps "$grasps" \
      --save "$out/saved/$name" > /dev/null
    for ((k = 0; k < grasps; k++)); do
      [[ -f $out/saved/$name/grasp-$k.xml ]] && cp "$out/saved/$name/grasp-$k.xml" "$record/worlds/$name-$k.xml"
    done
    "$python" "$here/random_grasps.py" "$out/$name.xml" "$random_grasps" 32 \
      "$record/worlds/$name-random" --graspit-root "$out/root"
  done
done
# GraspIt's own worlds that hold a hand and an object, each closed by GraspIt's Auto Grasp and
# saved by GraspIt (its grasps, beside Clasp's planned ones).
mkdir -p "$root/parity" "$root/closed" "$out/closed"
mountpoint -q "$root/closed" || mount --bind "$out/closed" "$root/closed"
examples=$(for world in barrettGlassDyn dlr_flask plannerMug plannerP51 robonautFlask \
  robonautPinchGlass cvap; do echo "/src/graspit/worlds/$world.xml"; done | paste -sd,)
in_chroot env GRASPIT=/ LD_LIBRARY_PATH=/src/graspit/build CLASP_WORLDS="$examples" \
  CLASP_CLOSE_INTO=/closed xvfb-run -a /src/graspit/build/graspit_simulator --headless \
  --plugin /src/parity.so 2> "$out/graspit-closing.log" || true
umount "$root/closed"
# GraspIt saves its files' names as it found them (from its root, / in the chroot): made
# relative to the root again, so that any GraspIt root reads them.
for world in "$out"/closed/*.xml; do
  sed 's|>/models/|>models/|g' "$world" > "$record/worlds/graspit-$(basename "$world")"
done
mountpoint -q "$root/parity" || mount --bind -o ro "$record/worlds" "$root/parity"
# GraspIt reads the same file differently from run to run (its collision models are kept in
# the order of their addresses, and its pruning depends on the order it meets contacts in):
# $runs runs, each line marked with its run.
worlds=$(cd "$record/worlds" && ls *.xml | sed 's|^|/parity/|' | paste -sd,)
: > "$record/graspit.jsonl"
for ((run = 1; run <= runs; run++)); do
  in_chroot env GRASPIT=/ LD_LIBRARY_PATH=/src/graspit/build CLASP_WORLDS="$worlds" \
    xvfb-run -a /src/graspit/build/graspit_simulator --headless --plugin /src/parity.so \
    2> "$out/graspit-$run.log" | grep '^{' | sed "s|^{\"file\": \"/parity/|{\"run\": $run, \"file\": \"|" \
    >> "$record/graspit.jsonl"
done
umount "$root/parity"
# GraspIt's hull on Clasp's own wrenches of each grasp (GraspIt-compatible contacts): where
# GraspIt's quality differs from Clasp's exact hull, whether GraspIt's qhull is why.
: > "$record/qhull.jsonl"
for world in "$record"/worlds/*.xml; do
  wrenches=$("$cli" quality "$world" --graspit --graspit-root "$out/root" --json 2> /dev/null |
    python3 -c 'import json, sys
for c in json.load(sys.stdin)["contacts"]:
    for w in c["wrenches"]:
        print(*w)') || continue
  printf '%s\n' "$wrenches" | in_chroot /src/qhull_volume |
    sed "s|^{|{\"file\": \"$(basename "$world")\", |" >> "$record/qhull.jsonl"
done
echo "GraspIt read $(wc -l < "$record/graspit.jsonl") worlds ($runs runs): $record/graspit.jsonl"
echo "Clasp as it is:"
python3 "$here/parity.py" "$record" --graspit-root "$out/root" | tail -1
echo "Clasp with GraspIt's contacts (quality --graspit):"
python3 "$here/parity.py" "$record" --graspit-root "$out/root" --graspit
