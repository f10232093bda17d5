#!/usr/bin/env bash
# Prepares a GPU run from this (GPU-less) machine: builds StarPU with CUDA if needed, builds exstar
# against it in build-gpu/exstar, and puts into DIR (default .gpu) a slim copy of that build tree
# (no object files) and the bundle of libraries a bare GPU machine lacks. Carry DIR there and run
# scripts/gpu-test.sh DIR OUT (and scripts/gpu-bench.sh) from the repository root.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/.gpu}
cd "$root"
[ -f build-gpu/starpu/lib/pkgconfig/starpu-1.3.pc ] || bash scripts/build-starpu-cuda.sh
# pkg_check_modules keeps what it found in the cache: a configure that once ran without this
# PKG_CONFIG_PATH found Debian's CPU-only StarPU, and every later one reused it (the bundle then
# ran a build compiled for one StarPU on the other: every runtime test crashed, 2026-11-27). So
# the StarPU lookups are dropped from the cache and done again each time, and the result checked.
PKG_CONFIG_PATH=$root/build-gpu/starpu/lib/pkgconfig cmake -S . -B build-gpu/exstar -DCMAKE_BUILD_TYPE=Release \
  -U 'EXSTAR_STARPU*' -U '__pkg_config_checked_EXSTAR_STARPU*' -U 'pkgcfg_lib_EXSTAR_STARPU*'
prefix=$(sed -n 's/^EXSTAR_STARPU_PREFIX:INTERNAL=//p' build-gpu/exstar/CMakeCache.txt)
if [ "$prefix" != "$root/build-gpu/starpu" ]; then
  echo "gpu-prepare: build-gpu/exstar found StarPU in '$prefix', not $root/build-gpu/starpu" >&2
  exit 1
fi
cmake --build build-gpu/exstar -j "$(nproc)"
rm -rf "$dir/build" && mkdir -p "$dir/build"
(cd build-gpu/exstar &&
 find . -type d \( -name CMakeFiles -o -name Testing -o -name prefix -o -name consumer-build \) -prune -o \
      \( -type f -o -type l \) ! -name '*.o' ! -name '*.a' ! -path './tests/fuzz/*' -print |
 tar -cf - -T - | (cd "$dir/build" && tar -xf -))
[ -d "$dir/bundle" ] || BUNDLE_XZ=1 bash scripts/bundle-gpu.sh build-gpu/exstar "$dir/bundle"
# Open MPI's launcher and components, when exstar has StarPU-MPI (source bundle/ompi/env.sh there)
[ -f build-gpu/exstar/libexstar_mpi.so ] && [ ! -d "$dir/bundle/ompi" ] && bash scripts/bundle-mpi.sh "$dir/bundle"
# the library under test comes from the build tree (kept current), never from the bundle
rm -f "$dir"/bundle/lib/libexstar.so* "$dir"/bundle/lib/libexstar_mpi.so*
rm -f "$dir"/bundle/lib/libasan.so* "$dir"/bundle/lib/libubsan.so* # the fuzz replays stay here
# the device tool carries 64 MiB at most: the build tree travels as build.tar.xz (the CUDA
# code compresses 3x), which scripts/gpu-unpack.sh unpacks there
rm -f "$dir/build.tar.xz"
tar -C "$dir" -cf - build | xz -T0 -6 > "$dir/build.tar.xz" && rm -rf "$dir/build"
du -sh "$dir"
