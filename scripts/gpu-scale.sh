#!/usr/bin/env bash
# On a machine of several GPUs (the device tool's nvidia-h100-x2 / -x4), from the repository root:
# strong scaling of the exact tiled LU and the exact dgemm over 1, 2, ... all GPUs in one
# process, against the same tiled graph in plain double (cuSOLVER/cuBLAS kernels), with the
# scheduler a user gets (SCHED, default: none set, StarPU's own) and the GPUs alone (no CPU
# workers). Block column J lives on and is computed by GPU J mod g (exstar's owner-computes
# placement); "device" is the LU on tiles at home on their owner GPUs, "host" from a pinned
# host array. STARPU_BUS_STATS gives the bytes moved. The fingerprints of every result must be
# identical across the GPU counts (exit 1 otherwise).
#   scripts/gpu-scale.sh DIR OUT   (DIR: what scripts/gpu-prepare.sh made)
# Sizes: LU_SIZES (default 16384,32768), GEMM_N (16384), GPUS (default "1 2 all").
set -uo pipefail
root=$(pwd)
dir=${1:-.gpu}; out=${2:-gpu-scale}
. "$root/scripts/gpu-env.sh"
B=$dir/build/bench/cuda/gpu_bench
ngpu=$(nvidia-smi -L | wc -l)
{ nvidia-smi -L; lscpu | grep -m1 "Model name"; nproc; echo "sched: ${SCHED:-StarPU default}"; } > "$out/device.txt"
cat "$out/device.txt"
sched=(--sched "${SCHED:-default}")
run() { # name, then gpu_bench arguments
  local name=$1; shift
  STARPU_BUS_STATS=1 "$B" "$@" --csv "$out/$name.csv" > "$out/$name.txt" 2>&1
  echo "== $name (exit $?)"; grep -E "^# (getrf|gemm)|Total transfers" "$out/$name.txt"
}
for g in ${GPUS:-1 2 all}; do
  [ "$g" = all ] && g=$ngpu
  [ "$g" -le "$ngpu" ] || continue
  run "lu-gpus$g" --ncpu 0 --ncuda "$g" "${sched[@]}" --ops lutiled --lu-home both --lu-reps "${LU_REPS:-1}" \
    --lu-sizes "${LU_SIZES:-16384,32768}"
  run "gemm-gpus$g" --ncpu 0 --ncuda "$g" "${sched[@]}" --ops gemm --reps "${GEMM_REPS:-3}" --gemm-n "${GEMM_N:-16384}"
done
bash "$root/scripts/gpu-fingerprints.sh" "$out"
