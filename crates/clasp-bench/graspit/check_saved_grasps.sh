#!/usr/bin/env bash
# Opens grasps that Clasp planned and saved in GraspIt itself (issue 20: a saved planned
# grasp opens in GraspIt with the hand where it was). For each object, `clasp-cli plan --save`
# writes its best grasps of GraspIt's Barrett as GraspIt worlds; GraspIt opens each
# (world_check.cpp) and says where it put the hand, what interpenetrates and how many contacts
# the hand makes on the object; compare_worlds.py sets that beside what Clasp reads from the
# same file and fails if GraspIt puts any body elsewhere (1e-6 mm, 1e-6 rad), finds any
# pair interpenetrating, or finds the hand not touching the object. GraspIt is built in a
# chroot (graspit.sh says how, and its settings).
#
#   sudo bash crates/clasp-bench/graspit/check_saved_grasps.sh
set -euo pipefail
source "$(dirname "$0")/graspit.sh"
objects=mug,flask,glass,phone,book
grasps=3

prepare_graspit
out=$(mktemp -d)
echo "Worlds, Clasp's and GraspIt's readings: $out"
# GraspIt reads a world's <filename>s under $GRASPIT: the model library is its models/ there.
mkdir -p "$out/root" "$out/saved"
ln -s "$models" "$out/root/models"
cd "$repo"
cargo build -q --release -p clasp-cli
cli=target/release/clasp-cli
worlds=()
for object in ${objects//,/ }; do
  cat > "$out/$object.xml" <<WORLD
<world><graspableBody><filename>models/objects/$object.xml</filename></graspableBody>
<robot><filename>models/robots/Barrett/Barrett.xml</filename>
<transform><translation>0 0 1000</translation></transform></robot></world>
WORLD
  "$cli" plan "$out/$object.xml" --graspit-root "$out/root" --grasps "$grasps" \
    --save "$out/saved/$object" --json > "$out/saved/$object.plan.json"
  for ((k = 0; k < grasps; k++)); do
    world="$object/grasp-$k.xml"
    "$cli" inspect "$out/saved/$world" --graspit-root "$out/root" > "$out/saved/$world.clasp.json"
    worlds+=("/saved/$world")
  done
done
mkdir -p "$root/saved"
mountpoint -q "$root/saved" || mount --bind -o ro "$out/saved" "$root/saved"
in_chroot env GRASPIT=/ LD_LIBRARY_PATH=/src/graspit/build \
  CLASP_WORLDS="$(IFS=,; echo "${worlds[*]}")" \
  xvfb-run -a /src/graspit/build/graspit_simulator --headless --plugin /src/world_check.so \
  2> "$out/graspit.log" | grep '^{' > "$out/graspit.jsonl"
umount "$root/saved"
python3 "$here/compare_worlds.py" "$out/saved" "$out/graspit.jsonl"
