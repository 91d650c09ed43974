#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One libFuzzer target as a test:
#
#   run.sh FUZZER CORPUS WORK [libFuzzer options...]
#
# First every file of CORPUS (tests/fuzz/corpus/<target>/: seeds, and the
# crashes found before, kept as regressions) is run once; then the target
# is fuzzed for GH_FUZZ_SECONDS (default 30; 0: the replay alone) from
# CORPUS and what earlier runs found (WORK/corpus, never the source tree).
# A crash, leak, sanitizer report, failed property or timeout fails the
# test; its input is left in WORK/crashes/ with the command that keeps it
# in CORPUS as a regression (committed with the fix).
set -u
exe=$1 corpus=$2 work=$3
shift 3
name=$(basename "$exe")
seconds=${GH_FUZZ_SECONDS:-30}
mkdir -p "$work/corpus" "$work/crashes"
passed=0 failed=0

# Regression files are named by what they caught: no spaces.
n=$(find "$corpus" -type f | wc -l)
if [ "$n" -gt 0 ] && ! find "$corpus" -type f | sort | xargs "$exe" "$@" >"$work/replay.log" 2>&1; then
  cat "$work/replay.log"
  echo "$name: a corpus file fails (above)"
  failed=$((failed + 1))
else
  echo "$name: $n corpus files replayed"
  passed=$((passed + 1))
fi

if [ "$seconds" -gt 0 ]; then
  rm -f "$work/crashes/"*
  # The target's own options after these, which they may override.
  if "$exe" -timeout=20 -rss_limit_mb=2560 "$@" -max_total_time="$seconds" \
       -print_final_stats=1 -artifact_prefix="$work/crashes/" \
       "$work/corpus" "$corpus" >"$work/fuzz.log" 2>&1; then
    grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units)' "$work/fuzz.log"
    echo "$name: fuzzed $seconds s, nothing found"
    passed=$((passed + 1))
  else
    tail -n 60 "$work/fuzz.log"
    for f in "$work/crashes/"*; do
      [ -f "$f" ] || continue
      echo "$name: found $f; once fixed, keep it as a regression, named after what it caught:"
      echo "  cp '$f' '$corpus/regression-WHAT'"
    done
    failed=$((failed + 1))
  fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
