#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r5; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
NCU=/usr/local/cuda/bin/ncu
common="--ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 1 --potrf-runs home"
for t in 1 32; do
  k=subst_lanes_kernel; [ $t = 32 ] && k=subst_kernel
  EXSTAR_CUDA_POTRF_THREADS=$t timeout 200 $NCU -k regex:"$k" --launch-skip 40 --launch-count 1 --section LaunchStats --section Occupancy --section SchedulerStats --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis --section SourceCounters --print-details all $B $common > $x/ncu_t$t.txt 2>&1
  echo "ncu t$t rc $? $(( $(date +%s)-t0 ))s"
  grep -E "Duration|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Issued Ipc|Stall" $x/ncu_t$t.txt | head -30
done
cd $out && tar czf x.tgz x && rm -rf x
