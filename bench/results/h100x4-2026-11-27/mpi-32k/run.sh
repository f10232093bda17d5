#!/usr/bin/env bash
# On the nvidia-h100-x4 device machine, from the repository root, with the prepared .gpu bundle carried:
#   bash bench/results/h100x4-2026-11-27/mpi-32k/run.sh
# exstar_bench_mpi_lu --cuda (exact and plain-tiled), one GPU a rank, under the bundled Open MPI:
# n = 32768 on 1, 2, 4 ranks (timeout 150 s each), then n = 65536 on 4 ranks if the call's
# time allows (LIMIT s for the whole script, 60 s margin, at most 240 s).
# Outputs in $OUT: device.txt, steps.txt (timeline), lu32k.txt (CSV rows + fingerprints),
# lu65k.txt, mem.txt (nvidia-smi memory.used every 5 s during all runs).
set -uo pipefail
root=$(pwd); dir=.gpu; out=${OUT:-/tmp/out}
T0=$SECONDS; LIMIT=${LIMIT:-560}; SIZES=${SIZES:-32768}; BIG=${BIG:-65536}; NPS=${NPS:-1 2 4}
. "$root/scripts/gpu-env.sh"          # unpacks .gpu/build.tar.xz, bundle + Open MPI + build on LD_LIBRARY_PATH, STARPU_SILENT=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=$root/$dir/build/bench/exstar_bench_mpi_lu
log() { echo "[$(date -u +%T) +$((SECONDS-T0))s] $*" | tee -a "$out/steps.txt"; }
{ nvidia-smi -L; lscpu | grep 'Model name'; echo "nproc $(nproc)"; free -g | head -2
  nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv; nvidia-smi topo -m; } > "$out/device.txt" 2>&1
log "unpacked; STARPU_SILENT=$STARPU_SILENT; mpirun=$(command -v mpirun)"
ldd "$B" | grep -i 'not found' | tee -a "$out/steps.txt"
( while :; do echo "$(date -u +%T) $(nvidia-smi --query-gpu=memory.used --format=csv,noheader | tr '\n' ' ')"; sleep 5; done ) >> "$out/mem.txt" 2>&1 &
mon=$!
hdr=--header
runlu() { # ranks n timeout file
  local np=$1 n=$2 lim=$3 f=$4 s=$SECONDS rc
  log "start np=$np n=$n timeout=$lim"
  echo "## mpirun -np $np --bind-to none bash -c 'STARPU_WORKERS_CUDAID=\$OMPI_COMM_WORLD_LOCAL_RANK exec stdbuf -oL exstar_bench_mpi_lu --cuda --n $n --nb 512 --reps 1 $hdr'" >> "$out/$f"
  timeout -k 10 "$lim" mpirun -np "$np" --bind-to none bash -c \
    'STARPU_WORKERS_CUDAID=$OMPI_COMM_WORLD_LOCAL_RANK exec stdbuf -oL "$0" "$@"' \
    "$B" --cuda --n "$n" --nb 512 --reps 1 $hdr >> "$out/$f" 2>&1
  rc=$?; hdr=
  log "end np=$np n=$n rc=$rc wall=$((SECONDS-s))s"
}
for n in $SIZES; do for np in $NPS; do runlu "$np" "$n" 150 lu32k.txt; done; done
left=$((LIMIT - 60 - (SECONDS - T0))); [ "$left" -gt 240 ] && left=240
if [ "$left" -ge 120 ]; then hdr=--header; runlu 4 "$BIG" "$left" lu65k.txt
else log "skip n=$BIG: only $left s left"; fi
kill "$mon" 2>/dev/null
log done
