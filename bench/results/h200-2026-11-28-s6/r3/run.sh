#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r3; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
D=$root/$dir/build/bench/cuda/cuda_dot_bench
x=$out/x
t0=$(date +%s)
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 200 ctest -j4 -R "potrf.*cuda" --timeout 190 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout" $x/ctest.log | tail -n 16
P="--ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home"
timeout 60 $B $P --lu-reps 3 > /dev/null 2> $x/potrf_default.txt
echo "potrf default rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_default.txt | head -1 | sed 's/.*GPU //')"
grep fnv $x/potrf_default.txt | sed 's/.*fnv1a/fnv1a/'
EXSTAR_CUDA_POTRF_TRACE=1 timeout 60 $B $P --lu-reps 1 > /dev/null 2> $x/potrf_phases.txt
echo "potrf phases rc $?"; grep "potrf panel" $x/potrf_phases.txt | tail -16 | cut -c1-120
for c in 64; do
EXSTAR_CUDA_POTRF_DIAG_CHUNK=$c timeout 60 $B $P --lu-reps 3 > /dev/null 2> $x/potrf_dc$c.txt
echo "potrf diag chunk $c rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_dc$c.txt | head -1 | sed 's/.*GPU //')"
done
for v in 100000 2048; do
EXSTAR_CUDA_SUBST_LANES_MIN=$v timeout 60 $B $P --lu-reps 3 > /dev/null 2> $x/potrf_lanesmin$v.txt
echo "potrf lanes min $v rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_lanesmin$v.txt | head -1 | sed 's/.*GPU //')"
done
EXSTAR_CUDA_POTRF_CHUNK=256 timeout 60 $B $P --lu-reps 3 > /dev/null 2> $x/potrf_chunk256.txt
echo "potrf chunk 256 rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_chunk256.txt | head -1 | sed 's/.*GPU //')"
timeout 80 $B --ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 15 --lu-max-log 15 --potrf-runs home --lu-reps 1 > /dev/null 2> $x/potrf32k.txt
echo "potrf 32768 rc $? $(( $(date +%s)-t0 ))s"; grep -E '^# potrf' $x/potrf32k.txt | head -3
cd $out && tar czf x.tgz x && rm -rf x
