#!/usr/bin/env bash
# Gathers the shared libraries that exstar's binaries need on the lent GPU machine, which has
# only glibc/libstdc++ basics and CUDA 13's libraries (no Debian packages, no StarPU, no hwloc,
# no OpenCL ICD loader). See /work/shared/GPU.md.
#
# Usage: scripts/bundle-gpu.sh BUILD_DIR BUNDLE_DIR
#   BUILD_DIR   an exstar build tree built against the CUDA StarPU (every dynamic ELF file in it
#               is scanned with ldd: tests/*, examples/exstar, bench/*, libexstar.so*, ...)
#   BUNDLE_DIR  created/refreshed: lib/ (real files named by SONAME, stripped, no symlinks),
#               icd/nvidia.icd, env.sh
#   STARPU_CUDA_PREFIX  the CUDA StarPU prefix (default <repo>/build-gpu/starpu)
#   BUNDLE_XZ=1 store libraries over 4 MiB as lib/NAME.xz (OpenBLAS: 35 MiB -> 4 MiB); env.sh
#               unpacks them on first use there (xz, else python3's lzma)
#
# On the GPU machine:  source BUNDLE_DIR/env.sh   (works wherever the bundle is copied)
set -euo pipefail

die() { echo "bundle-gpu: ERROR: $*" >&2; exit 1; }
log() { echo "bundle-gpu: $*"; }

[ $# -eq 2 ] || die "usage: $0 BUILD_DIR BUNDLE_DIR"
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=$(cd "$1" && pwd) || die "no build dir $1"
mkdir -p "$2"
BUNDLE=$(cd "$2" && pwd)
PREFIX=${STARPU_CUDA_PREFIX:-$REPO_ROOT/build-gpu/starpu}
[ -d "$PREFIX/lib" ] || die "no StarPU prefix at $PREFIX (run scripts/build-starpu-cuda.sh first)"
PREFIX=$(cd "$PREFIX" && pwd)
for t in ldd readelf strip; do command -v $t >/dev/null || die "$t not found"; done

LIB="$BUNDLE/lib"
rm -rf "$LIB" "$BUNDLE/icd"
mkdir -p "$LIB" "$BUNDLE/icd"

# Libraries the GPU machine has: glibc, libstdc++/libgcc_s, the CUDA toolkit's libraries in
# /usr/local/cuda/targets/x86_64-linux/lib, and the driver's libcuda/libnvidia-*.
is_system_lib() {
  case "$1" in
    linux-vdso.so*|ld-linux*|libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*) return 0 ;;
    libutil.so*|libresolv.so*|libstdc++.so*|libgcc_s.so*) return 0 ;;
    libcuda.so*|libcudart.so*|libcublas.so*|libcublasLt.so*|libcusolver.so*) return 0 ;;
    libcusparse.so*|libnvJitLink.so*|libnvidia*) return 0 ;;
  esac
  return 1
}

soname_of() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }

declare -A copied=()   # bundle name -> source real path
copy_lib() {  # copy_lib NAME PATH: copy PATH's real file to lib/NAME, stripped
  local name=$1 src real
  src=$2
  real=$(readlink -f "$src") || die "cannot resolve $src"
  [ -f "$real" ] || die "$src -> $real is not a file"
  if [ -n "${copied[$name]:-}" ]; then
    [ "${copied[$name]}" = "$real" ] || log "WARNING: $name wanted from both ${copied[$name]} and $real; keeping the first"
    return 0
  fi
  cp "$real" "$LIB/$name"
  chmod u+w "$LIB/$name"
  strip --strip-unneeded "$LIB/$name" 2>/dev/null || log "WARNING: could not strip $name"
  copied[$name]=$real
  log "  $name  <- $real"
}

# 1. StarPU (CUDA build) under its SONAME, plus the two loaders GPU.md names.
starpu_real=$(readlink -f "$PREFIX/lib/libstarpu-1.3.so") || true
[ -f "$starpu_real" ] || die "$PREFIX/lib/libstarpu-1.3.so missing"
nm -D "$starpu_real" | grep ' T starpu_cuda_get_local_stream$' >/dev/null ||
  die "$starpu_real is not a CUDA build of StarPU"
