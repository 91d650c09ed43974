#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Quick start on a fresh Debian 12 machine, as root: installs what is
# missing, makes the two GIMP 3 environments once (scripts/gimp3-env.sh:
# GIMP 3.0 in a Debian 13 root, GIMP 3.2 in a Debian testing root, reused
# by later runs), builds (with CUDA when nvcc is found; the GIMP 3 plug-in
# inside each root), and runs the main job on testimages/ in every GIMP: the
# plug-in in gimp-console (a private profile) prints the statistics and
# writes equalized and binarized copies to out/gimp2/, out/gimp3/ (3.0) and
# out/gimp32/ (3.2).
# On a system with GIMP 3 of its own (libgimp-3.0-dev, gimp-console-3),
# no environment is made: the same meson build builds both hosts.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(gcc meson ninja-build pkg-config python3-numpy python3-opencv
          python3-skimage gimp libgimp2.0-dev xvfb xauth xdotool imagemagick
          debootstrap parallel rsync openssh-server slurm-wlm munge reuse help2man
          man-db appstream lintian libgexiv2-dev libimage-exiftool-perl
          clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# GIMP 3: the system's, else the environments, each optional (exit 3: it
# cannot be made here, e.g. no archive reachable; then that GIMP is
# skipped, said in one line).
gimp3=(native)
if ! pkg-config --exists gimp-3.0 || ! command -v gimp-console-3 >/dev/null; then
  gimp3=()
  for v in 3.0 3.2; do
    rc=0
    GH_GIMP3=$v bash scripts/gimp3-env.sh setup || rc=$?
    if [ $rc -eq 0 ]; then
      gimp3+=("$v")
    elif [ $rc -eq 3 ]; then
      echo "GIMP $v: skipped (its environment cannot be made here, see the line above)"
    else
      exit $rc
    fi
  done
fi

# CUDA 13 lives here on the project's machines; without it the build is
# CPU-only.
if [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
# Configured again each time: which GIMP 3 environments are there is
# decided when meson configures.
if [ -f build/build.ninja ]; then
  meson setup --reconfigure build >/dev/null
else
  meson setup build
fi
ninja -C build

echo "== GIMP 2.10"
bash scripts/run_plugin_batch.sh --host gimp2 build/plugin/gimp2/gpu-histogram testimages out/gimp2
for v in "${gimp3[@]}"; do
  case $v in
    native) name=gimp3  plugin3=build/plugin/gimp3/gpu-histogram ;;
    3.0)    name=gimp3  plugin3=build/gpu-histogram-gimp3 ;;   # built in the environments
    3.2)    name=gimp32 plugin3=build/gpu-histogram-gimp32 ;;
  esac
  echo "== GIMP ${v/native/3}"
  GH_GIMP3=${v/native/} bash scripts/run_plugin_batch.sh --host gimp3 "$plugin3" testimages "out/$name"
done
