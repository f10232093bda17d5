#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r3; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
# one panel (K = 0) and one U block row alone on the GPU, median of 5
tk() { tag=$1; envs=$2; env $envs EXSTAR_LU_TIME="$3 1024" timeout 100 $T "[.time]" > $x/time_$tag.txt 2>&1; echo "$tag rc $? $(( $(date +%s)-t0 ))s: $(grep -E '^(panel|urow|panel trace)' $x/time_$tag.txt | cut -c1-200 | tr '\n' ' ')"; }
tk m16k_b66 X=1 16384
tk m16k_b44 EXSTAR_CUDA_PANEL_BLOCKS=44 16384
tk m16k_b132 EXSTAR_CUDA_PANEL_BLOCKS=132 16384
tk m16k_b44_g0 "EXSTAR_CUDA_PANEL_BLOCKS=44 EXSTAR_CUDA_PANEL_GEMM_COLS=0" 16384
tk m16k_b44_trace "EXSTAR_CUDA_PANEL_BLOCKS=44 EXSTAR_CUDA_PANEL_TRACE=1" 16384
tk m2k_b44 EXSTAR_CUDA_PANEL_BLOCKS=44 2048
tk m2k_b44_trace "EXSTAR_CUDA_PANEL_BLOCKS=44 EXSTAR_CUDA_PANEL_TRACE=1" 2048
# the kernels of the whole LU on one stream at 32768
EXSTAR_LU_TIME="32768 1024" timeout 200 $T "[.timelu]" > $x/timelu32.txt 2>&1
echo "timelu32 rc $? $(( $(date +%s)-t0 ))s"; grep -h "one stream" $x/timelu32.txt
cd $out && tar czf x.tgz x && rm -rf x
