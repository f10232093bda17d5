#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r4; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
x=$out/x
nvidia-smi -L > $x/device.txt; lscpu | grep "Model name" >> $x/device.txt
t0=$(date +%s)
lu() { # name ncuda runs env...
  local name=$1 g=$2 runs=$3; shift 3
  env "$@" EXSTAR_TRACE=$x/tr_$name.csv timeout 120 $B --ncpu 0 --sched default --ops lutiled --lu-home device --lu-runs $runs --lu-sizes 16384,32768 --ncuda $g --lu-reps 1 --csv $x/lu_$name.csv > /dev/null 2> $x/lu_$name.txt
  echo "$name rc $? $(( $(date +%s)-t0 ))s"; grep -E "^# getrf" $x/lu_$name.txt | grep -v "(n=" 
  python3 bench/lu_trace.py $x/tr_$name.csv > $x/steps_$name.txt 2>&1; grep -E "chain:" $x/steps_$name.txt
  xz -T0 $x/tr_$name.csv
}
lu g4 4 cusolver,exact,plain X=1
lu g4_before 4 exact EXSTAR_CUDA_CHAIN_WORKER=0 EXSTAR_CUDA_PANEL_GATE=0 STARPU_CUDA_PIPELINE=2
lu g2 2 exact X=1
for p in 1 2; do
  STARPU_CUDA_PIPELINE=$p timeout 60 $B --ncpu 0 --sched default --ops gemm --gemm-runs home --gemm-n 16384 --ncuda 4 --csv $x/gemm_p$p.csv > /dev/null 2> $x/gemm_p$p.txt
  echo "gemm pipeline $p rc $? $(( $(date +%s)-t0 ))s"; grep -E "^# " $x/gemm_p$p.txt | grep -iv "device\|summary" | head -4
done
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 200 ctest -j4 -R "lu_tiled_cuda|lu_desc_cuda|lu_tiled_cpu_cuda|lu_desc_cpu_cuda|cuda_lu_tiled$|cli_lu_cuda|level3_cuda|potrf_cuda" --timeout 190 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout| sec$" $x/ctest.log | tail -n 14
cd $out && tar czf x.tgz x && rm -rf x
