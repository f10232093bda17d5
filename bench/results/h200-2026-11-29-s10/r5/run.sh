#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r5; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
tk() { tag=$1; shift; env EXSTAR_CUDA_PANEL_BLOCKS=44 "$@" timeout 100 $T "[.time]" > $x/time_$tag.txt 2>&1; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^(urow|  beside|  load)' $x/time_$tag.txt | cut -c1-100 | tr '\n' ' ')"; }
for ch in 64 128 256; do for th in 32 64 128; do
  tk urow_c${ch}_t$th EXSTAR_LU_TIME="4096 1024" EXSTAR_CUDA_UROW_CHUNK=$ch EXSTAR_CUDA_UROW_THREADS=$th
done; done
lu() { tag=$1; envs=$2; shift 2; env $envs timeout 250 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'cusolverDn|on the GPU|fnv' $x/lu_$tag.txt | head -6; }
lu nb1024 X=1 --lu-runs exact,cusolver --lu-sizes 16384 --lu-nbs 1024
lu nb512 X=1 --lu-runs exact --lu-sizes 16384 --lu-nbs 512
lu nb768 X=1 --lu-runs exact --lu-sizes 16384 --lu-nbs 768
lu c64 EXSTAR_CUDA_UROW_CHUNK=64 --lu-runs exact --lu-sizes 16384 --lu-nbs 1024
cd $out && tar czf x.tgz x && rm -rf x
