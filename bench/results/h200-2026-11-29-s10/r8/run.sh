#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r8; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
lu() { tag=$1; envs=$2; shift 2; env $envs timeout 250 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'cusolverDn|on the GPU|fnv' $x/lu_$tag.txt | head -6; }
lu def16 X=1 --lu-runs exact,cusolver --lu-sizes 16384
lu def32 X=1 --lu-runs exact,cusolver --lu-sizes 32768
lu n32_nb1024 X=1 --lu-runs exact --lu-sizes 32768 --lu-nbs 1024
lu def32_u256 "EXSTAR_CUDA_UROW_CHUNK=256 EXSTAR_CUDA_UROW_THREADS=64" --lu-runs exact --lu-sizes 32768
lu def16_u256 "EXSTAR_CUDA_UROW_CHUNK=256 EXSTAR_CUDA_UROW_THREADS=64" --lu-runs exact --lu-sizes 16384
po() { tag=$1; shift; timeout 250 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 15 --lu-max-log 15 --potrf-runs home --lu-reps 1 "$@" > $x/po_$tag.txt 2>&1; echo "potrf $tag rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'potrf' $x/po_$tag.txt | grep -v '^potrf,' | head -4; }
po nb2048 --lu-nbs 2048
po nb1024 --lu-nbs 1024
cd $out && tar czf x.tgz x && rm -rf x
