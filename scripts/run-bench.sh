#!/usr/bin/env bash
# Builds exstar's CPU benchmarks (if needed), runs them, and writes
#   bench/results/<machine>-<date>.csv   all rows: op,n,backend,implementation,seconds,GBps
#   bench/results/<machine>-<date>.png   the plot (bench/plot.sh)
#   bench/results/<machine>-<date>.txt   the benchmarks' stdout (settings, ratios to OpenBLAS)
# Results stay out of git (bench/results/.gitignore) except the checked-in sample.
#
#   scripts/run-bench.sh [--cores C] [--max-log2n K] [--l2-max-log2n K] [--reps R] [--sched NAME]
#                        [--label NAME] [--build-dir DIR] [--out DIR] [--jobs J]
#                        [--lu-max-log2n K] [--lu-budget S]
#
#   --cores C      StarPU CPU workers and OpenBLAS threads (default: 2, or nproc when smaller)
#   --max-log2n K  largest dot size 2^K (default 25; 27 needs 2 GiB for x and y)
#   --l2-max-log2n K  largest gemv/trsv size 2^K (default 14: n = 16384, A takes 2 GiB)
#   --reps R       timed runs per point, median kept (default 10)
#   --sched NAME   StarPU scheduler (default eager)
#   --label NAME   <machine> part of the file names (default: short host name)
#   --build-dir    build tree (default <repo>/build-bench, configured Release if absent)
#   --out DIR      result folder (default <repo>/bench/results)
#   --jobs J       parallel build jobs (default 2)
#   --lu-max-log2n K  largest LU size 2^K (default 11: n = 512 .. 2048; the exact LU takes minutes
#                  per call at 2048 on 2 cores, so exstar_bench_lu cuts its timed rounds to
#                  --lu-budget seconds per size)
#   --lu-budget S  seconds of timed rounds per LU size (default 300; 0: all --reps rounds)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cores=2
[ "$(nproc)" -lt "$cores" ] && cores=$(nproc)
max_log2n=25
l2_max_log2n=14
reps=10
sched=eager
label=$(hostname -s 2>/dev/null || echo machine)
build="$root/build-bench"
out="$root/bench/results"
jobs=2
lu_max_log2n=11
lu_budget=300

while [ $# -gt 0 ]; do
  case $1 in
    --cores) cores=${2:?}; shift 2 ;;
    --max-log2n) max_log2n=${2:?}; shift 2 ;;
    --l2-max-log2n) l2_max_log2n=${2:?}; shift 2 ;;
    --reps) reps=${2:?}; shift 2 ;;
    --sched) sched=${2:?}; shift 2 ;;
    --label) label=${2:?}; shift 2 ;;
    --build-dir) build=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --jobs) jobs=${2:?}; shift 2 ;;
    --lu-max-log2n) lu_max_log2n=${2:?}; shift 2 ;;
    --lu-budget) lu_budget=${2:?}; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run-bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

# ---- build --------------------------------------------------------------------------------
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DEXSTAR_BUILD_TESTS=OFF
fi
targets=(exstar_bench_dot)
for op in gemv trsv lu; do
  [ -f "$root/bench/bench_$op.cpp" ] && targets+=("exstar_bench_$op")
done
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

# ---- run ------------------------------------------------------------------------------------
mkdir -p "$out"
base="$out/$label-$(date +%Y%m%d-%H%M%S)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export STARPU_SILENT=1
common=(--cores "$cores" --reps "$reps" --sched "$sched")
{
  echo "# exstar CPU benchmarks on $(hostname) ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'))"
  echo "# $(date -Is), $(nproc) CPUs online, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# git: $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
} | tee "$base.txt"

bench="$build/bench"
"$bench/exstar_bench_dot" "${common[@]}" --max-log2n "$max_log2n" --csv "$tmp/dot.csv" | tee -a "$base.txt"
# The Level 2 benchmarks: n = 1024 .. 2^l2_max_log2n; LU: n = 512 .. 2^lu_max_log2n, with a
# time budget per size (exact LU vs the plain-double graph vs OpenBLAS's LAPACK dgetrf).
for op in gemv trsv lu; do
  if [ -x "$bench/exstar_bench_$op" ]; then
    sizes=(--max-log2n "$l2_max_log2n")
    [ "$op" = lu ] && sizes=(--max-log2n "$lu_max_log2n" --ref-log2n "$lu_max_log2n" --budget "$lu_budget")
    "$bench/exstar_bench_$op" "${common[@]}" "${sizes[@]}" --csv "$tmp/$op.csv" | tee -a "$base.txt"
  fi
done

# Which copy of the hot CPU kernels ran (kernels_cpu/isa.cpp: AVX-512 or the baseline build).
isa_line=$(grep -m1 '^CPU kernels:' "$base.txt" || echo "CPU kernels: unknown")
echo "# ${isa_line} (EXSTAR_CPU_ISA=${EXSTAR_CPU_ISA:-unset})" | tee -a "$base.txt"

# One CSV: the header once, then every benchmark's rows.
head -n1 "$tmp/dot.csv" > "$base.csv"
for f in "$tmp"/*.csv; do tail -n +2 "$f" >> "$base.csv"; done
"$root/bench/plot.sh" "$base.csv" "$base.png" --title "exstar CPU benchmarks, $label, $cores cores"
echo "run-bench.sh: wrote $base.csv $base.png $base.txt"
