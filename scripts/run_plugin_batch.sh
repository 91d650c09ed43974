#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The main job: the plug-in, run by gimp-console in a private throw-away GIMP
# profile, over every PNG of a folder. Prints the statistics of each image
# (the batch CSV) and writes equalized (per channel) and binarized (Otsu on
# luminance) copies.
#   bash scripts/run_plugin_batch.sh [--host gimp2|gimp3] PLUGIN INPUT_DIR OUTPUT_DIR
# gimp2 (the default): gimp-console-2.10.  gimp3: gimp-console-3, on the
# system if it has one, else inside a root of scripts/gimp3-env.sh (GIMP 3.0's,
# or GIMP 3.2's with GH_GIMP3=3.2; the folders must then be under the
# repository or /tmp, which it sees).
set -euo pipefail
host=gimp2
if [ "${1:-}" = --host ]; then
  host=${2:-}
  shift 2 || true
fi
case $host in gimp2|gimp3) ;; *) echo "unknown host '$host': gimp2 or gimp3" >&2; exit 2 ;; esac
[ $# -eq 3 ] || { echo "usage: $0 [--host gimp2|gimp3] PLUGIN INPUT_DIR OUTPUT_DIR" >&2; exit 2; }
plugin=$(realpath "$1")
src=$(realpath "$2")
dst=$(realpath -m "$3")

# Under /tmp: the GIMP 3 environment sees /tmp at the same path.
profile=$(mktemp -d -p /tmp)
trap 'rm -rf "$profile"' EXIT
export HOME=$profile XDG_CONFIG_HOME=$profile/config XDG_CACHE_HOME=$profile/cache
# GIMP sets up a profile only where none exists yet: start it once.
if [ "$host" = gimp2 ]; then
  export GIMP2_DIRECTORY=$profile/gimp
  gimp=(gimp-console-2.10 -i -d -f)
  quit=(-b '(gimp-quit 0)')
else
  # BABL_LUT=0: babl's LUT set-up costs every GIMP 3 plug-in process ~1 s.
  export GIMP3_DIRECTORY=$profile/gimp BABL_LUT=0
  gimp=(gimp-console-3 -i --batch-interpreter=plug-in-script-fu-eval)
  if ! command -v gimp-console-3 >/dev/null; then
    gimp=(bash "$(dirname "$0")/gimp3-env.sh" run "${gimp[@]}")
  fi
  quit=(--quit)
fi
timeout 120 "${gimp[@]}" -b '(+ 1 1)' "${quit[@]}" > "$profile/first.log" 2>&1
dir=$profile/gimp/plug-ins/gpu-histogram
mkdir -p "$dir"
cp "$plugin" "$dir/gpu-histogram"

batch () {  # pattern operation output-dir stats-csv: the procedure call
  if [ "$host" = gimp2 ]; then
    echo "(plug-in-gpu-histogram-batch RUN-NONINTERACTIVE \"$1\" $2 \"$3\" \"$4\")"
  else
    echo "(plug-in-gpu-histogram-batch #:run-mode RUN-NONINTERACTIVE #:pattern \"$1\"" \
         "#:operation $2 #:output-dir \"$3\" #:stats-csv \"$4\")"
  fi
}

mkdir -p "$dst/equalized" "$dst/binarized"
rm -f "$dst/statistics.csv"
# gimp-console exits 0 even when a command fails: its log says.
timeout 600 "${gimp[@]}" \
  -b "$(batch "$src/*.png" 1 "$dst/equalized" "$dst/statistics.csv")" \
  -b "$(batch "$src/*.png" 3 "$dst/binarized" "$profile/again.csv")" \
  "${quit[@]}" > "$profile/batch.log" 2>&1 || true
# GIMP 3 prints harmless "gimp_flush(): error: Broken pipe" lines: only a
# failed command counts there.
if [ "$host" = gimp2 ]; then failed="error"; else failed="execution error"; fi
if grep -qi "$failed" "$profile/batch.log" || [ ! -s "$dst/statistics.csv" ]; then
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
