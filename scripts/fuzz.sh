#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The fuzzers (tests/fuzz/) for longer than the test suite's 30 s each:
#
#   scripts/fuzz.sh [SECONDS [TARGET...]]    default: 3600 s, every target
#
# in build-fuzz/ (made here where missing: clang, libFuzzer, ASan and
# UBSan, CPU only), as many targets at once as meson runs tests (one per
# core).  Each replays its corpus first; what it finds is left in
# build-fuzz/tests/fuzz/<target>-work/crashes/, with the command that
# keeps it in the corpus as a regression once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3600}
shift || true
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang meson setup build-fuzz -Dfuzz=enabled -Dcuda=disabled -Dgimp2=disabled \
    -Dgimp3=disabled -Dgimp3_env=disabled
fi
GH_FUZZ_SECONDS=$seconds exec meson test -C build-fuzz --suite fuzz -t 0 --print-errorlogs "$@"
