#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r2; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
tk() { tag=$1; shift; env EXSTAR_CUDA_PANEL_BLOCKS=44 "$@" timeout 100 $T "[.time]" > $x/time_$tag.txt 2>&1; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^(panel|urow|  beside)' $x/time_$tag.txt | cut -c1-100 | tr '\n' ' ')"; }
for m in 16384 4096; do
  tk m${m}_none EXSTAR_LU_TIME="$m 1024"
  tk m${m}_urow EXSTAR_LU_TIME="$m 1024" EXSTAR_LU_TIME_BESIDE=urow
  tk m${m}_gcrt EXSTAR_LU_TIME="$m 1024" EXSTAR_LU_TIME_BESIDE=gemm EXSTAR_CUDA_GEMM_CRT=1
  tk m${m}_gfp64 EXSTAR_LU_TIME="$m 1024" EXSTAR_LU_TIME_BESIDE=gemm EXSTAR_CUDA_GEMM_CRT=0
done
for gc in 256 512; do
  tk m16384_none_gc$gc EXSTAR_LU_TIME="16384 1024" EXSTAR_CUDA_PANEL_GEMM_COLS=$gc
  tk m16384_gcrt_gc$gc EXSTAR_LU_TIME="16384 1024" EXSTAR_LU_TIME_BESIDE=gemm EXSTAR_CUDA_GEMM_CRT=1 EXSTAR_CUDA_PANEL_GEMM_COLS=$gc
  tk m16384_urow_gc$gc EXSTAR_LU_TIME="16384 1024" EXSTAR_LU_TIME_BESIDE=urow EXSTAR_CUDA_PANEL_GEMM_COLS=$gc
done
lu() { tag=$1; envs=$2; shift 2; env $envs timeout 200 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'exact|cusolver|fnv|fingerprint' $x/lu_$tag.txt | head -6; }
lu base16 X=1 --lu-runs exact,cusolver --lu-sizes 16384
lu gc256 EXSTAR_CUDA_PANEL_GEMM_COLS=256 --lu-runs exact --lu-sizes 16384
lu base16b X=1 --lu-runs exact --lu-sizes 16384
cd $out && tar czf x.tgz x && rm -rf x
