#!/usr/bin/env bash
# Strong scaling of the distributed exact LU (and of the same graph in plain double) over
# StarPU-MPI on this machine: 1..P processes, one CPU worker each, one n.
#
#   bench/mpi_scaling.sh [--n N] [--nb NB] [--max-np P] [--reps R] [--build-dir DIR] [--out DIR] [--label NAME]
#
# Writes <out>/<label>-mpi-<date>.csv (ranks,n,nb,implementation,seconds,bytes_sent_max_rank,
# bytes_sent_total), .png (seconds and bytes against ranks) and .txt (settings, machine).
# On a machine with fewer cores than processes the processes share cores (--oversubscribe):
# the times then show the cost of the communication, not a speed-up.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
n=1024 nb=128 maxnp=4 reps=3 build="$root/build" out="$root/bench/results"
label=$(hostname -s 2>/dev/null || echo machine)
while [ $# -gt 0 ]; do
  case $1 in
    --n) n=$2; shift 2 ;;
    --nb) nb=$2; shift 2 ;;
    --max-np) maxnp=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    *) sed -n '2,12p' "$0"; exit 2 ;;
  esac
done
bin="$build/bench/exstar_bench_mpi_lu"
[ -x "$bin" ] || { echo "mpi_scaling.sh: $bin not built (needs Open MPI and StarPU-MPI)" >&2; exit 1; }
mkdir -p "$out"
base="$out/$label-mpi-$(date +%Y-%m-%d)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export STARPU_SILENT=1
{
  echo "exstar distributed LU, strong scaling: n = $n, nb = $nb, $reps runs per point (median), one CPU worker per process"
  echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(mpirun --version | head -1)"
} | tee "$base.txt"
header=--header
: >"$base.csv"
for ((np = 1; np <= maxnp; np++)); do
  timeout 3600 mpirun --oversubscribe -np "$np" "$bin" --n "$n" --nb "$nb" --reps "$reps" $header \
    2>>"$base.txt" | tee -a "$base.csv"
  header=
done
# the ratio exact / plain-tiled at each number of processes
awk -F, 'NR > 1 { t[$1","$4] = $5; r[$1] = 1 } END { for (p in r) printf "ranks %s: exact / plain-tiled = %.1fx\n", p, t[p",exact"] / t[p",plain-tiled"] }' \
  "$base.csv" | sort | tee -a "$base.txt"
if command -v gnuplot >/dev/null; then
  gnuplot <<GP
set terminal pngcairo size 1100,450
set output "$base.png"
set datafile separator ","
set multiplot layout 1,2 title "distributed LU, n = $n, nb = $nb ($label)"
set xlabel "MPI processes"; set xtics 1; set key top left
set ylabel "seconds (median)"; set logscale y
plot "< grep ',exact,' $base.csv" using 1:5 with linespoints title "exact", \
     "< grep ',plain-tiled,' $base.csv" using 1:5 with linespoints title "plain-tiled"
set ylabel "MB sent by the busiest rank"; unset logscale y
plot "< grep ',exact,' $base.csv" using 1:(\$6/1e6) with linespoints title "exact", \
     "< grep ',plain-tiled,' $base.csv" using 1:(\$6/1e6) with linespoints title "plain-tiled"
unset multiplot
GP
fi
echo "wrote $base.csv $base.png $base.txt"
