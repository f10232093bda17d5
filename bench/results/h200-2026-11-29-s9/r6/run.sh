#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r6; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
L="--ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 2"
timeout 150 $B $L --lu-runs exact,cusolver --lu-sizes 16384,32768 > /dev/null 2> $x/lu.txt; echo "lu rc $? $(( $(date +%s)-t0 ))s: $(grep -E ': the same|cusolverDn' $x/lu.txt | sed 's/.*GPU //' | cut -c1-40 | tr '\n' ' ')"
grep -h fnv1a $x/lu.txt
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 330 ctest -j4 -R "cuda|gpu" --timeout 300 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout|Not Run" $x/ctest.log | tail -n 20
cd $out && tar czf x.tgz x && rm -rf x
