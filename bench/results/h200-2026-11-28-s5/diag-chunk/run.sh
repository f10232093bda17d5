#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
t0=$(date +%s)
for c in 1024 128 64 256; do
  EXSTAR_CUDA_POTRF_DIAG_CHUNK=$c timeout 100 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 3 --potrf-runs home --csv $x/potrf_dc$c.csv > /dev/null 2> $x/potrf_dc$c.txt
  echo "potrf diag chunk $c rc $? $(( $(date +%s)-t0 ))s"; grep -E "^# potrf" $x/potrf_dc$c.txt | head -5
done
EXSTAR_TRACE=$x/trace_potrf128.csv timeout 60 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 1 --potrf-runs home > /dev/null 2> $x/potrf_trace.txt
echo "trace rc $?"
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 250 ctest -j4 -R "potrf.*cuda|cuda_lu_tiled|lu_tiled_cuda|lu_desc_cuda" --timeout 240 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout| sec$" $x/ctest.log | tail -n 30
for g in 1 4; do
  nbs=1024; [ $g = 4 ] && nbs=512
  timeout 110 $B --ncpu 0 --sched default --ops lutiled --lu-home device --lu-sizes 16384,32768 --ncuda $g --lu-reps 1 --lu-nbs $nbs --csv $x/lu_g$g.csv > /dev/null 2> $x/lu_g$g.txt
  echo "lu g$g rc $? $(( $(date +%s)-t0 ))s"; grep -E "^# " $x/lu_g$g.txt | grep -iv "^# device" | head -12
done
cd $out && tar czf x.tgz x && rm -rf x
