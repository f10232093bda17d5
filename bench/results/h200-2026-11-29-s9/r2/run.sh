#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r2; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
L="--ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 --lu-runs exact"
EXSTAR_TRACE=$x/tr32.csv timeout 120 $B $L --lu-sizes 32768 > /dev/null 2> $x/lu32_trace.txt
echo "tr32 rc $? $(( $(date +%s)-t0 ))s $(grep ': the same' $x/lu32_trace.txt | sed 's/.*GPU //' | cut -c1-30)"
EXSTAR_TRACE=$x/tr16.csv timeout 100 $B $L --lu-sizes 16384 > /dev/null 2> $x/lu16_trace.txt
echo "tr16 rc $? $(( $(date +%s)-t0 ))s $(grep ': the same' $x/lu16_trace.txt | sed 's/.*GPU //' | cut -c1-30)"
run() { tag=$1; envs=$2; env $envs timeout 100 $B $L --lu-sizes 16384 > /dev/null 2> $x/lu_$tag.txt; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E ': the same' $x/lu_$tag.txt | sed 's/.*GPU //' | cut -c1-30)"; }
run base X=1
run chunk64 EXSTAR_CUDA_UROW_CHUNK=64
run chunk256 EXSTAR_CUDA_UROW_CHUNK=256
run noprio EXSTAR_CUDA_PRIORITY_STREAMS=0
run w3 STARPU_NWORKER_PER_CUDA=3
run w5 STARPU_NWORKER_PER_CUDA=5
run base2 X=1
grep -h fnv1a $x/lu*.txt | sort | uniq -c
xz -T0 $x/tr16.csv $x/tr32.csv
cd $out && tar czf x.tgz x && rm -rf x
