#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r6; mkdir -p $out
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
nvidia-smi -L > $out/log.txt
timeout 170 $B --ncpu 0 --sched default --ops lutiled --lu-home host --lu-sizes 16384,32768 --ncuda 1 --lu-reps 1 --csv $out/lu_host.csv 2>&1 >/dev/null | grep -E "^# " | grep -v "summary" >> $out/log.txt
echo "rc $?" >> $out/log.txt
cat $out/log.txt
