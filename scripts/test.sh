#!/usr/bin/env bash
# Installs what is needed, builds, and runs the whole test suite with ctest.
# Back ends this machine lacks (CUDA without a GPU, OpenCL without an ICD) show as skipped.
# Heavy sweeps carry the ctest label "heavy" and run with EXSTAR_HEAVY=1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${EXSTAR_BUILD_DIR:-$root/build}
# Debian's lapack source (the reference BLAS testers of tests/blas) before the configure step
# looks for it; without it those tests show as skipped, with the reason
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/fetch-lapack-source.sh" >/dev/null ||
  echo "test.sh: Debian's lapack source could not be fetched: the reference BLAS testers will be skipped" >&2
bash "$root/scripts/build.sh"
cd "$build"
exclude=(-LE heavy)
[ "${EXSTAR_HEAVY:-0}" = 1 ] && exclude=()
ctest --output-on-failure --timeout 1200 "${exclude[@]}"
