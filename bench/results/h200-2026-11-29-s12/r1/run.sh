# session 12, r1: the first panel on half the GPU (K == 0: nothing beside it); LU tests on the GPU,
# then new and old libexstar alternating on n = 16384 and 32768 (tiles at home, GPU alone)
root=$PWD; dir=.gpu; out=$OUT/r1; mkdir -p $out/x; . scripts/gpu-env.sh >/dev/null 2>&1
LD_LIBRARY_PATH0=$LD_LIBRARY_PATH
B=$root/$dir/build/bench/cuda/gpu_bench
mkdir -p $root/$dir/old && xz -dc $root/$dir/old/libexstar.so.0.xz > $root/$dir/old/libexstar.so.0
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv > $out/x/gpu.txt; lscpu | grep 'Model name' >> $out/x/gpu.txt
mkdir -p $root/build-gpu && ln -sfn $root/$dir/build $root/build-gpu/exstar
(cd $root/$dir/build && timeout 200 ctest -j4 -R "lu.*cuda|cuda.*lu|potrf.*cuda|cli_lu_cuda" > $out/x/ctest.txt 2>&1); tail -4 $out/x/ctest.txt
lu() { timeout 150 $B --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 --lu-runs exact$2 --lu-sizes $1 2>&1 | grep -i "getrf\|fingerprint" ; }
for rep in 1 2; do
  for v in new old; do
    if [ $v = old ]; then export LD_LIBRARY_PATH=$root/$dir/old:$LD_LIBRARY_PATH0; else export LD_LIBRARY_PATH=$LD_LIBRARY_PATH0; fi
    echo "== $v 16384 rep $rep"; lu 16384 ",cusolver"
  done
done 2>&1 | tee $out/x/lu16.txt
for v in new old new old; do
  if [ $v = old ]; then export LD_LIBRARY_PATH=$root/$dir/old:$LD_LIBRARY_PATH0; else export LD_LIBRARY_PATH=$LD_LIBRARY_PATH0; fi
  echo "== $v 32768"; lu 32768 ""
done 2>&1 | tee $out/x/lu32.txt
cd $out && tar czf x.tgz x && rm -rf x
