#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The one command for the GPU machine: build for Hopper, run every
# test (GPU ones included) under each shared-memory cap, compute-sanitizer
# on every kernel under each cap, then the benchmark and CLAHE's beside
# OpenCV's.  Full logs go to
# $OUT (or ./device-out); a short summary is printed last.
#   bash bench/device-run.sh [megapixels]
# STAGES="tests sanitizers bench" (the default) picks the parts to run,
# STAGES=clahe: CLAHE's benchmark at 12 and 48 MP and its kernels (ncu);
# STAGES=photos: JPEG folders through nvJPEG (its tests, compute-sanitizer,
# bench/photo_folder_gpu.py with photo-stages; PHOTOS=N photos, CPU_CLI=the
# CPU path's CLI, PHOTO_SKIP=mogrify,clahe,equalize-cpu,... runs left out,
# PHOTO_TOOLS="memcheck racecheck" the sanitizers on its device part);
# STAGES=counts: each count mode's chosen kernel once an input at 64 MP
# under ncu (bench --profile-counts), every metric of its sections as CSV;
# STAGES=tables: BENCHMARKS.md's GPU-host and 16-core tables regenerated
# (bench/tables.py run gpu, run cpu16; the benchmark alone on the device);
# CAPS="0 163 99 64" the caps and TOOLS="memcheck racecheck synccheck
# initcheck" the sanitizers, so a run can be split over calls of the
# device's time limit (racecheck under none and 163 KB takes ~300 s alone;
# all 17 sanitizer runs at once pass the stage's 450 s).
# Caps (KB of shared memory a block may use; 0: the device's own): the
# limits of the A100 (163), consumer Ampere / Ada / Blackwell (99) and
# Turing (64), so one H100 runs what each of them launches.  The tests
# and sanitizer runs share the GPU in parallel (their results do not
# depend on timing); the benchmark runs alone.
set -u
out=${OUT:-device-out}
mp=${1:-64}
caps=${CAPS:-0 163 99 64}
tools=${TOOLS:-memcheck racecheck synccheck initcheck}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
build=build-device
summary=()
t0=$SECONDS
want () { [[ " ${STAGES:-tests sanitizers bench} " == *" $1 "* ]]; }

{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -1; } > "$out/device.txt" 2>&1
# A configured build directory (a warm machine's, from an earlier call) is
# only brought up to date: a split run does not pay the build each call.
if ! { [ -f "$build/build.ninja" ] \
         || meson setup "$build" -Dgpu_archs=90 -Dbuildtype=release; } > "$out/build.log" 2>&1 \
   || ! ninja -C "$build" >> "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"; exit 1
fi
summary+=("build: ok ($((SECONDS - t0)) s)")

if want tests; then
# Tests: the CPU suites through meson, test_gpu once per cap, the parity
# tests with the machine's own python3 (it has cv2) so the CLI they drive
# runs on the GPU; all at once.
t1=$SECONDS
meson test -C "$build" --print-errorlogs --no-suite gpu > "$out/tests.log" 2>&1 &
pids=($!)
for c in $caps; do
  timeout 500 "$build/tests/test_gpu" --cap "$c" > "$out/test_gpu-$c.log" 2>&1 &
  pids+=($!)
done
timeout 500 "$build/tests/test_beyond_gpu" > "$out/test_beyond_gpu.log" 2>&1 &
pids+=($!)
# The parity tests once per cap, through a wrapper that gives the CLI the
# cap and keeps every backend line it prints, so the summary can assert
# that CUDA counted (a fallback would pass the parity checks on the CPU).
for c in $caps; do
  printf '%s\n' '#!/bin/bash' \
    "o=\$('$PWD/$build/cli/gpu-histogram-cli' --smem-cap $c \"\$@\"); rc=\$?" \
    "printf '%s\\n' \"\$o\"; grep '^backend: ' <<< \"\$o\" >> '$out/backends-$c.txt'; exit \$rc" \
    > "$out/cli-$c"
  chmod +x "$out/cli-$c"
  : > "$out/backends-$c.txt"
  for t in parity_opencv parity_gimp parity_beyond; do
    # CUDA forced: under AUTO the CLI keeps these small images on the CPU.
    GPU_HISTOGRAM_BACKEND=cuda python3 "tests/$t.py" "$out/cli-$c" > "$out/$t-$c.log" 2>&1 &
    pids+=($!)
  done
done
rcs=()
for p in "${pids[@]}"; do wait "$p"; rcs+=($?); done
summary+=("meson test (not gpu): exit ${rcs[0]}: $(grep -E '^(Ok|Fail|Skipped):' "$out/tests.log" | tr -s ' ' | tr '\n' ' ')")
i=1
for c in $caps; do
  summary+=("test_gpu --cap $c: exit ${rcs[$i]}: $(tail -1 "$out/test_gpu-$c.log")")
  i=$((i + 1))
