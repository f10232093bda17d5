#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r9; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 170 ctest -j4 -R "potrf.*cuda|cuda_lu_tiled|lu_tiled_cuda|lu_desc_cuda" --timeout 160 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout| sec$" $x/ctest.log | tail -n 16
timeout 60 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home --lu-reps 3 > /dev/null 2> $x/potrf16k.txt
echo "potrf 16384 rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf16k.txt | head -1 | sed 's/.*GPU //')"
timeout 70 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 15 --lu-max-log 15 --potrf-runs home --lu-reps 1 > /dev/null 2> $x/potrf32k.txt
echo "potrf 32768 rc $? $(( $(date +%s)-t0 ))s"; grep -E '^# potrf' $x/potrf32k.txt | head -2
cd $out && tar czf x.tgz x && rm -rf x
