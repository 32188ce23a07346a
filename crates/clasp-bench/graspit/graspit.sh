# GraspIt built as its README says, on Ubuntu 18.04, in a chroot made with debootstrap: it
# needs Qt 4 with Qt3Support and Coin 3 with SoQt 4, which today's distributions no longer
# ship. Sourced by compare.sh and check_saved_grasps.sh; needs root and, the first time, the
# network (1.5 GB; about 15 minutes on two cores here); later runs reuse the chroot and the
# build.
#
# GRASPIT_CHROOT   where the chroot lives (default /opt/bionic)
# GRASPIT_SOURCE   GraspIt's repository: a URL or a local (bare) clone
# GRASPIT_MODELS   GraspIt's model library (default ../shared/graspit-models)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
root=${GRASPIT_CHROOT:-/opt/bionic}
source=${GRASPIT_SOURCE:-https://github.com/graspit-simulator/graspit}
commit=83a6d4c5e0ccbcda9fa59cea17afbe6f096df785
models=$(realpath "${GRASPIT_MODELS:-$repo/../shared/graspit-models}")

in_chroot() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

make_chroot() {
  [[ -x $root/usr/bin/cmake ]] && return
  apt-get install -y -q debootstrap
  debootstrap --no-check-gpg --variant=minbase bionic "$root" http://archive.ubuntu.com/ubuntu
  printf 'deb http://archive.ubuntu.com/ubuntu bionic%s main universe\n' "" -updates -security \
    > "$root/etc/apt/sources.list"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  in_chroot apt-get update
  # GraspIt's README's list, and Xvfb: GraspIt starts Qt even when headless.
  in_chroot env DEBIAN_FRONTEND=noninteractive apt-get install -y --allow-unauthenticated \
    --no-install-recommends build-essential cmake libqt4-dev libqt4-opengl-dev \
    libqt4-sql-psql libcoin80-dev libsoqt4-dev libblas-dev liblapack-dev libqhull-dev \
    libeigen3-dev xvfb xauth
}

mount_into_chroot() {
  mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
  mountpoint -q "$root/dev" || mount --bind /dev "$root/dev"
  mkdir -p "$root/models"
  # A mount left from an earlier session can outlive the library it showed: mount it again.
  if mountpoint -q "$root/models" && [[ ! -e $root/models/robots ]]; then umount "$root/models"; fi
  mountpoint -q "$root/models" || mount --bind -o ro "$models" "$root/models"
}

fetch_graspit() {
  [[ -f $root/src/graspit/CMakeLists.txt ]] && return
  mkdir -p "$root/src/graspit"
  if [[ -d $source ]]; then
    # A local clone may lack the models' blobs: take everything else.
    git --git-dir="$source" ls-tree --name-only "$commit" | grep -vx models |
      xargs git --git-dir="$source" archive "$commit" | tar -x -C "$root/src/graspit"
  else
    git clone "$source" "$root/src/graspit"
    git -C "$root/src/graspit" checkout "$commit"
  fi
}

build() {
  in_chroot bash -c 'mkdir -p /src/graspit/build && cd /src/graspit/build &&
    { [ -f Makefile ] || cmake -DCMAKE_BUILD_TYPE=Release ..; } &&
    make -j"$(nproc)" graspit_simulator'
  # Our plugins, compiled as GraspIt's library was (its flags, defines and includes).
  local plugin
  for plugin in planner_timing world_check parity; do
    cp "$here/$plugin.cpp" "$here/plugin_environment.h" "$root/src/"
    in_chroot bash -c "cd /src/graspit/build &&
      flags() { sed -n \"s/^\$1 = //p\" CMakeFiles/graspit.dir/flags.make; } &&
      g++ \$(flags CXX_FLAGS) \$(flags CXX_DEFINES) \$(flags CXX_INCLUDES) \
        -I/usr/include/eigen3 -shared -o /src/$plugin.so /src/$plugin.cpp -L. -lgraspit"
  done
  # GraspIt's wrench-space hull on any wrenches (parity.sh), against the qhull GraspIt links.
  cp "$here/qhull_volume.c" "$root/src/"
  in_chroot gcc -O2 -I/usr/include/libqhull -o /src/qhull_volume /src/qhull_volume.c -lqhull -lm
}

# GraspIt built in its chroot, the model library mounted at /models in it.
prepare_graspit() {
  make_chroot
  mount_into_chroot
  fetch_graspit
  build
}
