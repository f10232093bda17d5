#!/usr/bin/env bash
# Runs exstar's GPU benchmarks on the machine with the GPU and writes their CSVs and logs:
#   OUT/cuda_dot.csv     cuda_dot_bench: exact dot vs cublasDdot vs a device copy (no StarPU)
#   OUT/cuda_gemv.csv    cuda_gemv_bench: exact gemv kernels vs cublasDgemv, bits vs the CPU kernels
#   OUT/gpu_bench.csv    gpu_bench: gemv N/T, trsv, getrf: exact vs cuBLAS / cuSOLVER, plain LU graph
#   OUT/gpu-all.csv      both, one header (op,n,backend,implementation,seconds,GBps)
#   OUT/*.log            stderr of each (device, checks, ratio summary); OUT/gpu-info.txt the setting
#   OUT/gpu-all.png      the plot (bench/plot.sh), when gnuplot is there
#
#   scripts/gpu-bench.sh OUT [--build-dir DIR] [--quick] [--dot-max-log K] [-- gpu_bench options...]
#
#   --build-dir DIR   exstar build tree built against the CUDA StarPU (default <repo>/build-gpu/exstar)
#   --quick           small sizes (a check that everything runs: about a minute)
#   --dot-max-log K   largest dot n = 2^K (default 27)
#   after --           passed on to gpu_bench (e.g. --lu-max-log 12 --lu-reps 3; see gpu_bench --help)
#
# StarPU: STARPU_NCPU=0 and STARPU_NCUDA=1 (gpu_bench --ncpu 0): the LU and trsv graphs run on the
# CUDA worker alone, so no CPU worker takes tasks; STARPU_SILENT=1. Scheduler eager (gpu_bench --sched).
# The binaries must find libstarpu-1.3 with CUDA (on the lent GPU machine: source the bundle's env.sh,
# see scripts/bundle-gpu.sh).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 OUT [--build-dir DIR] [--quick] [--dot-max-log K] [-- gpu_bench options]" >&2; exit 2; }
out=$1; shift
build="$root/build-gpu/exstar"
quick=0
dot_max=27
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) build=${2:?}; shift 2 ;;
    --quick) quick=1; shift ;;
    --dot-max-log) dot_max=${2:?}; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "gpu-bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
dot="$build/bench/cuda/cuda_dot_bench"
gpu="$build/bench/cuda/gpu_bench"
gemv="$build/bench/cuda/cuda_gemv_bench"
for b in "$dot" "$gpu" "$gemv"; do [ -x "$b" ] || { echo "gpu-bench.sh: $b not built" >&2; exit 1; }; done

mkdir -p "$out"
export STARPU_SILENT=1 STARPU_NCPU=0 STARPU_NCUDA=1
dot_args=(--max-log "$dot_max")
gpu_args=(--ncpu 0)
if [ $quick = 1 ]; then
  dot_args=(--min-log 20 --max-log 22 --reps 3)
  gpu_args+=(--max-log 12 --reps 3 --lu-min-log 8 --lu-max-log 10 --lu-reps 2)
fi
{
  echo "# exstar GPU benchmarks, $(date -Is), host $(hostname)"
  echo "# git: $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
  echo "# STARPU_NCPU=$STARPU_NCPU STARPU_NCUDA=$STARPU_NCUDA STARPU_SILENT=1"
  echo "# cuda_dot_bench ${dot_args[*]}"
  echo "# gpu_bench ${gpu_args[*]} ${extra[*]}"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>/dev/null || true
} | tee "$out/gpu-info.txt"

"$dot" "${dot_args[@]}" > "$out/cuda_dot.csv" 2> "$out/cuda_dot.log"
echo "gpu-bench.sh: cuda_dot_bench done ($(($(wc -l < "$out/cuda_dot.csv") - 1)) rows)"
status=0
gemv_args=()
[ $quick = 1 ] && gemv_args=(--max-log 12 --reps 3)
"$gemv" "${gemv_args[@]}" > "$out/cuda_gemv.csv" 2> "$out/cuda_gemv.log" ||
  { status=$?; echo "gpu-bench.sh: cuda_gemv_bench exited with $status (see $out/cuda_gemv.log)" >&2; }
grep -E 'bit check|ratio' "$out/cuda_gemv.log" || true
"$gpu" "${gpu_args[@]}" "${extra[@]}" --csv "$out/gpu_bench.csv" > /dev/null 2> "$out/gpu_bench.log" ||
  { status=$?; echo "gpu-bench.sh: gpu_bench exited with $status (see $out/gpu_bench.log)" >&2; }
grep '^# ' "$out/gpu_bench.log" | sed -n '/# summary:/,$p'

head -n1 "$out/cuda_dot.csv" > "$out/gpu-all.csv"
for f in "$out/cuda_dot.csv" "$out/cuda_gemv.csv" "$out/gpu_bench.csv"; do [ -f "$f" ] && tail -n +2 "$f" >> "$out/gpu-all.csv"; done
if command -v gnuplot >/dev/null; then
  "$root/bench/plot.sh" "$out/gpu-all.csv" "$out/gpu-all.png" --title "exstar GPU benchmarks" || true
fi
echo "gpu-bench.sh: wrote $out/gpu-all.csv ($out/*.log, $out/gpu-info.txt)"
exit $status
