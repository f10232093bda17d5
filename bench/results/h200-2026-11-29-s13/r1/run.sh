# session 13, r1: the CPU fast sums' fix (8f68dc7) on the host's AVX-512 Xeon under both ISAs,
# then the whole CUDA ctest suite
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x; . scripts/gpu-env.sh >/dev/null 2>&1
lscpu | grep -E "Model name|Flags" | cut -c1-200 > $out/x/cpu.txt
T=$root/$dir/build/tests/level3/test_level3_kernels
for isa in default baseline; do
  if [ $isa = default ]; then $T > $out/x/level3-$isa.txt 2>&1; else EXSTAR_CPU_ISA=baseline $T > $out/x/level3-$isa.txt 2>&1; fi
  echo "level3 kernels ($isa): rc $? $(tail -2 $out/x/level3-$isa.txt | tr '\n' ' ')"
done
mkdir -p $root/build-gpu && ln -sfn $root/$dir/build $root/build-gpu/exstar
(cd $root/$dir/build && timeout 300 ctest -j4 -R "cuda|gpu" > $out/x/ctest.txt 2>&1); tail -12 $out/x/ctest.txt
cd $out && tar czf x.tgz x && rm -rf x
