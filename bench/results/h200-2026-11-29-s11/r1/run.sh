#!/usr/bin/env bash
# r1: the CPU kernel test on the host's Xeon (AVX-512 tile, and the AVX2 8 x 3 assembly under
# EXSTAR_CPU_ISA=baseline); every CUDA test; LU, potrf and gemm at 16384 after gemm.cu's each_entry.
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt; grep -m1 "model name" /proc/cpuinfo >> $x/device.txt; grep -o -m1 "avx512f" /proc/cpuinfo >> $x/device.txt
T=$root/$dir/build/tests/level3/test_level3_kernels
$T > $x/level3_kernels_default.txt 2>&1; echo "level3_kernels default rc $? $(tail -2 $x/level3_kernels_default.txt | head -1)"
EXSTAR_CPU_ISA=baseline $T > $x/level3_kernels_baseline.txt 2>&1; echo "level3_kernels baseline rc $? $(tail -2 $x/level3_kernels_baseline.txt | head -1)"
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 330 ctest -j4 -R "cuda|gpu" --timeout 300 --output-on-failure > $x/ctest_cuda.log 2>&1; echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\(Failed\)|Timeout" $x/ctest_cuda.log | head -8)
lu() { tag=$1; shift; timeout 120 $B "$@" --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 > $x/lu_$tag.txt 2>&1; echo "lu $tag rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'cusolverDn|on the GPU|fnv' $x/lu_$tag.txt | head -6; }
lu def16 --lu-runs exact,cusolver --lu-sizes 16384
timeout 100 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home --lu-reps 1 > $x/po16.txt 2>&1; echo "potrf rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'potrf' $x/po16.txt | grep -v '^potrf,' | head -4
timeout 100 $B --ncpu 0 --sched default --ncuda 1 --ops gemm --gemm-runs home --gemm-n 16384 --lu-reps 3 > $x/gemm16.txt 2>&1; echo "gemm rc $? $(( $(date +%s)-t0 ))s"; grep -hiE 'TFLOP|fnv|gemm' $x/gemm16.txt | head -6
cd $out && tar czf x.tgz x && rm -rf x
