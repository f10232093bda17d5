#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r5; mkdir -p $out
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
L=$out/log.txt
t0=$(date +%s)
run() { # name env...
  local name=$1; shift
  env "$@" EXSTAR_TRACE=/tmp/tr_$name.csv timeout 80 $B --ncpu 0 --sched default --ops lutiled --lu-home device --lu-runs exact --lu-sizes 32768 --ncuda 4 --lu-reps 1 --lu-nbs 512 > /dev/null 2> /tmp/lu_$name.txt
  echo "$name rc $? $(( $(date +%s)-t0 ))s: $(grep -E "at home" /tmp/lu_$name.txt | sed 's/.*GPU \([0-9.]* s\).*/\1/' | tr '\n' ' ') $(grep fnv1a /tmp/lu_$name.txt | awk '{print $NF}')" | tee -a $L
  python3 bench/lu_trace.py /tmp/tr_$name.csv 2>&1 | grep -E "chain:|busy|task time" | tee -a $L
}
run w6 STARPU_NWORKER_PER_CUDA=6
run w8 STARPU_NWORKER_PER_CUDA=8
run uc64 EXSTAR_CUDA_UROW_CHUNK=64
run uc256 EXSTAR_CUDA_UROW_CHUNK=256
