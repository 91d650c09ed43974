#!/bin/bash
# Quick start on a fresh Debian 12 machine, as root: installs what is
# missing, builds (with CUDA when nvcc is found), and runs the main job on
# testimages/: the GIMP plug-in in gimp-console (a private profile) prints
# the statistics and writes equalized and binarized copies to out/.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(gcc meson ninja-build pkg-config python3-numpy python3-opencv
          python3-skimage gimp libgimp2.0-dev xvfb xauth xdotool imagemagick)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# CUDA 13 lives here on the project's machines; without it the build is
# CPU-only.
if [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
[ -f build/build.ninja ] || meson setup build
ninja -C build

bash scripts/run_plugin_batch.sh build/plugin/gpu-histogram testimages out
