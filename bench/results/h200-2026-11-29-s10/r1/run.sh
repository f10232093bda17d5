#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt; lscpu | grep 'Model name' >> $x/device.txt
# one panel (K = 0) alone on the GPU, median of 5, by rows and blocks
for m in 2048 4096 8192 16384; do
  for b in 8 16 22 33 44 66 132; do
    r=$(EXSTAR_CUDA_PANEL_BLOCKS=$b EXSTAR_LU_TIME="$m 1024" timeout 60 $T "[.time]" 2>&1 | grep -E '^(panel|urow)' | tr '\n' ' ')
    echo "m $m blocks $b: $r" | tee -a $x/sweep.txt
  done
done
echo "sweep done $(( $(date +%s)-t0 ))s"
for b in 11 44; do
  EXSTAR_CUDA_PANEL_BLOCKS=$b EXSTAR_CUDA_PANEL_TRACE=1 EXSTAR_LU_TIME="2048 1024" timeout 60 $T "[.time]" 2>&1 | grep -E '^(panel)' | tee -a $x/trace2k.txt
done
# the U block row's kernels under Nsight Compute (one U row, K = 0, J = 1)
EXSTAR_LU_TIME="2048 1024" timeout 240 /usr/local/cuda/bin/ncu --kernel-name regex:'subst' --launch-skip 0 --launch-count 16 \
  --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats $T "[.time]" > $x/ncu_urow.txt 2>&1
echo "ncu rc $? $(( $(date +%s)-t0 ))s"
cd $out && tar czf x.tgz x && rm -rf x