done
summary+=("test_beyond_gpu (CLAHE, GPU = CPU): exit ${rcs[$i]}: $(tail -1 "$out/test_beyond_gpu.log")")
i=$((i + 1))
for c in $caps; do
  for t in parity_opencv parity_gimp parity_beyond; do
    summary+=("$t on the GPU, cap $c: exit ${rcs[$i]} ($(tail -1 "$out/$t-$c.log"))")
    i=$((i + 1))
  done
  # Only check_backend's AUTO run on a small image may count on the CPU.
  b="$out/backends-$c.txt"
  n_cuda=$(grep -c '^backend: cuda' "$b"); n_fell=$(grep -c 'GPU failed' "$b")
  verdict=ok; { [ "$n_cuda" -gt 0 ] && [ "$n_fell" = 0 ]; } || verdict=FAIL
  summary+=("cap $c, parity CLI runs: $verdict: counted on CUDA $n_cuda, fell back $n_fell, on the CPU under AUTO $(grep -v -c -e '^backend: cuda' -e 'GPU failed' "$b")")
done
summary+=("tests took $((SECONDS - t1)) s")
sort "$out"/backends-*.txt | uniq -c | sort -rn | head -5 >> "$out/device.txt"

fi

if want sanitizers; then
# Every compute-sanitizer tool under every cap, in parallel.
t1=$SECONDS
pids=()
for tool in $tools; do
  for c in $caps; do
    timeout 450 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$build/tests/test_gpu" --quick --cap "$c" > "$out/sanitizer-$tool-$c.log" 2>&1 &
    pids+=($!)
  done
done
timeout 450 compute-sanitizer --tool memcheck --error-exitcode 9 \
  "$build/tests/test_beyond_gpu" --quick > "$out/sanitizer-memcheck-clahe.log" 2>&1 &
pids+=($!)
timeout 450 compute-sanitizer --tool racecheck --error-exitcode 9 \
  "$build/tests/test_beyond_gpu" --quick > "$out/sanitizer-racecheck-clahe.log" 2>&1 &
pids+=($!)
rcs=()
for p in "${pids[@]}"; do wait "$p"; rcs+=($?); done
i=0
for tool in $tools; do
  line="compute-sanitizer $tool:"
  for c in $caps; do
    line+=" cap $c exit ${rcs[$i]} ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$tool-$c.log" | tail -1); $(tail -1 "$out/sanitizer-$tool-$c.log" | grep -o '[0-9]* passed, [0-9]* failed'));"
    i=$((i + 1))
  done
  summary+=("$line")
done
summary+=("compute-sanitizer memcheck test_beyond_gpu --quick: exit ${rcs[$i]} ($(grep 'ERROR SUMMARY' "$out/sanitizer-memcheck-clahe.log" | tail -1); $(tail -1 "$out/sanitizer-memcheck-clahe.log"))")
i=$((i + 1))
summary+=("compute-sanitizer racecheck test_beyond_gpu --quick: exit ${rcs[$i]} ($(grep 'RACECHECK SUMMARY' "$out/sanitizer-racecheck-clahe.log" | tail -1); $(tail -1 "$out/sanitizer-racecheck-clahe.log"))")
summary+=("sanitizers took $((SECONDS - t1)) s")
fi
# Few files in $OUT: the device hands back only so many.
kept=$(cd "$out" && ls *.log cli-* backends-*.txt 2>/dev/null)
[ -n "$kept" ] && tar czf "$out/logs.tgz" -C "$out" $kept && (cd "$out" && rm -f $kept)

# The benchmark's photo input.
astronaut_pam () {
python3 - <<'PY'
import cv2
im = cv2.cvtColor(cv2.imread('testimages/astronaut.png'), cv2.COLOR_BGR2RGB)
h, w, _ = im.shape
open('/tmp/astronaut.pam', 'wb').write(
    b'P7\nWIDTH %d\nHEIGHT %d\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n' % (w, h) + im.tobytes())
PY
}

if want bench; then
astronaut_pam
t1=$SECONDS
"$build/bench/gpu-histogram-bench" --megapixels "$mp" --photo /tmp/astronaut.pam \
  > "$out/bench.log" 2>&1
summary+=("benchmark: exit $? ($((SECONDS - t1)) s)")
t1=$SECONDS
python3 bench/clahe_vs_opencv.py "$build/bench/gpu-histogram-bench" testimages/astronaut.png \
  > "$out/bench-clahe.log" 2>&1
summary+=("CLAHE benchmark: exit $? ($((SECONDS - t1)) s)")

fi

# CLAHE alone (STAGES=clahe): beside OpenCV at 12 and 48 MP on 1 and all
# threads, then the GPU's kernels in a whole call at 12 MP.
if want clahe; then
t1=$SECONDS
python3 bench/clahe_vs_opencv.py "$build/bench/gpu-histogram-bench" testimages/astronaut.png 5 \
  --threads 1,0 --rounds 3 --sizes 4000x3000,8000x6000 > "$out/bench-clahe.log" 2>&1
summary+=("CLAHE beside OpenCV: exit $? ($((SECONDS - t1)) s)")
python3 - <<'PY'
import cv2
rgb = cv2.resize(cv2.imread('testimages/astronaut.png')[..., ::-1], (4000, 3000),
                 interpolation=cv2.INTER_CUBIC).copy()
gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
open('/tmp/clahe-gray.pgm', 'wb').write(b'P5\n4000 3000\n255\n' + gray.tobytes())
open('/tmp/clahe-rgb.ppm', 'wb').write(b'P6\n4000 3000\n255\n' + rgb.tobytes())
PY
# The kernels of one whole call (ncu; the machine has no nsys): time and
# DRAM bytes of each launch, in CSV.
for f in gray.pgm rgb.ppm; do
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes.sum --csv \
    "$build/bench/gpu-histogram-bench" --repeat 1 --clahe-whole --clahe "/tmp/clahe-$f" \
    > "$out/ncu-clahe-${f%.*}.csv" 2>&1
done
summary+=("CLAHE kernels (ncu): $(grep -c gpu__time_duration "$out"/ncu-clahe-*.csv | tr '\n' ' ')")
fi
# JPEG folders on the GPU (STAGES=photos): the photo path's test (the
# device's counts and equalize against the CPU's on the same pixels,
# nvJPEG's decoding against libjpeg's, the CLI's --decoder gpu), its device
# part under compute-sanitizer, then bench/photo_folder_gpu.py on PHOTOS
# 12 MP JPEGs (default 1000) against the CPU path of CPU_CLI (default
# /tmp/b/gpu-histogram-cli: bench/host_bundle.sh's bundle unpacked in
# /tmp/b, as this host has no GEGL, libjpeg or ImageMagick; its mogrify too).
if want photos; then
t1=$SECONDS
cli=$build/cli/gpu-histogram-cli
tp=$build/tests/test_photo_gpu
[ -x "$tp" ] || { tp=-; summary+=("photos: built without nvJPEG"); }
python3 tests/photo_gpu.py "$cli" "$tp" > "$out/photo_gpu.log" 2>&1
summary+=("photo_gpu: exit $? ($(tail -1 "$out/photo_gpu.log"))")
for tool in ${PHOTO_TOOLS:-memcheck racecheck}; do
  GH_PHOTO_WRAP="compute-sanitizer --tool $tool --error-exitcode 9" timeout 150 \
    python3 tests/photo_gpu.py "$cli" "$tp" > "$out/photo_gpu-$tool.log" 2>&1
  summary+=("photo_gpu's device part, compute-sanitizer $tool: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/photo_gpu-$tool.log" | tail -1); $(tail -1 "$out/photo_gpu-$tool.log"))")
done
summary+=("photo tests took $((SECONDS - t1)) s")
cpu_cli=${CPU_CLI:-/tmp/b/gpu-histogram-cli}
mog=(); [ -x "$(dirname "$cpu_cli")/mogrify" ] && mog=(--mogrify "$(dirname "$cpu_cli")/mogrify")
t1=$SECONDS
tests=(); [ "$tp" != - ] && tests=(--test "$tp" --stages "$build/bench/photo-stages")
python3 bench/photo_folder_gpu.py "$cli" "$cpu_cli" --count "${PHOTOS:-1000}" "${mog[@]}" "${tests[@]}" --skip "${PHOTO_SKIP:-}" \
  > "$out/photo-bench.log" 2>&1
summary+=("photo benchmark: exit $? ($((SECONDS - t1)) s)")
fi
# The count kernels' profiles (STAGES=counts): GIMP's six channels, GIMP
# 3's luminance, weighted and alpha, each on every input (the order of
# the "profiled:" lines), clocks as found.
if want counts; then
astronaut_pam
t1=$SECONDS
timeout 300 ncu --clock-control none --profile-from-start off \
  --section SpeedOfLight --section Occupancy --section WarpStateStats \
  --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis \
  --section LaunchStats --csv --page raw \
  "$build/bench/gpu-histogram-bench" --profile-counts --megapixels 64 --photo /tmp/astronaut.pam \
  > "$out/ncu-counts.csv" 2> "$out/ncu-counts.err"
summary+=("count kernels (ncu): exit $? ($((SECONDS - t1)) s), $(grep -c 'gh_kernel_' "$out/ncu-counts.csv") kernels profiled")
fi
# BENCHMARKS.md's tables (STAGES=tables): each row's command, today's figures.
if want tables; then
t1=$SECONDS
python3 bench/tables.py run gpu --build "$build" > "$out/tables.md" 2> "$out/tables-run.txt"
summary+=("tables gpu: exit $? ($((SECONDS - t1)) s)")
t1=$SECONDS
python3 bench/tables.py run cpu16 --build "$build" >> "$out/tables.md" 2>> "$out/tables-run.txt"
summary+=("tables cpu16: exit $? ($((SECONDS - t1)) s)")
fi
cat "$out/device.txt"
printf '%s\n' "${summary[@]}"
if want bench; then cat "$out/bench.log" "$out/bench-clahe.log"; fi
if want clahe && ! want bench; then cat "$out/bench-clahe.log"; fi
if want tables; then cat "$out/tables.md"; fi
if want photos; then tail -25 "$out/photo_gpu.log"; cat "$out/photo-bench.log"; fi
