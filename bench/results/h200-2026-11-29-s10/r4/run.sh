#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r4; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
tk() { tag=$1; shift; env EXSTAR_CUDA_PANEL_BLOCKS=44 "$@" timeout 100 $T "[.time]" > $x/time_$tag.txt 2>&1; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^(panel|  beside|  load)' $x/time_$tag.txt | cut -c1-100 | tr '\n' ' ')"; }
tk none EXSTAR_LU_TIME="16384 1024"
tk copy EXSTAR_LU_TIME="16384 1024" EXSTAR_LU_TIME_BESIDE=copy EXSTAR_LU_TIME_BESIDE_N=200
tk int8 EXSTAR_LU_TIME="16384 1024" EXSTAR_LU_TIME_BESIDE=int8 EXSTAR_LU_TIME_BESIDE_N=80
tk gcrt EXSTAR_LU_TIME="16384 1024" EXSTAR_LU_TIME_BESIDE=gemm EXSTAR_CUDA_GEMM_CRT=1
for l in none copy gcrt; do
  case $l in none) e=X=1;; copy) e="EXSTAR_LU_TIME_BESIDE=copy EXSTAR_LU_TIME_BESIDE_N=400";; gcrt) e="EXSTAR_LU_TIME_BESIDE=gemm EXSTAR_CUDA_GEMM_CRT=1 EXSTAR_LU_TIME_BESIDE_N=40";; esac
  env EXSTAR_CUDA_PANEL_BLOCKS=44 EXSTAR_CUDA_PANEL_TRACE=1 EXSTAR_LU_TIME="16384 1024" $e timeout 100 $T "[.time]" > $x/trace_$l.txt 2>&1
  echo "trace $l rc $?: $(grep -E '^panel trace' $x/trace_$l.txt | tail -1 | cut -c1-220)"
done
cd $out && tar czf x.tgz x && rm -rf x
