# session 13, r2 (nvidia-h200-x2): where 2 GPUs stand with today's code. One process: the exact
# LU at home (n = 16384, 32768) and the exact gemm at home (n = 16384) on 1 and 2 GPUs; then
# StarPU-MPI with a GPU a rank (--tiles: each rank its own tiles), n = 32768, 1 and 2 ranks.
root=$PWD; dir=.gpu; out=$OUT/r2; mkdir -p $out/x; . scripts/gpu-env.sh >/dev/null 2>&1
x=$out/x; T0=$SECONDS
{ nvidia-smi -L; lscpu | grep -m1 "Model name"; nproc; nvidia-smi topo -m; } > $x/device.txt 2>&1; head -3 $x/device.txt
B=$root/$dir/build/bench/cuda/gpu_bench
for g in 1 2; do
  timeout 150 $B --ncpu 0 --sched default --ops lutiled --lu-home device --ncuda $g --lu-reps 1 --lu-runs exact \
    --lu-sizes 16384,32768 --csv $x/lu-g$g.csv > $x/lu-g$g.txt 2>&1
  echo "LU $g GPU(s) rc $?: $(grep -iE '^# getrf|fnv|fingerprint' $x/lu-g$g.txt | tr '\n' ' ')"
done
for g in 1 2; do
  timeout 90 $B --ncpu 0 --sched default --ops gemm --gemm-runs home --gemm-n 16384 --reps 3 --ncuda $g \
    --csv $x/gemm-g$g.csv > $x/gemm-g$g.txt 2>&1
  echo "gemm $g GPU(s) rc $?: $(grep -iE '^# gemm|fnv|fingerprint' $x/gemm-g$g.txt | tr '\n' ' ')"
done
echo "one process done at +$((SECONDS-T0)) s"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=cma
M=$root/$dir/build/bench/exstar_bench_mpi_lu; hdr=--header
mpi() { # np, then bench arguments
  local np=$1; shift; local left=$((500 - (SECONDS - T0)))
  [ $left -lt 60 ] && { echo "skip np=$np $*: $left s left"; return; }
  echo "## np=$np $*" >> $x/mpi.txt
  timeout -k 10 $((left < 150 ? left : 150)) mpirun -np $np --bind-to none bash -c \
    'STARPU_WORKERS_CUDAID=$OMPI_COMM_WORLD_LOCAL_RANK exec "$0" "$@"' $M --tiles --cuda --ncuda 1 --reps 1 $hdr "$@" >> $x/mpi.txt 2>&1
  echo "mpi np=$np $* rc $? at +$((SECONDS-T0)) s"; hdr=
}
mpi 1 --n 32768
mpi 2 --n 32768 --nb 1024
mpi 2 --n 32768
grep -E "^[0-9]|fnv" $x/mpi.txt
cd $out && tar czf x.tgz x && rm -rf x
