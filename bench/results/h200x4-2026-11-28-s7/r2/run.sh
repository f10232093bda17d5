#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r2; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
run() { # name env...
  local name=$1; shift
  env "$@" EXSTAR_TRACE=$x/tr_$name.csv timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --lu-runs exact --lu-sizes 16384,32768 --ncuda 4 --lu-reps 1 --lu-nbs 512 > /dev/null 2> $x/lu_$name.txt
  echo "$name rc $? $(( $(date +%s)-t0 ))s: $(grep -E "at home" $x/lu_$name.txt | sed 's/.*GPU \([0-9.]* s\).*/\1/' | tr '\n' ' ') $(grep fnv1a $x/lu_$name.txt | awk '{print $NF}' | tr '\n' ' ')"
  python3 bench/lu_trace.py $x/tr_$name.csv > $x/steps_$name.txt 2>&1; grep -E "chain:" $x/steps_$name.txt
  xz -T0 $x/tr_$name.csv
}
run base X=1
run chainw EXSTAR_CUDA_CHAIN_WORKER=1
run gc0 EXSTAR_CUDA_PANEL_GEMM_COLS=0
run pipe1 STARPU_CUDA_PIPELINE=1
run w8 STARPU_NWORKER_PER_CUDA=8
run chainw_gc0 EXSTAR_CUDA_CHAIN_WORKER=1 EXSTAR_CUDA_PANEL_GEMM_COLS=0
run chainw_w5 EXSTAR_CUDA_CHAIN_WORKER=1 STARPU_NWORKER_PER_CUDA=5
cd $out && tar czf x.tgz x && rm -rf x
