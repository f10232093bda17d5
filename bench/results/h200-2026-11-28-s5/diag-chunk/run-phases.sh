#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r2; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
ls /usr/local/cuda*/bin 2>/dev/null | grep -E "ncu|nsys" > $x/tools.txt; which ncu nsys >> $x/tools.txt 2>&1
EXSTAR_CUDA_POTRF_TRACE=1 timeout 100 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 1 --potrf-runs home > /dev/null 2> $x/potrf_phases.txt
echo "phases rc $?"; grep "K=1 \|K=8 \|K=14 \|K=15 " $x/potrf_phases.txt | tail -4
EXSTAR_CUDA_POTRF_TRACE=1 EXSTAR_CUDA_POTRF_DIAG_CHUNK=1024 timeout 100 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 1 --potrf-runs home > /dev/null 2> $x/potrf_phases_dc1024.txt
echo "phases dc1024 rc $?"; grep "K=1 \|K=15 " $x/potrf_phases_dc1024.txt | tail -2
EXSTAR_TRACE=$x/trace_lu16k.csv timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --lu-sizes 16384 --ncuda 1 --lu-reps 1 > /dev/null 2> $x/lu_trace.txt
echo "lu trace rc $?"
cd $out && tar czf x.tgz x && rm -rf x
