#!/usr/bin/env bash
# r3: one H200, exact LU at home: the panel's gate (EXSTAR_CUDA_PANEL_GATE=1: no new update starts
# beside a panel) on one GPU, with the panel on 44 (default), 66 or 132 blocks, against the default.
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r3; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
lu() { tag=$1; envs=$2; shift 2; env $envs timeout 150 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s $(grep -hiE 'on the GPU|fnv' $x/lu_$tag.txt | sed 's/, factors bit-identical.*//' | tr '\n' ' ')"; }
lu def16_a X=1 --lu-runs exact,cusolver --lu-sizes 16384
lu gate16_a EXSTAR_CUDA_PANEL_GATE=1 --lu-runs exact --lu-sizes 16384
lu gate16_b66 "EXSTAR_CUDA_PANEL_GATE=1 EXSTAR_CUDA_PANEL_BLOCKS=66" --lu-runs exact --lu-sizes 16384
lu gate16_b132 "EXSTAR_CUDA_PANEL_GATE=1 EXSTAR_CUDA_PANEL_BLOCKS=132" --lu-runs exact --lu-sizes 16384
lu def16_b X=1 --lu-runs exact --lu-sizes 16384
lu gate16_b EXSTAR_CUDA_PANEL_GATE=1 --lu-runs exact --lu-sizes 16384
lu def32 X=1 --lu-runs exact --lu-sizes 32768
lu gate32 EXSTAR_CUDA_PANEL_GATE=1 --lu-runs exact --lu-sizes 32768
cd $out && tar czf x.tgz x && rm -rf x
