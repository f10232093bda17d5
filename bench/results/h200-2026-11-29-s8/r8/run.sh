#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r8; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
x=$out/x; t0=$(date +%s)
nvidia-smi -L > $x/device.txt
mkdir -p $root/build-gpu && rm -rf $root/build-gpu/exstar && ln -s $root/$dir/build $root/build-gpu/exstar
(cd $root/build-gpu/exstar && timeout 400 ctest -j4 -R "cuda|gpu" --timeout 350 --output-on-failure > $x/ctest.log 2>&1)
echo "ctest rc $? $(( $(date +%s)-t0 ))s"; grep -E "tests passed|Failed|\*\*\*|Timeout|Not Run" $x/ctest.log | tail -n 20
cd $out && tar czf x.tgz x && rm -rf x
