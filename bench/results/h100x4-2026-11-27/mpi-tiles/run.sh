#!/usr/bin/env bash
# On the nvidia-h100-x4 device machine, from the repository root, with the prepared .gpu bundle carried:
#   LIMIT=560 bash bench/results/h100x4-2026-11-27/mpi-tiles/run.sh
# exstar_bench_mpi_lu --tiles: every rank generates its own tiles (entry (i, j) from a hash of
# i + j n) and exstar_mpi_dgetrf_tiles factors them in place; fingerprint over the tiles' hashes.
#   n = 32768, nb 512: 1 rank x 1 GPU, 4 ranks x 1 GPU (exact and plain-tiled)
#   n = 65536, nb 512: 4 ranks x 1 GPU, then 1 rank x 4 GPUs (exact only): two configurations
#   then, with time left: n = 32768 on 2 ranks x 1 GPU and 1 rank x 4 GPUs.
# Outputs in $OUT: device.txt, steps.txt, lu.txt (CSV rows + fingerprints), mem.txt.
set -uo pipefail
root=$(pwd); dir=.gpu; out=${OUT:-/tmp/out}
T0=$SECONDS; LIMIT=${LIMIT:-560}
. "$root/scripts/gpu-env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=$root/$dir/build/bench/exstar_bench_mpi_lu
log() { echo "[$(date -u +%T) +$((SECONDS-T0))s] $*" | tee -a "$out/steps.txt"; }
{ nvidia-smi -L; lscpu | grep 'Model name'; echo "nproc $(nproc)"; free -g | head -2; nvidia-smi topo -m; } > "$out/device.txt" 2>&1
ldd "$B" | grep -i 'not found' | tee -a "$out/steps.txt"
( while :; do echo "$(date -u +%T) $(nvidia-smi --query-gpu=memory.used --format=csv,noheader | tr '\n' ' ')"; sleep 5; done ) >> "$out/mem.txt" 2>&1 &
mon=$!
hdr=--header
run() { # np gpus-per-rank n timeout extra...
  local np=$1 g=$2 n=$3 lim=$4; shift 4
  local left=$((LIMIT - 20 - (SECONDS - T0)))
  if [ "$left" -lt 60 ]; then log "skip np=$np g=$g n=$n: $left s left"; return; fi
  [ "$lim" -gt "$left" ] && lim=$left
  local s=$SECONDS ids='$OMPI_COMM_WORLD_LOCAL_RANK'
  [ "$g" -gt 1 ] && ids='0 1 2 3'
  log "start np=$np gpus/rank=$g n=$n timeout=$lim $*"
  echo "## np=$np gpus/rank=$g: exstar_bench_mpi_lu --tiles --ncuda $g --n $n --nb 512 --reps 1 $*" >> "$out/lu.txt"
  timeout -k 10 "$lim" mpirun -np "$np" --bind-to none bash -c \
    "STARPU_WORKERS_CUDAID=\"$ids\" exec stdbuf -oL \"\$0\" \"\$@\"" \
    "$B" --tiles --ncuda "$g" --n "$n" --nb 512 --reps 1 $hdr "$@" >> "$out/lu.txt" 2>&1
  log "end np=$np g=$g n=$n rc=$? wall=$((SECONDS-s))s"; hdr=
}
run 1 1 32768 120
run 4 1 32768 120
run 4 1 65536 200 --only exact
run 1 4 65536 200 --only exact
run 2 1 32768 100
run 1 4 32768 100
kill "$mon" 2>/dev/null
log done
