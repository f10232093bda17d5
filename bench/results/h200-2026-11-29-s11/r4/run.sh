#!/usr/bin/env bash
# r4: one H200, exact LU at home, n = 16384: StarPU's workers a GPU (exstar's default 4) and its
# CUDA pipeline (StarPU's default 2 on one GPU), alternating with the default.
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r4; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
lu() { tag=$1; envs=$2; shift 2; env $envs timeout 150 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s $(grep -hiE 'on the GPU|fnv' $x/lu_$tag.txt | sed 's/, factors bit-identical.*//; s/# getrf n=16384//' | tr '\n' ' ')"; }
lu def_a X=1 --lu-runs exact,cusolver --lu-sizes 16384
lu w3 STARPU_NWORKER_PER_CUDA=3 --lu-runs exact --lu-sizes 16384
lu w6 STARPU_NWORKER_PER_CUDA=6 --lu-runs exact --lu-sizes 16384
lu w8 STARPU_NWORKER_PER_CUDA=8 --lu-runs exact --lu-sizes 16384
lu def_b X=1 --lu-runs exact --lu-sizes 16384
lu p1 STARPU_CUDA_PIPELINE=1 --lu-runs exact --lu-sizes 16384
lu p4 STARPU_CUDA_PIPELINE=4 --lu-runs exact --lu-sizes 16384
lu w6p1 "STARPU_NWORKER_PER_CUDA=6 STARPU_CUDA_PIPELINE=1" --lu-runs exact --lu-sizes 16384
lu def_c X=1 --lu-runs exact --lu-sizes 16384
cd $out && tar czf x.tgz x && rm -rf x
