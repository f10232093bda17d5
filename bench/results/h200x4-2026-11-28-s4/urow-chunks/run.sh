#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r5; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$SECONDS
nvidia-smi -L | head -1
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
cd $root/build-gpu/exstar
timeout 100 ctest -R "^(cuda_lu_tiled_urow_chunks|potrf_chunks_cuda|lu_tiled_cuda|lu_desc_cuda)$" --timeout 80 --output-on-failure > $x/ctest.log 2>&1; echo "ctest exit $? t=$((SECONDS-t0))"; grep -E "tests passed|Passed|Failed" $x/ctest.log
EXSTAR_CUDA_UROW_CHUNK=128 timeout 60 ctest -R "^(lu_tiled_cuda|lu_desc_cuda)$" --timeout 50 --output-on-failure > $x/ctest128.log 2>&1; echo "ctest chunk 128 exit $? t=$((SECONDS-t0))"; grep -E "tests passed|Failed" $x/ctest128.log
cd $root
b() { # name maxsec args
  local name=$1 lim=$2; shift 2
  if [ $((SECONDS - t0 + lim)) -gt 310 ]; then echo "== $name skipped (time)"; return; fi
  timeout $lim "$B" --ncpu 0 --sched default "$@" > $x/$name.txt 2>&1
  echo "== $name (exit $?, t=$((SECONDS-t0)))"; grep -E "^# getrf n=[0-9]+ nb=[0-9]+: the same|fnv1a" $x/$name.txt | head -4
}
L="--ncuda 1 --ops lutiled --lu-home device --lu-reps 1"
b lu16-off 40 $L --lu-sizes 16384
EXSTAR_CUDA_UROW_CHUNK=128 b lu16-c128 40 $L --lu-sizes 16384
EXSTAR_CUDA_UROW_CHUNK=256 b lu16-c256 40 $L --lu-sizes 16384
EXSTAR_CUDA_UROW_CHUNK=128 b lu32-c128 75 $L --lu-sizes 32768
b lu32-off 75 $L --lu-sizes 32768
tar -C $out -czf $out/x.tgz x && rm -rf $x
