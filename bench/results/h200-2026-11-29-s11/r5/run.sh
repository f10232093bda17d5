#!/usr/bin/env bash
# r5: one H200, exact LU at home: tiles between the powers of two (the default: 1024 at 16384,
# 2048 at 32768), alternating with the default.
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r5; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
lu() { tag=$1; shift; timeout 150 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s $(grep -hiE 'on the GPU|fnv|cusolverDn' $x/lu_$tag.txt | sed 's/, factors bit-identical.*//' | tr '\n' ' ')"; }
lu n16_def --lu-runs exact,cusolver --lu-sizes 16384
lu n16_nb896 --lu-runs exact --lu-sizes 16384 --lu-nbs 896
lu n16_nb1152 --lu-runs exact --lu-sizes 16384 --lu-nbs 1152
lu n16_nb1280 --lu-runs exact --lu-sizes 16384 --lu-nbs 1280
lu n16_def_b --lu-runs exact --lu-sizes 16384
lu n32_nb1536 --lu-runs exact --lu-sizes 32768 --lu-nbs 1536
lu n32_nb1792 --lu-runs exact --lu-sizes 32768 --lu-nbs 1792
lu n32_def --lu-runs exact,cusolver --lu-sizes 32768
cd $out && tar czf x.tgz x && rm -rf x
