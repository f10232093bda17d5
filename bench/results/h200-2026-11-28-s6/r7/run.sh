#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r7; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
L="--ncpu 0 --sched default --ncuda 1 --ops lutiled --lu-home device --lu-sizes 16384 --lu-reps 1"
EXSTAR_TRACE=$x/trace_lu.csv timeout 120 $B $L > /dev/null 2> $x/lu_trace.txt
echo "lu trace rc $? $(( $(date +%s)-t0 ))s"; grep -E 'getrf n=16384( nb=1024: the same|: factors)' $x/lu_trace.txt
EXSTAR_CUDA_PANEL_TRACE=1 timeout 120 $B $L > /dev/null 2> $x/lu_panels.txt
echo "lu panels rc $? $(( $(date +%s)-t0 ))s"; grep "panel trace" $x/lu_panels.txt | head -20 | cut -c1-200
cd $out && tar czf x.tgz x && rm -rf x
