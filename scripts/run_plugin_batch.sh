#!/bin/bash
# The main job: the plug-in, run by gimp-console in a private throw-away GIMP
# profile, over every PNG of a folder. Prints the statistics of each image
# (the batch CSV) and writes equalized (per channel) and binarized (Otsu on
# luminance) copies.
#   bash scripts/run_plugin_batch.sh PLUGIN INPUT_DIR OUTPUT_DIR
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 PLUGIN INPUT_DIR OUTPUT_DIR" >&2; exit 2; }
plugin=$(realpath "$1")
src=$(realpath "$2")
dst=$(realpath -m "$3")

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
export HOME=$profile XDG_CONFIG_HOME=$profile/config XDG_CACHE_HOME=$profile/cache
# GIMP sets up a profile only where none exists yet: start it once.
export GIMP2_DIRECTORY=$profile/gimp
timeout 120 gimp-console-2.10 -i -d -f -b '(gimp-quit 0)' > "$profile/first.log" 2>&1
mkdir -p "$GIMP2_DIRECTORY/plug-ins/gpu-histogram"
cp "$plugin" "$GIMP2_DIRECTORY/plug-ins/gpu-histogram/gpu-histogram"

mkdir -p "$dst/equalized" "$dst/binarized"
rm -f "$dst/statistics.csv"
# gimp-console exits 0 even when a command fails: its log says.
timeout 600 gimp-console-2.10 -i -d -f \
  -b "(plug-in-gpu-histogram-batch RUN-NONINTERACTIVE \"$src/*.png\" 1 \"$dst/equalized\" \"$dst/statistics.csv\")" \
  -b "(plug-in-gpu-histogram-batch RUN-NONINTERACTIVE \"$src/*.png\" 3 \"$dst/binarized\" \"$profile/again.csv\")" \
  -b '(gimp-quit 0)' > "$profile/batch.log" 2>&1 || true
if grep -qi "error" "$profile/batch.log" || [ ! -s "$dst/statistics.csv" ]; then
  cat "$profile/batch.log" >&2
  echo "the batch failed" >&2
  exit 1
fi
column -s, -t < "$dst/statistics.csv" 2>/dev/null || cat "$dst/statistics.csv"
if grep -q ',error,' "$dst/statistics.csv" "$profile/again.csv"; then
  echo "some files failed (rows with channel 'error' above)" >&2
  exit 1
fi
echo "equalized copies in $dst/equalized/, binarized copies in $dst/binarized/"
