#!/usr/bin/env bash
# On the nvidia-h100-x4 device machine, from the repository root, with the prepared .gpu bundle:
#   bash bench/results/h100x4-2026-11-27/mpi-tiles/run-pinned.sh
# exstar_bench_mpi_lu --tiles (tiles now from starpu_malloc: pinned), exact LU only, n = 32768,
# nb 512: 1 rank x 1 GPU, 1 rank x 4 GPUs, 4 ranks x 1 GPU with Open MPI's default shared-memory
# copies and with the vader BTL's single-copy mechanism forced to CMA and to none; worker stats.
set -uo pipefail
root=$(pwd); dir=.gpu; out=${OUT:-/tmp/out}; T0=$SECONDS
. "$root/scripts/gpu-env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=$root/.gpu/build/bench/exstar_bench_mpi_lu
log() { echo "[$(date -u +%T) +$((SECONDS-T0))s] $*" | tee -a "$out/steps.txt"; }
ompi_info --param btl vader --level 9 2>&1 | grep -i -A3 'single_copy' > "$out/vader.txt"
run() { # label np gpus-per-rank n timeout [env...]
  local label=$1 np=$2 g=$3 n=$4 lim=$5; shift 5
  local s=$SECONDS ids='$OMPI_COMM_WORLD_LOCAL_RANK'
  [ "$g" -gt 1 ] && ids='0 1 2 3'
  log "start $label np=$np g=$g n=$n $*"
  echo "## $label np=$np gpus/rank=$g n=$n env: $*" >> "$out/lu.txt"
  env "$@" timeout -k 10 "$lim" mpirun -np "$np" --bind-to none bash -c \
    "STARPU_WORKERS_CUDAID=\"$ids\" exec stdbuf -oL \"\$0\" \"\$@\"" \
    "$B" --tiles --ncuda "$g" --n "$n" --nb 512 --reps 1 --only exact >> "$out/lu.txt" 2>&1
  log "end $label rc=$? wall=$((SECONDS-s))s"
}
run one-gpu 1 1 32768 90
run one-rank-4gpu 1 4 32768 90
run 4ranks-default 4 1 32768 90
run 4ranks-cma 4 1 32768 90 OMPI_MCA_btl_vader_single_copy_mechanism=cma
run 4ranks-none 4 1 32768 90 OMPI_MCA_btl_vader_single_copy_mechanism=none
run 4ranks-stats 4 1 32768 90 STARPU_PROFILING=1 STARPU_WORKER_STATS=1 STARPU_BUS_STATS=1
log done
