#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r6; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
lu() { tag=$1; envs=$2; shift 2; env $envs timeout 250 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'cusolverDn|on the GPU|fnv' $x/lu_$tag.txt | head -6; }
lu nb2048 X=1 --lu-runs exact --lu-sizes 16384 --lu-nbs 2048
lu nb1536 X=1 --lu-runs exact --lu-sizes 16384 --lu-nbs 1536
lu nb1024 X=1 --lu-runs exact --lu-sizes 16384 --lu-nbs 1024
lu nb2048_b66 EXSTAR_CUDA_PANEL_BLOCKS=66 --lu-runs exact --lu-sizes 16384 --lu-nbs 2048
lu n32_nb2048 X=1 --lu-runs exact,cusolver --lu-sizes 32768 --lu-nbs 2048
cd $out && tar czf x.tgz x && rm -rf x
