#!/usr/bin/env bash
# On the GPU machine, from the repository root: the integer (CRT, int8 tensor-core) path of the
# exact gemm: its CUDA tests, then cuda_gemm_bench and gpu_bench's gemm with the FP64 kernel
# (EXSTAR_CUDA_GEMM_CRT=0) and the integer path (=1), in one run. Logs and CSVs into OUT.
#   scripts/gpu-crt.sh DIR OUT [MAX_LOG] [GEMM_N]
set -uo pipefail
root=$(pwd)
dir=${1:-.gpu}; out=${2:-gpu-crt}; max_log=${3:-14}; gemm_n=${4:-16384}
. "$root/scripts/gpu-env.sh"
mkdir -p "$root/build-gpu" && rm -rf "$root/build-gpu/exstar" && ln -s "$root/$dir/build" "$root/build-gpu/exstar"
nvidia-smi -L | tee "$out/device.txt"
lscpu | grep -E "Model name|Flags" | cut -c1-200 >> "$out/device.txt"
b=$root/build-gpu/exstar
if [ -z "${SKIP_TESTS:-}" ]; then
  (cd "$b" && ctest -R "cuda_level3" --timeout 400 --output-on-failure > "$out/ctest_level3.log" 2>&1)
  echo "ctest cuda_level3* exit $?"; grep -E "tests passed|Failed|\*\*\*|sec$" "$out/ctest_level3.log" | tail -n 8
fi
for crt in 0 1; do
  EXSTAR_CUDA_GEMM_CRT=$crt "$b/bench/cuda/cuda_gemm_bench" --min-log 12 --max-log "$max_log" --reps 5 --trsm 4096 \
    --csv "$out/cuda_gemm_crt$crt.csv" > /dev/null 2> "$out/cuda_gemm_crt$crt.log"
  echo "cuda_gemm_bench CRT=$crt exit $?"; grep -v "^#" "$out/cuda_gemm_crt$crt.csv" | grep gemm
  grep -iE "bit|differ" "$out/cuda_gemm_crt$crt.log" | head -4
done
for crt in 0 1; do
  EXSTAR_CUDA_GEMM_CRT=$crt "$b/bench/cuda/gpu_bench" --ops gemm --gemm-n "$gemm_n" --lu-reps 3 --ncpu 0 \
    --csv "$out/gpu_bench_gemm_crt$crt.csv" > /dev/null 2> "$out/gpu_bench_gemm_crt$crt.log"
  echo "gpu_bench gemm CRT=$crt exit $?"; grep "^#" "$out/gpu_bench_gemm_crt$crt.log" | tail -3
done
