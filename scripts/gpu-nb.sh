#!/usr/bin/env bash
# On a machine of one or several GPUs (the device tool), from the repository root: the tile edge
# of the exact tiled LU and Cholesky at home on G GPUs, GPUs alone, for exstar_default_tile's
# rule (1024 from 32768 columns a GPU, else 512). Each line: gpu_bench's summary for one
# (operation, GPUs, nb); the fingerprints must not depend on nb.
#   scripts/gpu-nb.sh DIR OUT   (DIR: what scripts/gpu-prepare.sh made)
# GPUS (default "1 all"), NBS (default "512 1024"), LU_SIZES (default 16384,32768),
# CHOL_LOGS (default "14 15": n = 2^14 and 2^15).
set -uo pipefail
root=$(pwd)
dir=${1:-.gpu}; out=${2:-gpu-nb}
. "$root/scripts/gpu-env.sh"
B=$dir/build/bench/cuda/gpu_bench
ngpu=$(nvidia-smi -L | wc -l)
nvidia-smi -L > "$out/device.txt"
for g in ${GPUS:-1 all}; do
  [ "$g" = all ] && g=$ngpu
  for nb in ${NBS:-512 1024}; do
    timeout 200 "$B" --ncpu 0 --ncuda "$g" --sched default --ops lutiled --lu-home device --lu-reps 1 \
      --lu-sizes "${LU_SIZES:-16384,32768}" --lu-nbs "$nb" > "$out/lu-g$g-nb$nb.txt" 2>&1
    echo "== LU, $g GPU(s), nb $nb (exit $?)"; grep -E "^# getrf n=[0-9]+ nb=[0-9]+: the same|fnv1a" "$out/lu-g$g-nb$nb.txt"
    for lg in ${CHOL_LOGS:-14 15}; do
      timeout 150 "$B" --ncpu 0 --ncuda "$g" --sched default --ops potrf --lu-min-log "$lg" --lu-max-log "$lg" \
        --lu-reps 3 --lu-nbs "$nb" > /dev/null 2> "$out/potrf-g$g-nb$nb-$lg.txt"
      echo "== Cholesky 2^$lg, $g GPU(s), nb $nb (exit $?)"; grep -E "^# potrf" "$out/potrf-g$g-nb$nb-$lg.txt"
    done
  done
done
