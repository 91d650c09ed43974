#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole-call benchmark on the GPU machine: builds the CLI
# in bench/device-run.sh's build folder and runs bench/whole_call.py on it
# (about a minute after the build).  Output: the table and the batch's
# --timings lines; also in $OUT/whole_call.log when OUT is set.
#   bash bench/whole_call.sh [--quick]
set -eu
build=build-device
export PATH=/usr/local/cuda/bin:$PATH
{ meson setup "$build" -Dgpu_archs=90 -Dbuildtype=release >/dev/null 2>&1 \
    || meson setup --reconfigure "$build" -Dgpu_archs=90 -Dbuildtype=release >/dev/null; } \
  && ninja -C "$build" cli/gpu-histogram-cli >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
echo "host: $(nproc) cores, $(date -u +%F)"
python3 bench/whole_call.py "$build/cli/gpu-histogram-cli" "$@" | tee "${OUT:-/tmp}/whole_call.log"
