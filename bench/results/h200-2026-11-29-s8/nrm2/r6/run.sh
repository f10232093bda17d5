#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r6; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
D=$root/$dir/build/bench/cuda/cuda_dot_bench
T=$root/$dir/build/tests/kernels_cuda/test_cuda_kernels
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
for c in q 2; do
  EXSTAR_CUDA_SUMSQ_CFG=$c timeout 60 $T "[nrm2],[dot]" > $x/test_$c.txt 2>&1; echo "test cfg $c rc $? $(tail -2 $x/test_$c.txt | head -1)"
done
for r in 1 2; do for c in q 2; do for d in uniform wide; do
  EXSTAR_CUDA_SUMSQ_CFG=$c timeout 60 $D --min-log 24 --max-log 27 --reps 20 --data $d --label cfg$c > $x/bench_${c}_${d}_$r.csv 2>&1
  echo "bench $r cfg $c $d: $(grep nrm2 $x/bench_${c}_${d}_$r.csv | grep cfg | awk -F, '{printf "%s %s  ", $2, $NF}')"
done; done; done
grep nrm2 $x/bench_2_uniform_1.csv | grep cublas
echo "t $(( $(date +%s)-t0 ))s"
for c in q 2; do
  EXSTAR_CUDA_SUMSQ_CFG=$c timeout 100 /usr/local/cuda/bin/ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section InstructionStats --section SourceCounters -k regex:sumsq --launch-count 1 $D --min-log 27 --max-log 27 --reps 1 > $x/ncu_$c.txt 2>&1
  echo "ncu $c rc $?"; grep -E "Duration|DRAM Throughput|SM Freq|Active Threads|No Eligible|Executed Instructions  " $x/ncu_$c.txt
done
echo "t $(( $(date +%s)-t0 ))s"
cd $out && tar czf x.tgz x && rm -rf x
