# session 13, r4 (nvidia-h200-x2): the tile edge on 2 GPUs again (LU pairs, alternating) and for
# the Cholesky (at home, GPUs alone), to choose exstar_default_tile's edge on two GPUs
root=$PWD; dir=.gpu; out=$OUT/r4; mkdir -p $out/x; . scripts/gpu-env.sh >/dev/null 2>&1; x=$out/x
B=$root/$dir/build/bench/cuda/gpu_bench
for s in "16384 512" "16384 768" "16384 1024" "16384 768" "32768 1024" "32768 1536" "32768 1024" "32768 1536"; do set -- $s
  timeout 100 $B --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda 2 --lu-reps 1 --lu-runs exact \
    --lu-sizes $1 --lu-nbs $2 >> $x/lu.txt 2>&1
  echo "LU n $1 nb $2 rc $?: $(grep -iE '^# getrf n=[0-9]+ nb' $x/lu.txt | tail -1)"
done
for s in "14 512" "14 768" "14 1024" "15 1024" "15 1536" "15 2048"; do set -- $s
  timeout 100 $B --ncpu 0 --sched default --ops potrf --potrf-runs home --lu-min-log $1 --lu-max-log $1 --lu-reps 1 \
    --ncuda 2 --lu-nbs $2 >> $x/potrf.txt 2>&1
  echo "potrf 2^$1 nb $2 rc $?: $(grep -iE '^# potrf n=' $x/potrf.txt | tail -1)"
done
cd $out && tar czf x.tgz x && rm -rf x
