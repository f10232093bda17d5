# session 13, r5 (one H200; the 2-GPU host was withdrawn): after the substitution's shared-memory
# fix: the Cholesky and U-row CUDA tests, and the Cholesky's tile shape with tiles of 1536 (which
# failed to launch before), n = 16384, at home
root=$PWD; dir=.gpu; out=$OUT/r5; mkdir -p $out/x; . scripts/gpu-env.sh >/dev/null 2>&1; x=$out/x; T0=$SECONDS
mkdir -p $root/build-gpu && ln -sfn $root/$dir/build $root/build-gpu/exstar
(cd $root/$dir/build && timeout 200 ctest -j4 -R "potrf|urow" > $x/ctest.txt 2>&1); grep -E "tests passed|Failed|Timeout" $x/ctest.txt
echo "tests done at +$((SECONDS-T0)) s"
B=$root/$dir/build/bench/cuda/gpu_bench
for nb in 1536 1024; do
  EXSTAR_POTRF_COLUMNS=0 timeout 60 $B --ncpu 0 --sched default --ops potrf --potrf-runs home --lu-min-log 14 --lu-max-log 14 \
    --lu-reps 1 --ncuda 1 --lu-nbs $nb >> $x/potrf.txt 2>&1
  echo "potrf tiles nb $nb rc $?: $(grep -E '^# potrf n=[0-9]+: exstar_dpotrf_desc' $x/potrf.txt | tail -1)"
done
grep -E "fnv1a" $x/potrf.txt | cut -c1-160
echo "done at +$((SECONDS-T0)) s"
cd $out && tar czf x.tgz x && rm -rf x
