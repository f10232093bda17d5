#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r2; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$SECONDS
nvidia-smi -L
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 200 ctest -R "^(potrf_cuda|potrf_cpu_cuda|potrf_tiles_cuda|cuda_lu_tiled|lu_tiled_cuda)$" --timeout 150 --output-on-failure > $x/ctest.log 2>&1; echo "ctest exit $?"; tail -12 $x/ctest.log)
b() { # name maxsec args
  local name=$1 lim=$2; shift 2
  if [ $((SECONDS - t0 + lim)) -gt 570 ]; then echo "== $name skipped (time)"; return; fi
  timeout $lim "$B" --ncpu 0 --sched default "$@" > /dev/null 2> $x/$name.txt
  echo "== $name (exit $?, t=$((SECONDS-t0)))"; grep -E "^# potrf|fnv1a" $x/$name.txt | head -8
}
G=$(nvidia-smi -L | wc -l)
b chol-g1-nb1024 80 --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 3 --lu-nbs 1024
b chol-g1-nb512 80 --potrf-runs home --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 3 --lu-nbs 512
EXSTAR_POTRF_COLUMNS=0 b chol-g1-nb1024-tiles 80 --potrf-runs home --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 3 --lu-nbs 1024
b chol-g1-15 100 --potrf-runs home,plain --ncuda 1 --ops potrf --lu-min-log 15 --lu-max-log 15 --lu-reps 2 --lu-nbs 1024
[ $G -gt 1 ] && b chol-g$G-nb1024 80 --potrf-runs home,plain --ncuda $G --ops potrf --lu-min-log 14 --lu-max-log 15 --lu-reps 2 --lu-nbs 1024
[ $G -gt 1 ] && b chol-g$G-nb512 80 --potrf-runs home --ncuda $G --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 2 --lu-nbs 512
EXSTAR_TRACE=$x/trace-g1.txt b chol-trace 60 --potrf-runs home --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 1 --lu-nbs 1024
tar -C $out -czf $out/x.tgz x && rm -rf $x
