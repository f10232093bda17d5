#!/usr/bin/env bash
# r2: the exact dgemm on 2 cores of the host's Xeon, AVX2 kernels on both sides
# (EXSTAR_CPU_ISA=baseline: exstar's AVX2 tile; OPENBLAS_CORETYPE=Haswell), be9be43's 4 x 4
# kernel (bench_gemm_old) and this 8 x 3 one alternating; then the AVX-512 copies for reference.
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r2; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
x=$out/x; t0=$(date +%s)
NEW=$root/$dir/build/bench/exstar_bench_gemm; OLD=$root/$dir/bench_gemm_old
{ nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)|Thread|MHz|L3"; uptime; } > $x/device.txt
b() { tag=$1; bin=$2; shift 2; env "$@" STARPU_NCUDA=0 STARPU_NOPENCL=0 timeout 120 taskset -c 2,3 $bin --reps 3 --min-log2n 11 --max-log2n 11 > $x/$tag.txt 2>&1; echo "$tag rc $? $(( $(date +%s)-t0 ))s $(grep -E 'StarPU\) /|1 thread' $x/$tag.txt | sed 's/(target.*//; s/exact gemm//; s/OpenBLAS dgemm//' | tr '\n' ' ')"; }
for i in 1 2 3 4; do
  b avx2_old_$i $OLD EXSTAR_CPU_ISA=baseline OPENBLAS_CORETYPE=Haswell
  b avx2_new_$i $NEW EXSTAR_CPU_ISA=baseline OPENBLAS_CORETYPE=Haswell
done
b wide_new_1 $NEW X=1
b wide_new_2 $NEW X=1
cd $out && tar czf x.tgz x && rm -rf x
