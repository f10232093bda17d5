#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r3; mkdir -p $out/x
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
run gate X=1
run gate_chainw EXSTAR_CUDA_CHAIN_WORKER=1
run gate_pipe1 STARPU_CUDA_PIPELINE=1
run gate_chainw_pipe1 EXSTAR_CUDA_CHAIN_WORKER=1 STARPU_CUDA_PIPELINE=1
run nogate_chainw_pipe1 EXSTAR_CUDA_PANEL_GATE=0 EXSTAR_CUDA_CHAIN_WORKER=1 STARPU_CUDA_PIPELINE=1
cd $out && tar czf x.tgz x && rm -rf x
