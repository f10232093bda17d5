# session 13, r3 (nvidia-h200-x2, the host of r2): the tile edge on 2 GPUs, exact LU at home, GPUs alone
root=$PWD; dir=.gpu; out=$OUT/r3; mkdir -p $out/x; . scripts/gpu-env.sh >/dev/null 2>&1; x=$out/x
B=$root/$dir/build/bench/cuda/gpu_bench
for s in "32768 2048" "32768 1536" "32768 1024" "16384 1024" "16384 768" "16384 512"; do set -- $s
  timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 2 --lu-reps 1 --lu-runs exact \
    --lu-sizes $1 --lu-nbs $2 > $x/lu-$1-$2.txt 2>&1
  echo "n $1 nb $2 rc $?: $(grep -iE '^# getrf' $x/lu-$1-$2.txt | tr '\n' ' ')"
done
cd $out && tar czf x.tgz x && rm -rf x
