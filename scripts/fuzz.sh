#!/usr/bin/env bash
# Fuzzes the MatrixMarket reader for a fixed time: builds tests/fuzz/fuzz_mm_read with clang
# (-fsanitize=fuzzer,address,undefined) into ${EXSTAR_FUZZ_BUILD_DIR:-build-fuzz} and runs it
# for ${1:-${EXSTAR_FUZZ_SECONDS:-60}} seconds from the seed corpus tests/fuzz/corpus and the
# regression inputs tests/fuzz/regressions. Exits non-zero when it finds a crash; the input
# that crashed is left in the build folder (artifacts/) and must be added to
# tests/fuzz/regressions/ with the fix. New interesting inputs go to a temporary folder, never
# into the repository.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${EXSTAR_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-${EXSTAR_FUZZ_SECONDS:-60}}
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/install-fuzz-deps.sh"
# Only the fuzz target is built; the rest of the tree is only configured (CUDA and the
# benchmarks are left out, nvcc would not take clang as its host compiler anyway).
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      -DEXSTAR_FUZZ=ON -DEXSTAR_CUDA=OFF -DEXSTAR_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j 2 --target fuzz_mm_read
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$build/artifacts"
# -rss_limit_mb / -malloc_limit_mb: the reader is given a small size bound
# (tests/fuzz/fuzz_limits.hpp), so more than this is a finding, not a large input.
status=0
"$build/tests/fuzz/fuzz_mm_read" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
  -malloc_limit_mb=256 -max_len=4096 -print_final_stats=1 \
  -dict="$root/tests/fuzz/mm.dict" -artifact_prefix="$build/artifacts/" \
  "$work/corpus" "$root/tests/fuzz/corpus" "$root/tests/fuzz/regressions" || status=$?
if [ "$status" != 0 ]; then
  echo "fuzz.sh: fuzz_mm_read found a problem (exit $status); the input is in $build/artifacts/:" >&2
  ls -1 "$build/artifacts/" >&2
  echo "fuzz.sh: add it to tests/fuzz/regressions/ and fix the reader" >&2
  exit 1
fi
echo "fuzz.sh: no crash in ${seconds} s"
