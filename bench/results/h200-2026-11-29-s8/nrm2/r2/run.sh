#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r2; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
D=$root/$dir/build/bench/cuda/cuda_dot_bench
T=$root/$dir/build/tests/kernels_cuda/test_cuda_kernels
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
for c in 2 8 9 a b c 5 6; do
  EXSTAR_CUDA_SUMSQ_CFG=$c timeout 60 $T "[nrm2]" > $x/test_$c.txt 2>&1; echo "test cfg $c rc $? $(tail -2 $x/test_$c.txt | head -1)"
done
for c in 2 8 9 a b c 5 6 7; do
  EXSTAR_CUDA_SUMSQ_CFG=$c timeout 60 $D --min-log 24 --max-log 27 --reps 20 --label cfg$c > $x/bench_$c.csv 2>&1
  echo "bench cfg $c: $(grep nrm2 $x/bench_$c.csv | grep exstar | awk -F, '{printf "%s %s  ", $2, $6}')"
done
grep nrm2 $x/bench_2.csv | grep cublas
echo "t $(( $(date +%s)-t0 ))s"
for c in 8 c; do
  EXSTAR_CUDA_SUMSQ_CFG=$c timeout 100 /usr/local/cuda/bin/ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section InstructionStats -k regex:sumsq --launch-count 1 $D --min-log 27 --max-log 27 --reps 1 > $x/ncu_$c.txt 2>&1
  echo "ncu $c rc $?"; grep -E "Duration|DRAM Throughput|Issue Slots|Executed Ipc A|Registers Per|Achieved Occ|No Eligible|Executed Instructions  " $x/ncu_$c.txt
done
echo "t $(( $(date +%s)-t0 ))s"
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 300 ctest -j4 -R "cuda|gpu" --timeout 250 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout|Not Run" $x/ctest.log | tail -n 20
cd $out && tar czf x.tgz x && rm -rf x
