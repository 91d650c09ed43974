#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A folder too large for one machine as a Slurm job array: each array task
# runs gpu-histogram-cli on its own contiguous share of a list of files.
#
#   find photos -name '*.jpg' | sort > photos.list
#   sbatch --array=0-99 scripts/slurm-array.sh photos.list --equalize out/%n.jpg
#
# LIST holds one input path a line; the options after it go to every CLI
# call (output names need %n, as with any several inputs).  Task i of n
# (SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN, n = SLURM_ARRAY_TASK_COUNT)
# takes lines [i*N/n, (i+1)*N/n) of the N: the shares differ by at most
# one file, cover the list once, and any array range (--array=5-14) or
# throttle (%8) works.  The share goes to the CLI through xargs, in as
# many calls as the argument limit needs.  GH_CLI names the CLI (default
# gpu-histogram-cli on the PATH); --threads defaults to the CPUs Slurm gave
# the task.  GH_SLURM_DRY_RUN=1 prints the task's files instead of running.
# Exit status: the CLI's (non-zero when any file was refused).
#SBATCH --job-name=gpu-histogram
#SBATCH --cpus-per-task=8
#SBATCH --output=gpu-histogram-%A_%a.log
set -euo pipefail

if [ $# -lt 1 ] || [ ! -r "$1" ]; then
  echo "usage: sbatch --array=0-N $0 LIST [CLI OPTIONS...]" >&2
  exit 2
fi
list=$1
shift
: "${SLURM_ARRAY_TASK_ID:?not inside a Slurm job array (sbatch --array=...)}"
min=${SLURM_ARRAY_TASK_MIN:-0}
count=${SLURM_ARRAY_TASK_COUNT:-1}
i=$((SLURM_ARRAY_TASK_ID - min))
n=$(grep -c '' "$list" || true)
first=$((i * n / count))
end=$(((i + 1) * n / count))
if [ "$i" -lt 0 ] || [ "$i" -ge "$count" ]; then
  echo "task $SLURM_ARRAY_TASK_ID is outside the array's $count tasks from $min" >&2
  exit 2
fi
# (sed would print line first + 1 of an empty range: none is run.)
[ "$end" -gt "$first" ] || exit 0
share () { sed -n "$((first + 1)),${end}p" "$list"; }
if [ "${GH_SLURM_DRY_RUN:-}" = 1 ]; then
  share
  exit 0
fi
threads=()
[ -n "${SLURM_CPUS_PER_TASK:-}" ] && threads=(--threads "$SLURM_CPUS_PER_TASK")
share | xargs -d '\n' "${GH_CLI:-gpu-histogram-cli}" --quiet "${threads[@]}" "$@"
