#!/usr/bin/env bash
# Installs the dependencies (Debian packages) and builds exstar into ${EXSTAR_BUILD_DIR:-build}.
# Used by scripts/demo.sh and scripts/test.sh; extra arguments go to cmake's configure step.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${EXSTAR_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build" -j "$(nproc)"
