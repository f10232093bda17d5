#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r6; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
nvidia-smi -L > $x/device.txt
c14="--ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home"
run() { local name=$1; shift; env "$@" timeout 120 $B $c14 --lu-reps 3 > /dev/null 2> $x/$name.txt; echo "$name rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/$name.txt | head -1 | sed 's/.*GPU //')"; }
run potrf_default X=1
run potrf_t32 EXSTAR_CUDA_POTRF_THREADS=32
run potrf_lanes_c64 EXSTAR_CUDA_SUBST_LANES_MIN=4224 EXSTAR_CUDA_POTRF_CHUNK=64
run potrf_lanesmin2k EXSTAR_CUDA_SUBST_LANES_MIN=2048
EXSTAR_CUDA_POTRF_TRACE=1 timeout 100 $B $c14 --lu-reps 1 > /dev/null 2> $x/potrf_phases.txt
echo "phases rc $?"; grep "K=1 \|K=8 \|K=12 \|K=14 " $x/potrf_phases.txt | tail -4
timeout 150 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 15 --lu-max-log 15 --potrf-runs home --lu-reps 1 > /dev/null 2> $x/potrf32k.txt
echo "potrf 32768 rc $? $(( $(date +%s)-t0 ))s"; grep -E '^# potrf' $x/potrf32k.txt | head -2
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 200 ctest -j3 -R "potrf.*cuda|cuda_lu_tiled_urow" --timeout 190 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout| sec$" $x/ctest.log | tail -n 14
cd $out && tar czf x.tgz x && rm -rf x
