#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r5; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
P="--ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home"
timeout 60 $B $P --lu-reps 3 > /dev/null 2> $x/potrf_default.txt
echo "potrf default rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_default.txt | head -1 | sed 's/.*GPU //')"
EXSTAR_CUDA_PANEL_PRIORITY=1 timeout 60 $B $P --lu-reps 3 > /dev/null 2> $x/potrf_prio1.txt
echo "potrf priority 1 rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_prio1.txt | head -1 | sed 's/.*GPU //')"
timeout 60 $B $P --lu-nbs 512 --lu-reps 3 > /dev/null 2> $x/potrf_nb512.txt
echo "potrf nb 512 rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_nb512.txt | head -1 | sed 's/.*GPU //')"
EXSTAR_TRACE=$x/trace_potrf.csv timeout 60 $B $P --lu-reps 1 > /dev/null 2> $x/potrf_trace.txt
echo "potrf trace rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_trace.txt | head -1 | sed 's/.*GPU //')"
cd $out && tar czf x.tgz x && rm -rf x
