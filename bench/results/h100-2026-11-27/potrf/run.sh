#!/usr/bin/env bash
# On the nvidia-h100-x1 device machine, from the repository root, with the .gpu bundle:
#   bash bench/results/h100-2026-11-27/potrf/run.sh
# 1. The exact Cholesky against cusolverDnDpotrf (gpu_bench --ops potrf, n = 8192 and 16384,
#    the H100's CUDA worker plus 8 CPU workers for the panels, which are CPU codelets; scheduler
#    prio), and the plain tiled graph.
# 2. The LU and gemm fingerprints of issue 23 (tiles at home on the GPU, the GPU alone, prio).
set -uo pipefail
root=$(pwd); dir=.gpu; out=${OUT:-/tmp/out}
. "$root/scripts/gpu-env.sh"
B=$root/.gpu/build/bench/cuda/gpu_bench
timeout 300 "$B" --ops potrf --lu-min-log 13 --lu-max-log 14 --lu-reps 3 --ncpu 8 --sched prio --csv "$out/potrf.csv" > /dev/null 2> "$out/potrf.txt"
echo "potrf exit $?"; grep -E '^# (potrf|device)' "$out/potrf.txt"
timeout 200 "$B" --ops lutiled --lu-sizes 8192,16384 --lu-home device --lu-reps 3 --sched prio > /dev/null 2> "$out/lu.txt"
echo "lutiled exit $?"; grep -E 'fnv1a|device-home|cusolver' "$out/lu.txt" | head
timeout 120 "$B" --ops gemm --gemm-n 16384 --lu-reps 3 --sched prio > /dev/null 2> "$out/gemm.txt"
echo "gemm exit $?"; grep -E 'fnv1a|TFLOP' "$out/gemm.txt" | head -4
