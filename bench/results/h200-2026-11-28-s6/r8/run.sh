#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r8; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
t0=$(date +%s)
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 200 ctest -j4 -R "cuda_lu_tiled|lu_tiled_cuda|lu_desc_cuda|^lu_cuda" --timeout 190 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout" $x/ctest.log | tail -n 12
L="--ncpu 0 --sched default --ncuda 1 --ops lutiled --lu-home device --lu-sizes 16384 --lu-reps 1"
for v in 128 0 64; do
EXSTAR_CUDA_PANEL_GEMM_COLS=$v timeout 80 $B $L > /dev/null 2> $x/lu_cols$v.txt
echo "lu gemm cols $v rc $? $(( $(date +%s)-t0 ))s: $(grep -E 'getrf n=16384 nb=1024: the same' $x/lu_cols$v.txt | sed 's/.*GPU //')"; grep -E 'getrf n=16384: factors' $x/lu_cols$v.txt
done
timeout 100 $B --ncpu 0 --sched default --ncuda 1 --ops lutiled --lu-home device --lu-sizes 32768 --lu-reps 1 > /dev/null 2> $x/lu32k.txt
echo "lu 32768 rc $? $(( $(date +%s)-t0 ))s"; grep -E 'getrf n=32768' $x/lu32k.txt | head -4
cd $out && tar czf x.tgz x && rm -rf x
