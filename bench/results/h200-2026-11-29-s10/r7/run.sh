#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r7; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
lu() { tag=$1; envs=$2; shift 2; env $envs timeout 250 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'cusolverDn|on the GPU|fnv' $x/lu_$tag.txt | head -6; }
lu n32_nb2048_b66 EXSTAR_CUDA_PANEL_BLOCKS=66 --lu-runs exact --lu-sizes 32768 --lu-nbs 2048
lu n32_nb2048_b88 EXSTAR_CUDA_PANEL_BLOCKS=88 --lu-runs exact --lu-sizes 32768 --lu-nbs 2048
lu n32_nb1536_b44 X=1 --lu-runs exact --lu-sizes 32768 --lu-nbs 1536
lu n32_nb2048_b44 X=1 --lu-runs exact --lu-sizes 32768 --lu-nbs 2048
cd $out && tar czf x.tgz x && rm -rf x
