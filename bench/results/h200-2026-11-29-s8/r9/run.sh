#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r9; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
L="--ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 --lu-runs exact"
EXSTAR_TRACE=$x/tr16.csv timeout 100 $B $L --lu-sizes 16384 > /dev/null 2> $x/lu16.txt
echo "lu16 rc $? $(( $(date +%s)-t0 ))s $(grep ': the same' $x/lu16.txt | sed 's/.*GPU //')"
python3 bench/lu_trace.py $x/tr16.csv --steps --backlog > $x/steps16.txt 2>&1; head -c 3000 $x/steps16.txt
EXSTAR_CUDA_PANEL_TRACE=1 timeout 100 $B $L --lu-sizes 16384 > /dev/null 2> $x/panels16.txt
echo "panels rc $? $(( $(date +%s)-t0 ))s"; grep "panel trace" $x/panels16.txt | tail -16 | cut -c1-260
xz -T0 $x/tr16.csv
cd $out && tar czf x.tgz x && rm -rf x
