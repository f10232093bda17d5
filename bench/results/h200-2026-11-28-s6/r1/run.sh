#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
D=$root/$dir/build/bench/cuda/cuda_dot_bench
x=$out/x
t0=$(date +%s)
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt; ls /usr/local/cuda/bin | grep -i nsys >> $x/device.txt
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 170 ctest -j4 -R "potrf.*cuda|cuda_lu_tiled|lu_tiled_cuda|lu_desc_cuda" --timeout 160 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout" $x/ctest.log | tail -n 16
P="--ncpu 0 --sched default --ncuda 1 --ops potrf --lu-min-log 14 --lu-max-log 14 --potrf-runs home"
timeout 60 $B $P --lu-reps 3 > /dev/null 2> $x/potrf_default.txt
echo "potrf default rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_default.txt | head -1 | sed 's/.*GPU //')"
EXSTAR_CUDA_PANEL_STREAMS=0 timeout 60 $B $P --lu-reps 3 > /dev/null 2> $x/potrf_onestream.txt
echo "potrf one stream rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_onestream.txt | head -1 | sed 's/.*GPU //')"
EXSTAR_CUDA_PANEL_PRIORITY=0 timeout 60 $B $P --lu-reps 3 > /dev/null 2> $x/potrf_noprio.txt
echo "potrf no priority rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^# potrf' $x/potrf_noprio.txt | head -1 | sed 's/.*GPU //')"
EXSTAR_CUDA_POTRF_TRACE=1 timeout 60 $B $P --lu-reps 1 > /dev/null 2> $x/potrf_phases.txt
echo "potrf phases rc $?"; grep "K=1 \|K=8 \|K=14 " $x/potrf_phases.txt | tail -3
L="--ncpu 0 --sched default --ncuda 1 --ops lutiled --lu-home device --lu-sizes 16384 --lu-reps 1"
timeout 80 $B $L > /dev/null 2> $x/lu_default.txt
echo "lu default rc $? $(( $(date +%s)-t0 ))s"; grep -E 'getrf n=16384( nb=1024: the same|: factors)' $x/lu_default.txt
EXSTAR_CUDA_PANEL_STREAMS=0 timeout 80 $B $L > /dev/null 2> $x/lu_onestream.txt
echo "lu one stream rc $? $(( $(date +%s)-t0 ))s"; grep -E 'getrf n=16384( nb=1024: the same|: factors)' $x/lu_onestream.txt
timeout 60 $D --min-log 24 --max-log 27 --reps 20 > $x/dot_nrm2.csv 2>&1
echo "dot rc $?"; grep nrm2 $x/dot_nrm2.csv
timeout 90 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum --launch-skip 0 --launch-count 40 $D --min-log 27 --max-log 27 --reps 2 > $x/ncu_nrm2.txt 2>&1
echo "ncu rc $?"; grep -E "sumsq|normalize|round|dot_pairs|memset|duration" $x/ncu_nrm2.txt | head -60
cd $out && tar czf x.tgz x && rm -rf x
