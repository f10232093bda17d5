#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt; nvidia-smi topo -m >> $x/device.txt 2>&1
t0=$(date +%s)
for g in 4 1; do
  nbs=1024; [ $g = 4 ] && nbs=512
  EXSTAR_TRACE=$x/trace_g$g.csv timeout 150 $B --ncpu 0 --sched default --ops lutiled --lu-home device --lu-sizes 16384,32768 --ncuda $g --lu-reps 1 --lu-nbs $nbs --csv $x/lu_g$g.csv > /dev/null 2> $x/lu_g$g.txt
  echo "lu g$g rc $? $(( $(date +%s)-t0 ))s"; grep -E "^# getrf" $x/lu_g$g.txt | grep -v "(n=" | head -12
  python3 bench/lu_trace.py $x/trace_g$g.csv --steps > $x/steps_g$g.txt 2>&1; head -c 3000 $x/steps_g$g.txt
  xz -T0 $x/trace_g$g.csv
done
cd $out && tar czf x.tgz x && rm -rf x
