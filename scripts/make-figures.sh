#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's before/after strip, doc/images/before-after.png: one photo
# of testimages/ (chelsea.png) as it is, equalized (luminance), CLAHE
# (luminance, clip limit 2, 8 x 8 tiles) and binarized (Otsu on
# luminance), side by side with a 6-pixel white gap, made by the CLI on
# the CPU (deterministic) and put together by ImageMagick's convert.
#
#   bash scripts/make-figures.sh [CLI [OUTPUT]]
#
# CLI: the gpu-histogram-cli to run (default build/cli/gpu-histogram-cli;
# it must read PNG: a build with GEGL); OUTPUT: the strip to write
# (default doc/images/before-after.png).  tests/doc_figures.py runs it
# into the build folder and checks the result equals the committed strip.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-$root/build/cli/gpu-histogram-cli}
out=${2:-$root/doc/images/before-after.png}
photo=$root/testimages/chelsea.png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" --backend cpu --threads 1 "$photo" --mode luminance --channel luminance \
  --equalize "$tmp/equalized.png" --clahe "$tmp/clahe.png" --binarize "$tmp/otsu.png" >/dev/null
convert "$photo" "$tmp/equalized.png" "$tmp/clahe.png" "$tmp/otsu.png" \
  -background white -splice 6x0 +append -chop 6x0 -strip "$out"
