#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r5; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
D=$root/$dir/build/bench/cuda/cuda_dot_bench
T=$root/$dir/build/tests/kernels_cuda/test_cuda_kernels
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
timeout 60 $T "[nrm2],[dot]" > $x/test_dot.txt 2>&1; echo "test rc $? $(tail -2 $x/test_dot.txt | head -1)"
timeout 60 $D --min-log 24 --max-log 27 --reps 20 > $x/dot_nrm2.csv 2>&1; grep -E "^(nrm2|dot),134217728" $x/dot_nrm2.csv
L="--ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1"
timeout 150 $B $L --lu-sizes 16384 --lu-runs cusolver,exact --lu-nbs 768,1024,1280 > /dev/null 2> $x/lu16.txt
echo "lu16 rc $? $(( $(date +%s)-t0 ))s"; grep -E "cusolverDnDgetrf|: the same|fnv1a" $x/lu16.txt | cut -c1-150
timeout 200 $B $L --lu-sizes 32768 --lu-runs cusolver,exact --lu-nbs 768,1024,1280 > /dev/null 2> $x/lu32.txt
echo "lu32 rc $? $(( $(date +%s)-t0 ))s"; grep -E "cusolverDnDgetrf|: the same|fnv1a" $x/lu32.txt | cut -c1-150
P="--ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home --lu-reps 3"
for nb in 768 1024; do timeout 60 $B $P --lu-nbs $nb > /dev/null 2> $x/potrf_$nb.txt; echo "potrf nb $nb rc $?: $(grep -E '^# potrf' $x/potrf_$nb.txt | head -2 | tr '\n' ' ' | cut -c1-200)"; done
echo "t $(( $(date +%s)-t0 ))s"
cd $out && tar czf x.tgz x && rm -rf x
