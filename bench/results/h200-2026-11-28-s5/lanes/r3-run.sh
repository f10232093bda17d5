#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r3; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
nvidia-smi -L > $x/device.txt
EXSTAR_CUDA_POTRF_THREADS=1 EXSTAR_CUDA_POTRF_TRACE=1 timeout 100 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 1 --potrf-runs home > /dev/null 2> $x/potrf_phases_t1.txt
echo "phases t1 rc $?"; grep "K=1 \|K=8 \|K=14 \|K=15 " $x/potrf_phases_t1.txt | tail -4; grep "^# potrf" $x/potrf_phases_t1.txt | head -2
for t in 1 32; do
  EXSTAR_CUDA_POTRF_THREADS=$t timeout 100 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 3 --potrf-runs home > /dev/null 2> $x/potrf_t$t.txt
  echo "potrf threads $t rc $? $(( $(date +%s)-t0 ))s"; grep -E "^# potrf" $x/potrf_t$t.txt | head -2
done
for t in 1 32; do
  EXSTAR_CUDA_UROW_THREADS=$t timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --lu-sizes 16384 --ncuda 1 --lu-reps 1 > /dev/null 2> $x/lu_t$t.txt
  echo "lu urow threads $t rc $? $(( $(date +%s)-t0 ))s"; grep -E "^# getrf" $x/lu_t$t.txt | grep -v "^#   (" | head -5
done
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && EXSTAR_CUDA_POTRF_THREADS=1 EXSTAR_CUDA_UROW_THREADS=1 timeout 200 ctest -j3 -R "potrf_cuda|potrf_cpu_cuda|cuda_lu_tiled_urow_chunks|lu_tiled_cuda|lu_desc_cuda" --timeout 190 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout| sec$" $x/ctest.log | tail -n 12
cd $out && tar czf x.tgz x && rm -rf x
