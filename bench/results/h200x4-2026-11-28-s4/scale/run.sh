#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$SECONDS
{ nvidia-smi -L; lscpu | grep -m1 "Model name"; nproc; } > $x/device.txt; cat $x/device.txt
lu() { # name maxsec args
  local name=$1 lim=$2; shift 2
  if [ $((SECONDS - t0 + lim)) -gt 560 ]; then echo "== $name skipped (time)"; return; fi
  timeout $lim "$B" --ncpu 0 --sched default "$@" > $x/$name.txt 2>&1
  echo "== $name (exit $?, t=$((SECONDS-t0)))"; grep -E "^# (getrf|potrf|gemm)|fnv1a|Total transfers|cusolver" $x/$name.txt | head -20
}
lu lu-g4-nb512 150 --ncuda 4 --ops lutiled --lu-home device --lu-reps 1 --lu-sizes 16384,32768 --lu-nbs 512
lu lu-g4-nb1024 150 --ncuda 4 --ops lutiled --lu-home device --lu-reps 1 --lu-sizes 16384,32768 --lu-nbs 1024
lu lu-g1-nb1024 150 --ncuda 1 --ops lutiled --lu-home device --lu-reps 1 --lu-sizes 16384,32768 --lu-nbs 1024
lu potrf-g4-nb1024 60 --ncuda 4 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 3 --lu-nbs 1024
lu potrf-g4-nb512 60 --ncuda 4 --ops potrf --lu-min-log 14 --lu-max-log 14 --lu-reps 3 --lu-nbs 512
lu lu-g2-nb1024 120 --ncuda 2 --ops lutiled --lu-home device --lu-reps 1 --lu-sizes 32768 --lu-nbs 1024
STARPU_BUS_STATS=1 lu lu-g4-bus 60 --ncuda 4 --ops lutiled --lu-home device --lu-reps 1 --lu-sizes 16384 --lu-nbs 512
tar -C $out -czf $out/x.tgz x && rm -rf $x
