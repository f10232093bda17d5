#!/usr/bin/env bash
# On the GPU machine, from the repository root: the whole ctest suite with the CUDA worker(s),
# then the OpenCL tests on NVIDIA's OpenCL (a separate run: StarPU drives a GPU through CUDA or
# through OpenCL, not both). DIR is what scripts/gpu-prepare.sh made; logs go to OUT.
# The build tree's CTest files name /work/main/build-gpu/exstar: recreate that path here.
set -uo pipefail
root=$(pwd)
dir=${1:-.gpu}; out=${2:-gpu-logs}
. "$root/scripts/gpu-env.sh"
mkdir -p "$root/build-gpu" && rm -rf "$root/build-gpu/exstar" && ln -s "$root/$dir/build" "$root/build-gpu/exstar"
nvidia-smi -L | tee "$out/device.txt"
cd "$root/build-gpu/exstar"
# install_package needs cmake and a compiler, which the GPU machine does not have; the blas label
# (libexstar_blas, CPU-side: its reference testers need gfortran's runtime and Debian's NumPy,
# which the bundle does not carry) runs on the CPU machine
ctest -E install_package -LE blas --timeout 300 --output-on-failure > "$out/ctest_cuda.log" 2>&1
echo "ctest (CUDA + CPU) exit $?"; tail -n 40 "$out/ctest_cuda.log"
# STARPU_PROFILING=1: with 16 CPU workers and NVIDIA's OpenCL, StarPU 1.3's history-model
# feedback sometimes reads a negative duration and aborts (driver_common.c: "measured >= 0",
# a StarPU race, not exstar's: starpu-runtime/starpu#55); with profiling on it measures
# through its own profiling info and passes (gemv_cpu_opencl: 2 aborts in 3 runs without, 4
# passes in 4 with, 2026-11-23).
STARPU_PROFILING=1 STARPU_NCUDA=0 ctest -R "opencl|cl_kernels" --timeout 300 --output-on-failure > "$out/ctest_nvidia_opencl.log" 2>&1
echo "ctest (NVIDIA OpenCL) exit $?"; tail -n 25 "$out/ctest_nvidia_opencl.log"
