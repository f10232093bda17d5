#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r5; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
$root/$dir/build/tests/kernels_cuda/test_cuda_level3 > $x/test_level3.txt 2>&1; echo "level3 rc $? $(( $(date +%s)-t0 ))s: $(tail -2 $x/test_level3.txt | head -1)"
tk() { tag=$1; envs=$2; env $envs EXSTAR_LU_TIME="$3 1024" timeout 100 $T "[.time]" > $x/time_$tag.txt 2>&1; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^(panel|urow)' $x/time_$tag.txt | cut -c1-60 | tr '\n' ' ')"; }
tk m16k_b44 EXSTAR_CUDA_PANEL_BLOCKS=44 16384
tk m2k_b44 EXSTAR_CUDA_PANEL_BLOCKS=44 2048
L="--ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1"
run() { tag=$1; envs=$2; args=$3; env $envs timeout 150 $B $L $args > /dev/null 2> $x/lu_$tag.txt; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E ': the same|cusolverDn' $x/lu_$tag.txt | sed 's/.*GPU //' | cut -c1-40 | tr '\n' ' ')"; }
run lu X=1 "--lu-runs exact,cusolver --lu-sizes 16384,32768"
run lu16b X=1 "--lu-runs exact --lu-sizes 16384"
grep -h fnv1a $x/lu_*.txt | sort | uniq -c
timeout 100 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home --lu-reps 3 --lu-nbs 1024 > /dev/null 2> $x/potrf.txt; echo "potrf rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf.txt | head -2 | tr '\n' ' ' | cut -c1-240)"
cd $out && tar czf x.tgz x && rm -rf x
