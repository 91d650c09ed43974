#!/bin/bash
# The one command for the lent GPU machine: build for Hopper, run every
# test (GPU ones included), compute-sanitizer on every kernel, then the
# benchmark.  Full logs go to $OUT (or ./device-out); a short summary is
# printed last.
#   bash bench/device-run.sh [megapixels]
set -u
out=${OUT:-device-out}
mp=${1:-64}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
build=build-device
summary=()

{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -1; } > "$out/device.txt" 2>&1
if ! { meson setup --wipe "$build" -Dgpu_archs=90 -Dbuildtype=release \
         || meson setup "$build" -Dgpu_archs=90 -Dbuildtype=release; } > "$out/build.log" 2>&1 \
   || ! ninja -C "$build" >> "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"; exit 1
fi
summary+=("build: ok")

meson test -C "$build" --print-errorlogs > "$out/tests.log" 2>&1
summary+=("meson test: $(grep -E '^(Ok|Fail|Skipped):' "$out/tests.log" | tr -s ' ' | tr '\n' ' ')")
summary+=("test_gpu: $(grep -E 'passed, [0-9]+ failed' "$build/meson-logs/testlog.txt" | head -5 | tr '\n' ' ')")

# The parity tests again with the machine's own python3 (it has cv2), so
# the CLI they drive runs on the GPU.
for t in parity_opencv parity_gimp; do
  python3 "tests/$t.py" "$build/cli/gpu-histogram-cli" > "$out/$t.log" 2>&1
  summary+=("$t on the GPU: exit $? ($(tail -1 "$out/$t.log"))")
done
grep -m1 '^backend' "$out/parity_gimp.log" "$out/parity_opencv.log" >> "$out/device.txt" 2>/dev/null

for tool in memcheck racecheck synccheck initcheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 9 "$build/tests/test_gpu" --quick \
    > "$out/sanitizer-$tool.log" 2>&1
  summary+=("compute-sanitizer $tool: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$tool.log" | tail -1))")
done

python3 - <<'PY'
import cv2
im = cv2.cvtColor(cv2.imread('testimages/astronaut.png'), cv2.COLOR_BGR2RGB)
h, w, _ = im.shape
open('/tmp/astronaut.pam', 'wb').write(
    b'P7\nWIDTH %d\nHEIGHT %d\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n' % (w, h) + im.tobytes())
PY
"$build/bench/gpu-histogram-bench" --megapixels "$mp" --photo /tmp/astronaut.pam \
  > "$out/bench.log" 2>&1
summary+=("benchmark: exit $?")

cat "$out/device.txt"
printf '%s\n' "${summary[@]}"
cat "$out/bench.log"
