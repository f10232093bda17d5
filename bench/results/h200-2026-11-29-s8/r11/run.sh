#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r11; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
run() { n=$1; tag=$2; shift 2; env "$@" timeout 80 $B --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 --lu-runs exact --lu-sizes $n > /dev/null 2> $x/lu${n}_$tag.txt; echo "$n $tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E ': the same' $x/lu${n}_$tag.txt | sed 's/.*GPU //' | cut -c1-10)"; }
run 16384 base X=1
run 16384 b33 EXSTAR_CUDA_PANEL_BLOCKS=33
run 16384 b44 EXSTAR_CUDA_PANEL_BLOCKS=44
run 16384 b22 EXSTAR_CUDA_PANEL_BLOCKS=22
run 16384 nw6 STARPU_NWORKER_PER_CUDA=6
run 32768 base X=1
run 32768 b44 EXSTAR_CUDA_PANEL_BLOCKS=44
run 32768 b33 EXSTAR_CUDA_PANEL_BLOCKS=33
grep -h fnv1a $x/lu*.txt | sort | uniq -c
cd $out && tar czf x.tgz x && rm -rf x
