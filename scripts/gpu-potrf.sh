#!/usr/bin/env bash
# On the GPU machine, from the repository root: the exact Cholesky with its CUDA panel. The CUDA
# kernel tests (the LU's and the Cholesky's tiled kernels against the CPU's, bit for bit), the
# runtime's potrf test with CPU and CUDA workers, then gpu_bench --ops potrf on the GPU alone
# (--ncpu 0) and with CPU workers beside it (NCPU, scheduler SCHED). Logs and CSVs into OUT.
#   scripts/gpu-potrf.sh DIR OUT [MIN_LOG] [MAX_LOG] [SCHED] [NCPU]
set -uo pipefail
root=$(pwd)
dir=${1:-.gpu}; out=${2:-gpu-potrf}; min_log=${3:-13}; max_log=${4:-14}; sched=${5:-prio}; ncpu=${6:-8}
. "$root/scripts/gpu-env.sh"
mkdir -p "$root/build-gpu" && rm -rf "$root/build-gpu/exstar" && ln -s "$root/$dir/build" "$root/build-gpu/exstar"
nvidia-smi -L | tee "$out/device.txt"
lscpu | grep -E "Model name" >> "$out/device.txt"
b=$root/build-gpu/exstar
if [ -z "${SKIP_TESTS:-}" ]; then
  (cd "$b" && ctest -R "cuda_lu_tiled|potrf_cpu_cuda|potrf_cuda" --timeout 400 --output-on-failure > "$out/ctest.log" 2>&1)
  echo "ctest exit $?"; grep -E "tests passed|Failed|\*\*\*|sec$|exact-path" "$out/ctest.log" | tail -n 12
fi
for n in 8192 16384; do # the kernels alone on one stream, where the time goes
  EXSTAR_CHOL_TIME="$n 512" "$b/tests/kernels_cuda/test_cuda_lu_tiled" "[.timechol]" > "$out/timechol_$n.txt" 2>&1 &&
    grep Cholesky "$out/timechol_$n.txt"
done
for c in 0 "$ncpu"; do
  timeout 280 "$b/bench/cuda/gpu_bench" --ops potrf --lu-min-log "$min_log" --lu-max-log "$max_log" --lu-reps 3 \
    --ncpu "$c" --sched "$sched" --csv "$out/potrf_ncpu$c.csv" > /dev/null 2> "$out/potrf_ncpu$c.txt"
  echo "gpu_bench potrf --ncpu $c exit $?"; grep -E "^# (potrf|device)" "$out/potrf_ncpu$c.txt"
done
