#!/usr/bin/env bash
# On a machine of one or several GPUs (the device tool), from the repository root: the exact and
# plain tiled LU at home on G GPUs with their task timelines (EXSTAR_TRACE) and the CUDA panel
# kernels' own clock (EXSTAR_CUDA_PANEL_TRACE, in a second run: it synchronizes each panel), then
# bench/lu_trace.py's summary of both (python3 is on the device machines).
#   scripts/gpu-trace.sh DIR OUT [G] [SIZES]   (DIR: what scripts/gpu-prepare.sh made; G: GPUs,
#   default all; SIZES: default 16384,32768)
set -uo pipefail
root=$(pwd)
dir=${1:-.gpu}; out=${2:-gpu-trace}; g=${3:-all}; sizes=${4:-16384,32768}
. "$root/scripts/gpu-env.sh"
B=$dir/build/bench/cuda/gpu_bench
[ "$g" = all ] && g=$(nvidia-smi -L | wc -l)
nvidia-smi -L > "$out/device.txt"
args=(--ncpu 0 --ncuda "$g" --sched default --ops lutiled --lu-home device --lu-sizes "$sizes" --lu-reps 1)
EXSTAR_TRACE="$out/trace-g$g.csv" "$B" "${args[@]}" > "$out/lu-g$g.txt" 2>&1
echo "== timeline run (exit $?)"; grep -E "^# getrf" "$out/lu-g$g.txt"
EXSTAR_CUDA_PANEL_TRACE=1 "$B" "${args[@]}" > "$out/lu-g$g-panels.txt" 2>&1
echo "== panel clock run (exit $?)"
python3 "$root/bench/lu_trace.py" "$out/trace-g$g.csv" --panels "$out/lu-g$g-panels.txt" > "$out/summary-g$g.txt" 2>&1
cat "$out/summary-g$g.txt" | grep -E "^==|chain|sums"
xz -f "$out/trace-g$g.csv"
