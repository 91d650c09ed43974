#!/bin/bash
# Quick start on a fresh Debian 12 machine, as root: installs what is
# missing, makes the GIMP 3 environment once (scripts/gimp3-env.sh: a
# Debian 13 root, reused by later runs), builds (with CUDA when nvcc is
# found; the GIMP 3 plug-in inside that root), and runs the main job on
# testimages/ in both GIMPs: the plug-in in gimp-console (a private
# profile) prints the statistics and writes equalized and binarized copies
# to out/gimp2/ and out/gimp3/.
# On a system with GIMP 3 of its own (libgimp-3.0-dev, gimp-console-3.0),
# no environment is made: the same meson build builds both hosts.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(gcc meson ninja-build pkg-config python3-numpy python3-opencv
          python3-skimage gimp libgimp2.0-dev xvfb xauth xdotool imagemagick
          debootstrap)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# GIMP 3: the system's, else the environment (exit 3: it cannot be made
# here, e.g. no archive reachable; then GIMP 3 is skipped, said in one line).
gimp3=yes
if ! pkg-config --exists gimp-3.0 || ! command -v gimp-console-3.0 >/dev/null; then
  rc=0
  bash scripts/gimp3-env.sh setup || rc=$?
  if [ $rc -eq 3 ]; then
    gimp3=no
    echo "GIMP 3: skipped (its environment cannot be made here, see the line above)"
  elif [ $rc -ne 0 ]; then
    exit $rc
  fi
fi

# CUDA 13 lives here on the project's machines; without it the build is
# CPU-only.
if [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
# Configured again each time: whether the GIMP 3 environment is there is
# decided when meson configures.
if [ -f build/build.ninja ]; then
  meson setup --reconfigure build >/dev/null
else
  meson setup build
fi
ninja -C build

echo "== GIMP 2.10"
bash scripts/run_plugin_batch.sh --host gimp2 build/plugin/gimp2/gpu-histogram testimages out/gimp2
if [ $gimp3 = yes ]; then
  echo "== GIMP 3"
  plugin3=build/plugin/gimp3/gpu-histogram           # GIMP 3 on the system
  [ -x "$plugin3" ] || plugin3=build/gpu-histogram-gimp3  # built in the environment
  bash scripts/run_plugin_batch.sh --host gimp3 "$plugin3" testimages out/gimp3
fi
