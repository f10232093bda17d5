#!/usr/bin/env bash
# On the GPU machine, from the repository root: a short check of a rebuilt bundle (when the whole
# of scripts/gpu-test.sh does not fit the device time left): the ctest entries matching PATTERN
# with the CUDA worker, those matching OCL_PATTERN on NVIDIA's OpenCL, and the exact dot and nrm2
# kernels against cuBLAS at n = 2^24..2^27 (bench/cuda_dot_bench.cu). Logs into OUT.
#   scripts/gpu-check.sh DIR OUT PATTERN [OCL_PATTERN]
set -uo pipefail
root=$(pwd)
dir=${1:-.gpu}; out=${2:-gpu-check}; pattern=${3:-cuda}; ocl=${4:-}
. "$root/scripts/gpu-env.sh"
mkdir -p "$root/build-gpu" && rm -rf "$root/build-gpu/exstar" && ln -s "$root/$dir/build" "$root/build-gpu/exstar"
nvidia-smi -L | tee "$out/device.txt"
cd "$root/build-gpu/exstar"
ctest -R "$pattern" -E install_package -LE blas --timeout 240 --output-on-failure > "$out/ctest_cuda.log" 2>&1
echo "ctest (CUDA) exit $?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest_cuda.log" | tail -n 20
if [ -n "$ocl" ]; then
  STARPU_PROFILING=1 STARPU_NCUDA=0 ctest -R "$ocl" --timeout 240 --output-on-failure > "$out/ctest_nvidia_opencl.log" 2>&1
  echo "ctest (NVIDIA OpenCL) exit $?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest_nvidia_opencl.log" | tail -n 10
fi
bench/cuda/cuda_dot_bench --min-log 24 --max-log 27 --reps 10 > "$out/dot_nrm2.csv" 2> "$out/dot_nrm2.err"
echo "cuda_dot_bench exit $?"; cat "$out/dot_nrm2.csv"
