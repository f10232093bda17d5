#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r7; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
L="--ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 --lu-sizes 16384,32768"
run() { tag=$1; shift; env "$@" timeout 150 $B $L --lu-runs exact > /dev/null 2> $x/lu_$tag.txt; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E ': the same' $x/lu_$tag.txt | sed 's/.*GPU //' | tr '\n' ' ')"; }
run base X=1
run gate EXSTAR_CUDA_PANEL_GATE=1
run gate_p1 EXSTAR_CUDA_PANEL_GATE=1 STARPU_CUDA_PIPELINE=1
run p1 STARPU_CUDA_PIPELINE=1
run base2 X=1
grep -h fnv1a $x/lu_*.txt | sort | uniq -c
cd $out && tar czf x.tgz x && rm -rf x
