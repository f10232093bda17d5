#!/usr/bin/env bash
# On a machine of several GPUs (the device tool's nvidia-h200-x2 / -x4), from the repository root:
# the multi-GPU set in one call. DIR is what scripts/gpu-prepare.sh made; OUT gets the CSV files
# and logs (plot them with bench/plot.sh where gnuplot is).
#   - the tiled exact LU (tiles at home on the first GPU), a batch of LUs and the exact dgemm, on
#     one GPU and on every GPU, 16 CPU workers beside them, dmda with history models calibrated
#     by each run's warm-up (STARPU_CALIBRATE=1), STARPU_BUS_STATS for the bytes moved;
#   - smaller sizes with one GPU driven through CUDA and another through NVIDIA's OpenCL
#     (STARPU_WORKERS_CUDAID / STARPU_WORKERS_OPENCLID), and on the CUDA GPU alone;
#   - the fingerprints (FNV-1a) of every result compared across the runs: identical or exit 1.
# Sizes: LU_SIZES (default 16384,32768), BATCH (64x1024), GEMM_N (16384).
set -uo pipefail
root=$(pwd)
dir=${1:-.gpu}; out=${2:-gpu-multi}
. "$root/scripts/gpu-env.sh"
B=$dir/build/bench/cuda/gpu_bench
ngpu=$(nvidia-smi -L | wc -l)
{ nvidia-smi -L; lscpu | grep -m1 "Model name"; nproc; } > "$out/device.txt"
cat "$out/device.txt"
common=(--lu-home device --lu-reps 1 --ncpu 16 --sched dmda)
lu=(--ops lutiled,lubatch)
gemm=(--ops gemm)
run() { # name, then gpu_bench arguments
  local name=$1; shift
  STARPU_CALIBRATE=1 STARPU_BUS_STATS=1 "$B" "$@" --csv "$out/$name.csv" > "$out/$name.txt" 2>&1
  echo "== $name (exit $?)"; grep -E "^# |Total transfers" "$out/$name.txt" | grep -v summary
}
# a small pass first: a failure shows in seconds, not after the long runs
run smoke "${common[@]}" --ops lutiled,lubatch,gemm --ncuda -1 --lu-sizes 2048 --batch 8x512 --gemm-n 2048
small=(--lu-sizes 4096 --batch 16x1024 --gemm-n 8192)
if [ "$ngpu" -ge 2 ]; then
  STARPU_WORKERS_CUDAID=0 STARPU_WORKERS_OPENCLID=1 run cuda-opencl "${common[@]}" --ops lutiled,lubatch,gemm \
    --ncuda 1 --nopencl 1 "${small[@]}"
fi
run cuda-small "${common[@]}" --ops lutiled,lubatch,gemm --ncuda 1 "${small[@]}"
big=(--lu-sizes "${LU_SIZES:-16384,32768}" --batch "${BATCH:-64x1024}" --gemm-n "${GEMM_N:-16384}")
# the LUs and the gemm in separate processes (one's memory and models do not weigh on the other)
for g in 1 $([ "$ngpu" -ge 2 ] && echo "$ngpu"); do
  n=$([ "$g" = 1 ] && echo 1 || echo -1)
  run "lu-gpus$g" "${common[@]}" "${lu[@]}" --ncuda "$n" "${big[@]}"
  run "gemm-gpus$g" "${common[@]}" "${gemm[@]}" --ncuda "$n" "${big[@]}"
done
bash "$root/scripts/gpu-fingerprints.sh" "$out"
