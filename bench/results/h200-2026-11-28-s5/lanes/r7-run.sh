#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r7; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
c14="--ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home"
run() { local name=$1; shift; env "$@" timeout 120 $B $c14 --lu-reps 3 > /dev/null 2> $x/$name.txt; echo "$name rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/$name.txt | head -1 | sed 's/.*GPU //')"; }
run potrf_default X=1
run potrf_lanes_all EXSTAR_CUDA_SUBST_LANES_MIN=0
EXSTAR_CUDA_SUBST_LANES_MIN=0 EXSTAR_CUDA_POTRF_TRACE=1 timeout 100 $B $c14 --lu-reps 1 > /dev/null 2> $x/potrf_phases.txt
echo "phases rc $?"; grep "K=1 \|K=8 \|K=12 \|K=14 " $x/potrf_phases.txt | tail -4
for t in lanes warp; do
  if [ $t = lanes ]; then e="EXSTAR_CUDA_UROW_THREADS=1 EXSTAR_CUDA_SUBST_LANES_MIN=0"; else e="X=1"; fi
  env $e timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --lu-sizes 16384 --ncuda 1 --lu-reps 1 > /dev/null 2> $x/lu_$t.txt
  echo "lu urow $t rc $? $(( $(date +%s)-t0 ))s"; grep -E "^# getrf" $x/lu_$t.txt | grep "home" | head -1
done
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 150 ctest -j3 -R "potrf_lanes_cuda|potrf_cuda|cuda_lu_tiled_urow_lanes" --timeout 140 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout| sec$" $x/ctest.log | tail -n 6
cd $out && tar czf x.tgz x && rm -rf x
