#!/usr/bin/env bash
# r6: gpu_bench's getrf lines with and without cuSOLVER in the same call (3d15eba).
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r6; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
nvidia-smi -L > $x/device.txt
timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 --lu-runs exact --lu-sizes 8192 > $x/lu_exact.txt 2>&1; echo "rc $?"; grep '^#' $x/lu_exact.txt | head -4
timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 --lu-runs exact,cusolver --lu-sizes 8192 > $x/lu_both.txt 2>&1; echo "rc $?"; grep '^#' $x/lu_both.txt | head -4
cd $out && tar czf x.tgz x && rm -rf x
