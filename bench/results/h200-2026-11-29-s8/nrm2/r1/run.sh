#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
D=$root/$dir/build/bench/cuda/cuda_dot_bench
x=$out/x
nvidia-smi -L > $x/device.txt; nvidia-smi -q -d CLOCK | head -40 >> $x/device.txt
CU=/usr/local/cuda/bin
$CU/cuobjdump -sass -fun '_ZN38_GLOBAL__N__b56e03d7_6_dot_cu_2f9d98e718sumsq_pairs_kernelILi1ELb1EEEvxPK7double2PKdixxPx' $D > $x/sass_sumsq.txt 2>&1 || $CU/cuobjdump -sass $D > $x/sass_all.txt 2>&1
wc -l $x/sass_*.txt
timeout 60 $D --min-log 27 --max-log 27 --reps 10 > $x/dot_nrm2.csv 2>&1; grep -E "nrm2|dot" $x/dot_nrm2.csv | head
timeout 200 $CU/ncu --set full -k regex:"sumsq_pairs|dot_pairs" --launch-count 2 $D --min-log 27 --max-log 27 --reps 1 > $x/ncu_full.txt 2>&1
echo "ncu rc $?"; grep -E "Duration|Memory Throughput|DRAM Throughput|Issue Slots|Executed Ipc|Registers Per|Achieved Occupancy|Theoretical Occupancy|No Eligible|Stall|One or More" $x/ncu_full.txt | head -60
cd $out && tar czf x.tgz x && rm -rf x
