#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
# the kernels on one stream: far U rows a launch a block column, then in one call a step
EXSTAR_LU_TIME="16384 1024" timeout 60 $T "[.timelu]" > $x/timelu16.txt 2>&1
EXSTAR_LU_TIME_UROW_COLS=1 EXSTAR_LU_TIME="16384 1024" timeout 60 $T "[.timelu]" > $x/timelu16_cols.txt 2>&1
echo "timelu $(( $(date +%s)-t0 ))s"; grep -h "one stream" $x/timelu16*.txt
L="--ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1"
run() { tag=$1; envs=$2; args=$3; env $envs timeout 120 $B $L $args > /dev/null 2> $x/lu_$tag.txt; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E ': the same|cusolverDnDgetrf' $x/lu_$tag.txt | sed 's/.*GPU //' | cut -c1-60 | tr '\n' ' ')"; }
run base X=1 "--lu-runs exact,cusolver --lu-sizes 16384,32768"
run cols1000 EXSTAR_LU_UROW_COLS=1000 "--lu-runs exact --lu-sizes 16384,32768"
run cols4 EXSTAR_LU_UROW_COLS=4 "--lu-runs exact --lu-sizes 16384,32768"
grep -h fnv1a $x/lu_*.txt | sort | uniq -c
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 330 ctest -j4 -R "cuda|gpu" --timeout 300 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout|Not Run" $x/ctest.log | tail -n 20
cd $out && tar czf x.tgz x && rm -rf x
