#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r4; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$SECONDS
nvidia-smi -L | head -1
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 170 ctest -R "^(potrf_cuda|potrf_cpu_cuda|potrf_tiles_cuda|cuda_lu_tiled|lu_tiled_cuda)$" --timeout 120 --output-on-failure > $x/ctest.log 2>&1; echo "ctest exit $?"; grep -E "tests passed|Passed|Failed" $x/ctest.log)
for th in 64 128; do (cd $root/build-gpu/exstar/tests/lu && EXSTAR_TEST_BACKENDS=cuda EXSTAR_CUDA_POTRF_THREADS=$th EXSTAR_CUDA_POTRF_CHUNK=48 timeout 60 ./test_potrf > $x/t$th.log 2>&1; echo "threads $th chunk 48 exit $?"; tail -1 $x/t$th.log); done
b() { # name maxsec args
  local name=$1 lim=$2; shift 2
  if [ $((SECONDS - t0 + lim)) -gt 570 ]; then echo "== $name skipped (time)"; return; fi
  timeout $lim "$B" --ncpu 0 --sched default "$@" > /dev/null 2> $x/$name.txt
  echo "== $name (exit $?, t=$((SECONDS-t0)))"; grep -E "^# potrf n=[0-9]+: exstar_dpotrf_desc" $x/$name.txt | head -3
}
P="--potrf-runs home --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 3"
for th in 32 64 128; do for ch in 128 256; do
  EXSTAR_CUDA_POTRF_THREADS=$th EXSTAR_CUDA_POTRF_CHUNK=$ch b nb1024-t$th-c$ch 45 $P --lu-nbs 1024
done; done
b nb512-t32-c128 45 $P --lu-nbs 512
EXSTAR_CUDA_POTRF_CHUNK=256 b nb512-t32-c256 45 $P --lu-nbs 512
EXSTAR_CUDA_POTRF_CHUNK=64 b nb1024-t32-c64 45 $P --lu-nbs 1024
b n32k 90 --potrf-runs home,plain --ncuda 1 --ops potrf --lu-min-log 15 --lu-max-log 15 --lu-reps 2 --lu-nbs 1024
EXSTAR_TRACE=$x/trace-g1.txt b trace 50 --potrf-runs home --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 1 --lu-nbs 1024
tar -C $out -czf $out/x.tgz x && rm -rf $x
