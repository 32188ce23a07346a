#!/bin/sh
# Retakes the user guide's pictures of the panels: the app under Xvfb with software Vulkan,
# driven by xdotool as a person would, each picture saved by `--screenshot` just before the
# app exits. The guide's first two pictures (and README's), and handles.png,
# collisions-section.png and approach-arrows.png, come from the real-window test
# (`cargo test -p clasp-app --test real_window`, in target/real-window/).
#
#   sh docs/images/retake.sh [path/to/clasp]     # default: target/debug/clasp
#
# Needs xvfb-run, xdotool and mesa-vulkan-drivers. Positions are for the 1280×800 window.
set -eu
cd "$(dirname "$0")/../.."
clasp=$(realpath "${1:-target/debug/clasp}")
out=docs/images

# shot NAME SECONDS DRIVER [FILE...]: runs the app for SECONDS while DRIVER plays.
shot() {
    name=$1 seconds=$2 driver=$3
    shift 3
    CLASP_FILE_BROWSER=1 WGPU_BACKEND=vulkan timeout 300 \
        xvfb-run -a -s "-screen 0 1280x800x24" sh -c "
        '$clasp' $* --screenshot '$out/$name' --exit-after $seconds & app=\$!
        W=\$(xdotool search --sync --name '^Clasp\$' | head -1); sleep 10; xdotool windowfocus \$W; sleep 1
        $driver
        wait \$app" 2>/dev/null
    echo "$out/$name"
}

# The mug picked in the body list, the hand closed on it (Ctrl+G), the log open: the inspector
# shows the mug's pose, material, group and mask, the contacts table and the grasp's quality.
shot guide-grasp.png 22 "
    xdotool mousemove 42 331; sleep 1; xdotool click 1; sleep 1
    xdotool key ctrl+g; sleep 2
    xdotool mousemove 31 789; sleep 1; xdotool click 1; sleep 1"

# The soft fingertips closed on a ball: each soft contact drawn as its two fitted patches.
shot guide-soft.png 20 "
    xdotool key ctrl+g; sleep 2
    xdotool mousemove 700 330; sleep 1; xdotool click --repeat 2 --delay 300 4; sleep 2" \
    models/worlds/soft_fingertips.xml

# The View menu, open.
shot guide-view-menu.png 18 "
    xdotool mousemove 91 11; sleep 1; xdotool click 1; sleep 2"

# F1: every gesture and shortcut.
shot guide-help.png 18 "
    xdotool key F1; sleep 2"

# Import Object on the toolbar: Clasp's own file browser (no file-dialog portal under Xvfb).
shot guide-browser.png 18 "
    xdotool mousemove 100 34; sleep 1; xdotool click 1; sleep 2"
