# session 12, r2: the whole CUDA ctest suite at the session's last CUDA change, then the LU and
# the dot/nrm2 benchmark once (the kernels' PTX is unchanged by the refactor; a check)
root=$PWD; dir=.gpu; out=$OUT/r2; mkdir -p $out/x; . scripts/gpu-env.sh >/dev/null 2>&1
B=$root/$dir/build/bench/cuda/gpu_bench
mkdir -p $root/build-gpu && ln -sfn $root/$dir/build $root/build-gpu/exstar
(cd $root/$dir/build && timeout 300 ctest -j4 -R "cuda|gpu" > $out/x/ctest.txt 2>&1); tail -12 $out/x/ctest.txt
timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 1 --lu-reps 1 --lu-runs exact,cusolver --lu-sizes 16384 2>&1 | grep -i "getrf\|fingerprint" | tee $out/x/lu16.txt
D=$root/$dir/build/bench/cuda/cuda_dot_bench; [ -x $D ] && timeout 90 $D --min-log 27 --max-log 27 --reps 10 2>&1 | tail -15 | tee $out/x/dot.txt
cd $out && tar czf x.tgz x && rm -rf x
