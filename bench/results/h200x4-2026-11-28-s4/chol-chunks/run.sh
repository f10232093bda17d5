#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r3; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$SECONDS
nvidia-smi -L | head -1
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 150 ctest -R "^(potrf_cuda|potrf_cpu_cuda|potrf_tiles_cuda)$" --timeout 100 --output-on-failure > $x/ctest.log 2>&1; echo "ctest exit $?"; grep -E "tests passed|Passed|Failed" $x/ctest.log)
(cd $root/build-gpu/exstar/tests/lu && EXSTAR_TEST_BACKENDS=cuda EXSTAR_CUDA_POTRF_CHUNK=16 timeout 100 ./test_potrf > $x/chunk16.log 2>&1; echo "chunk 16 exit $?"; tail -2 $x/chunk16.log)
b() { # name maxsec args
  local name=$1 lim=$2; shift 2
  if [ $((SECONDS - t0 + lim)) -gt 570 ]; then echo "== $name skipped (time)"; return; fi
  timeout $lim "$B" --ncpu 0 --sched default "$@" > /dev/null 2> $x/$name.txt
  echo "== $name (exit $?, t=$((SECONDS-t0)))"; grep -E "^# potrf" $x/$name.txt | head -8
}
P="--ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 3"
b g1-nb1024 60 --potrf-runs home --ncuda 1 $P --lu-nbs 1024
b g1-nb512 60 --potrf-runs home --ncuda 1 $P --lu-nbs 512
EXSTAR_CUDA_POTRF_CHUNK=64 b g1-nb1024-c64 60 --potrf-runs home --ncuda 1 $P --lu-nbs 1024
EXSTAR_CUDA_POTRF_CHUNK=256 b g1-nb1024-c256 60 --potrf-runs home --ncuda 1 $P --lu-nbs 1024
b g4-nb512 60 --potrf-runs home --ncuda 4 $P --lu-nbs 512
b g4-nb1024 60 --potrf-runs home --ncuda 4 $P --lu-nbs 1024
EXSTAR_POTRF_COLUMNS=0 b g4-nb512-tiles 60 --potrf-runs home --ncuda 4 $P --lu-nbs 512
b g1-15 90 --potrf-runs home --ncuda 1 --ops potrf --lu-min-log 15 --lu-max-log 15 --lu-reps 2 --lu-nbs 1024
EXSTAR_TRACE=$x/trace-g1.txt b trace 50 --potrf-runs home --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 1 --lu-nbs 1024
tar -C $out -czf $out/x.tgz x && rm -rf $x
