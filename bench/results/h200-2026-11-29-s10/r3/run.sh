#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r3; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
tk() { tag=$1; shift; env EXSTAR_CUDA_PANEL_BLOCKS=44 "$@" timeout 100 $T "[.time]" > $x/time_$tag.txt 2>&1; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^(panel|  beside|  load)' $x/time_$tag.txt | cut -c1-100 | tr '\n' ' ')"; }
tk none EXSTAR_LU_TIME="16384 1024"
for ch in 0 2048 1024 512 256 128; do
  tk gcrt_ch$ch EXSTAR_LU_TIME="16384 1024" EXSTAR_LU_TIME_BESIDE=gemm EXSTAR_CUDA_GEMM_CRT=1 EXSTAR_CUDA_CRT_CHUNK=$ch
done
tk gfp64 EXSTAR_LU_TIME="16384 1024" EXSTAR_LU_TIME_BESIDE=gemm EXSTAR_CUDA_GEMM_CRT=0
cd $out && tar czf x.tgz x && rm -rf x
