#!/usr/bin/env bash
# On the nvidia-h100-x1 device machine, from the repository root, with the .gpu bundle:
#   bash bench/results/h100-2026-11-27/sched/run.sh
# Which StarPU scheduler a user who sets nothing should get (issue 23): `exstar bench getrf`
# (exact tiled, plain-tiled, LAPACK on the CPU cores) at n = 8192 and 16384, under lws (StarPU's
# default), eager, prio, dmda and dmdas, with exstar's default workers (the GPU + CPU workers) and
# with the GPU alone. The model-based schedulers get one untimed calibration run first.
set -uo pipefail
root=$(pwd); dir=.gpu; out=${OUT:-/tmp/out}; T0=$SECONDS
. "$root/scripts/gpu-env.sh"
tool=$root/.gpu/build/examples/exstar
for n in 8192 16384; do
  for workers in "default" "cuda"; do
    w=(); [ "$workers" = cuda ] && w=(--backend cuda)
    for s in lws eager prio dmda dmdas; do
      case $s in dmda*) STARPU_CALIBRATE=1 timeout 120 "$tool" bench getrf --n $n --reps 1 "${w[@]}" --sched $s >/dev/null 2>&1;; esac
      echo "== n=$n workers=$workers sched=$s (+$((SECONDS-T0))s)"
      timeout 200 "$tool" bench getrf --n $n --reps 3 "${w[@]}" --sched $s 2>&1 | grep -E 'workers|exact|plain|lapack'
    done
  done
done
