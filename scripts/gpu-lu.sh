#!/usr/bin/env bash
# The tiled exact LU on the GPU machine (issue: heterogeneous nodes), one device call:
#   OUT/lu-<setting>-<n>.txt   `exstar bench getrf` tables (exact tiled, plain-tiled, LAPACK)
#   OUT/lu-bus-<setting>-<n>.txt  StarPU's bus statistics (bytes moved between memory nodes)
#   OUT/lu-bits.txt            the exact factors' checksums per setting: identical bits expected
# Settings: cuda+C CPU workers for C in $LU_NCPUS (default "0 4 16"; 0: the GPU alone), scheduler
# dmda (calibrated models: STARPU_CALIBRATE=1 on a first untimed run), sizes $LU_SIZES (default
# "2048 4096 8192").
#   scripts/gpu-lu.sh BUILD_DIR OUT
set -uo pipefail
build=${1:?usage: gpu-lu.sh BUILD_DIR OUT}; out=${2:?}
mkdir -p "$out"
tool="$build/examples/exstar"
export STARPU_SILENT=1 STARPU_NCUDA=1
sizes=${LU_SIZES:-"2048 4096 8192"}
for c in ${LU_NCPUS:-0 4 16}; do
  workers=(--backend cpu,cuda --ncpus "$c")
  [ "$c" = 0 ] && workers=(--backend cuda)
  for n in $sizes; do
    # calibration run (the history models of every codelet for these sizes), untimed
    STARPU_CALIBRATE=1 timeout 300 "$tool" bench getrf --n "$n" --reps 1 "${workers[@]}" --sched dmda > /dev/null 2>&1
    STARPU_BUS_STATS=1 timeout 400 "$tool" bench getrf --n "$n" --reps ${LU_REPS:-3} "${workers[@]}" --sched dmda \
      > "$out/lu-cuda-cpu$c-$n.txt" 2> "$out/lu-bus-cuda-cpu$c-$n.txt"
    echo "gpu-lu.sh: cuda + $c CPU workers, n = $n: exit $?"; cat "$out/lu-cuda-cpu$c-$n.txt"
  done
done
# the same factors whatever the workers: factor one matrix under each setting, compare checksums
"$tool" gen matrix --n 1500 --cond 1e8 --seed 7 -o "$out/A.mtx" > /dev/null 2>&1
for setting in "cuda 0" "cpu 4" "cpu,cuda 4" "cpu,cuda 16"; do
  set -- $setting
  "$tool" getrf --backend "$1" $([ "$2" = 0 ] || echo --ncpus "$2") --sched dmda "$out/A.mtx" -o "$out/LU-$1-$2.mtx" --ipiv "$out/P-$1-$2.mtx" \
    > /dev/null 2>&1
  echo "$setting: exit $? $(cat "$out/LU-$1-$2.mtx" "$out/P-$1-$2.mtx" | md5sum)"
done | tee "$out/lu-bits.txt"
rm -f "$out"/*.mtx
