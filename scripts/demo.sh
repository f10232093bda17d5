#!/usr/bin/env bash
# The demo: installs what is needed, builds, then solves an ill-conditioned problem on every
# back end present, shows that the bits agree, and shows plain double beside it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${EXSTAR_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh" > "$build.log" 2>&1 || { tail -n 30 "$build.log"; exit 1; }
exec bash "$root/examples/demo.sh" "$build/examples/exstar"
