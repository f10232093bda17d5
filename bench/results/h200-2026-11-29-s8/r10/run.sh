#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r10; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
L="--ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 2 --lu-runs exact --lu-sizes 16384"
run() { tag=$1; shift; env "$@" timeout 60 $B $L > /dev/null 2> $x/lu_$tag.txt; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E ': the same' $x/lu_$tag.txt | sed 's/.*GPU //' | cut -c1-10)"; }
run base X=1
run blocks44 EXSTAR_CUDA_PANEL_BLOCKS=44
run blocks99 EXSTAR_CUDA_PANEL_BLOCKS=99
run blocks132 EXSTAR_CUDA_PANEL_BLOCKS=132
run left32 EXSTAR_CUDA_PANEL_LEFT=32
run left48 EXSTAR_CUDA_PANEL_LEFT=48
run left32g64 EXSTAR_CUDA_PANEL_LEFT=32 EXSTAR_CUDA_PANEL_GEMM_COLS=64
run g256 EXSTAR_CUDA_PANEL_GEMM_COLS=256
run base2 X=1
grep -h fnv1a $x/lu_*.txt | sort | uniq -c
cd $out && tar czf x.tgz x && rm -rf x