starpu_soname=$(soname_of "$starpu_real")
[ -n "$starpu_soname" ] || die "no SONAME in $starpu_real"
log "StarPU from $PREFIX:"
copy_lib "$starpu_soname" "$starpu_real"
for l in libhwloc.so.15 libOpenCL.so.1; do
  # (awk reads all input: an early exit would SIGPIPE ldconfig and fail under pipefail)
  p=$(ldconfig -p | awk -v n="$l" '$1 == n && /x86-64/ && !p { p = $NF } END { print p }')
  [ -n "$p" ] || die "$l not found on this machine (apt-get install libhwloc15 ocl-icd-libopencl1)"
  copy_lib "$l" "$p"
done

# 2. Everything the ELF files of BUILD_DIR (and the libraries copied so far) need, resolved with
#    the CUDA StarPU first on the path so that Debian's non-CUDA libstarpu is never picked.
mapfile -t elfs < <(find "$BUILD_DIR" -type f -not -path '*/CMakeFiles/*' -not -name '*.o' \
                      -not -name '*.a' -size +0 -print0 |
                    xargs -0 -r sh -c 'for f; do
                        h=$(head -c 4 "$f" | od -An -c | tr -d " ")
                        [ "$h" = "177ELF" ] && readelf -d "$f" 2>/dev/null | grep -q NEEDED && echo "$f"
                      done' sh)
[ ${#elfs[@]} -gt 0 ] || log "WARNING: no dynamic ELF files found in $BUILD_DIR"
log "scanning ${#elfs[@]} ELF files of $BUILD_DIR (and the bundled libraries):"
for f in "${elfs[@]}"; do log "  ${f#"$BUILD_DIR"/}"; done

# Names provided by the build tree itself (e.g. libexstar.so.*): bundled too, so the binaries
# run wherever the tree lands (a RUNPATH into /work/main/... may not exist there).
missing=()
scan() {
  local f=$1 line name path
  while IFS= read -r line; do
    case "$line" in
      *"=> not found"*)
        name=$(echo "$line" | awk '{print $1}')
        [ -n "${copied[$name]:-}" ] || is_system_lib "$name" || missing+=("$name (needed by $f)")
        ;;
      *"=> "/*)
        name=$(echo "$line" | awk '{print $1}')
        path=$(echo "$line" | awk '{print $3}')
        is_system_lib "$name" && continue
        case "$path" in "$LIB"/*) continue ;; esac   # a bundled library found via $ORIGIN
        case "$name" in libstarpu-1.3.so*) [ "$name" = "$starpu_soname" ] && continue
          die "$f needs $name but the CUDA StarPU provides $starpu_soname: rebuild it against $PREFIX" ;;
        esac
        copy_lib "$name" "$path"
        ;;
    esac
  done < <(LD_LIBRARY_PATH="$PREFIX/lib:$BUILD_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$f" 2>/dev/null || true)
}
for f in "${elfs[@]}"; do scan "$f"; done

# Debian's libstarpu has the same SONAME but other limits (STARPU_MAXCPUS, STARPU_NMAXWORKERS
# size public structs): a binary compiled with Debian's headers must not run with the CUDA lib.
# Heuristic: without help, its loader should already find libstarpu in the CUDA prefix (RUNPATH).
wrong_starpu=()
for f in "${elfs[@]}"; do
  readelf -d "$f" 2>/dev/null | grep "\[$starpu_soname\]" >/dev/null || continue
  p=$(env -u LD_LIBRARY_PATH ldd "$f" 2>/dev/null | awk -v n="$starpu_soname" '$1 == n { print $3 }') || true
  [ "$(readlink -f "$p" 2>/dev/null || true)" = "$starpu_real" ] || wrong_starpu+=("${f#"$BUILD_DIR"/} -> ${p:-?}")
done
if [ ${#wrong_starpu[@]} -gt 0 ]; then
  log "WARNING: these files do not find the CUDA StarPU of $PREFIX by themselves; if they were"
  log "WARNING: compiled against Debian's StarPU headers they will misbehave with the bundle:"
  printf 'bundle-gpu: WARNING:   %s\n' "${wrong_starpu[@]}" >&2
fi
# libraries pulled in above can have their own dependencies (ldd lists them transitively, but
# scan the bundle once more to be sure)
for f in "$LIB"/*; do scan "$f"; done

# Debian's BLAS/LAPACK live behind alternatives: make sure the chosen variant is what we copied.
for n in libopenblas.so.0 libblas.so.3 liblapack.so.3; do
  if [ -n "${copied[$n]:-}" ]; then log "note: $n is ${copied[$n]} (Debian alternatives resolved)"; fi
done

if [ ${#missing[@]} -gt 0 ]; then
  printf 'bundle-gpu: WARNING: not found by ldd here: %s\n' "${missing[@]}" >&2
fi

# 3. Optional compression of the big libraries, NVIDIA OpenCL ICD, the environment script.
if [ "${BUNDLE_XZ:-0}" = 1 ]; then
  command -v xz >/dev/null || die "BUNDLE_XZ=1 needs xz (apt-get install xz-utils)"
  for f in "$LIB"/*; do
    [ "$(stat -c %s "$f")" -gt $((4 * 1048576)) ] || continue
    log "compressing $(basename "$f") -> $(basename "$f").xz"
    xz -T0 -6 -f "$f"
  done
fi
echo "libnvidia-opencl.so.1" > "$BUNDLE/icd/nvidia.icd"
cat > "$BUNDLE/env.sh" <<'EOF'
# Source this on the GPU machine from bash: . path/to/bundle/env.sh
# (other shells: set EXSTAR_BUNDLE=path/to/bundle first)
if [ -n "${EXSTAR_BUNDLE:-}" ]; then
  _exstar_bundle=$(cd "$EXSTAR_BUNDLE" && pwd)
elif [ -n "${BASH_VERSION:-}" ]; then
  eval '_exstar_bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)'
else
  echo "env.sh: not bash; set EXSTAR_BUNDLE to the bundle's directory" >&2
  _exstar_bundle=$PWD
fi
for _exstar_xz in "$_exstar_bundle"/lib/*.xz; do   # libraries stored compressed (BUNDLE_XZ=1)
  [ -e "$_exstar_xz" ] || continue
  [ -e "${_exstar_xz%.xz}" ] && continue
  if command -v xz >/dev/null 2>&1; then
    xz -dc "$_exstar_xz" > "${_exstar_xz%.xz}.tmp"
  else
    python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],"wb"))' \
      "$_exstar_xz" "${_exstar_xz%.xz}.tmp"
  fi && mv "${_exstar_xz%.xz}.tmp" "${_exstar_xz%.xz}" || echo "env.sh: cannot unpack $_exstar_xz" >&2
done
unset _exstar_xz
export LD_LIBRARY_PATH="$_exstar_bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OCL_ICD_VENDORS="$_exstar_bundle/icd"
export STARPU_SILENT=1
unset _exstar_bundle
EOF

# 4. Report.
total=$(du -sb "$BUNDLE" | cut -f1)
log "bundle in $BUNDLE:"
(cd "$LIB" && ls -l --block-size=K | tail -n +2 | awk '{printf "bundle-gpu:   %8s  %s\n", $5, $9}')
build_size=0
for f in "${elfs[@]}"; do build_size=$((build_size + $(stat -c %s "$f"))); done
awk -v b="$total" -v e="$build_size" 'BEGIN {
  printf "bundle-gpu: bundle size %.1f MiB; the ELF files of the build tree %.1f MiB; together %.1f MiB (carry limit 64 MiB)\n",
    b/1048576, e/1048576, (b+e)/1048576 }'
if [ "$total" -gt $((64 * 1048576)) ]; then
  log "WARNING: the bundle alone exceeds the 64 MiB carry limit"
fi
echo "On the GPU machine:  . $(basename "$BUNDLE")/env.sh   (from the directory holding the bundle)"
