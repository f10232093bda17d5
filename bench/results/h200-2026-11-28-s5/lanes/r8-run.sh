#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r8; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
c14="--ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home"
run() { local name=$1; shift; env "$@" timeout 120 $B $c14 --lu-reps 3 > /dev/null 2> $x/$name.txt; echo "$name rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/$name.txt | head -1 | sed 's/.*GPU //')"; }
run potrf_default X=1
run potrf_wide EXSTAR_CUDA_SUBST_WIDE=1
run potrf_crt2 EXSTAR_CUDA_GEMM_CRT=2
run potrf_wide_crt2 EXSTAR_CUDA_SUBST_WIDE=1 EXSTAR_CUDA_GEMM_CRT=2
lu() { local name=$1; shift; env "$@" timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --lu-sizes 16384 --ncuda 1 --lu-reps 1 > /dev/null 2> $x/$name.txt; echo "$name rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# getrf' $x/$name.txt | grep home | head -1 | sed 's/.*GPU //')"; }
lu lu_default X=1
lu lu_wide EXSTAR_CUDA_SUBST_WIDE=1
lu lu_crt2 EXSTAR_CUDA_GEMM_CRT=2
cd $out && tar czf x.tgz x && rm -rf x
