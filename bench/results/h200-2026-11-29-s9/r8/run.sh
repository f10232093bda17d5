#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r8; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 120 ctest -j4 -R "^cuda_lu_tiled$|^cuda_lu_tiled_panel_gemm$|^lu_tiled_cuda$" --timeout 110 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout|Not Run" $x/ctest.log | tail -n 8
for o in 1 0; do EXSTAR_CUDA_PANEL_OVERLAP=$o EXSTAR_CUDA_PANEL_BLOCKS=44 EXSTAR_LU_TIME="16384 1024" timeout 60 $T "[.time]" > $x/time16k_o$o.txt 2>&1; echo "overlap $o: $(grep -E '^panel' $x/time16k_o$o.txt)"; done
L="--ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1"
run() { tag=$1; envs=$2; args=$3; env $envs timeout 120 $B $L $args > /dev/null 2> $x/lu_$tag.txt; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E ': the same|cusolverDn' $x/lu_$tag.txt | sed 's/.*GPU //' | cut -c1-40 | tr '\n' ' ')"; }
run lu X=1 "--lu-runs exact,cusolver --lu-sizes 16384,32768"
run o0 EXSTAR_CUDA_PANEL_OVERLAP=0 "--lu-runs exact --lu-sizes 16384"
run lu16 X=1 "--lu-runs exact --lu-sizes 16384"
grep -h fnv1a $x/lu_*.txt | sort | uniq -c
cd $out && tar czf x.tgz x && rm -rf x
