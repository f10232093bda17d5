#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r9; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
lu() { tag=$1; envs=$2; shift 2; env $envs timeout 120 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'cusolverDn|on the GPU' $x/lu_$tag.txt | head -6; }
lu b33 EXSTAR_CUDA_PANEL_BLOCKS=33 --lu-runs exact --lu-sizes 32768
lu def X=1 --lu-runs exact --lu-sizes 32768
lu b22 EXSTAR_CUDA_PANEL_BLOCKS=22 --lu-runs exact --lu-sizes 32768
lu gc256 EXSTAR_CUDA_PANEL_GEMM_COLS=256 --lu-runs exact --lu-sizes 32768
cd $out && tar czf x.tgz x && rm -rf x
