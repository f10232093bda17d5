#!/usr/bin/env bash
# Builds StarPU 1.3.10 with CUDA (13.x) and OpenCL from Debian's source package, patched for
# CUDA 13, and installs it into a private prefix (Debian's libstarpu-dev has no CUDA).
#
# Usage: scripts/build-starpu-cuda.sh [PREFIX]
#   PREFIX         install prefix; default $STARPU_CUDA_PREFIX, else <repo>/build-gpu/starpu
#   STARPU_SRC_DIR where the source package is downloaded and built;
#                  default $HOME/.cache/exstar/starpu-src
#   CUDA_HOME      CUDA toolkit; default /usr/local/cuda
#   JOBS           make -j; default 2
#   FORCE=1        rebuild and reinstall even if PREFIX already holds a CUDA StarPU
#
# Idempotent: each step (apt sources, packages, download, unpack, patches, configure, build,
# install) is skipped when already done. See /work/shared/GPU.md for why each step is needed.
set -euo pipefail

die() { echo "build-starpu-cuda: ERROR: $*" >&2; exit 1; }
log() { echo "build-starpu-cuda: $*"; }

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${1:-${STARPU_CUDA_PREFIX:-$REPO_ROOT/build-gpu/starpu}}
mkdir -p "$PREFIX"
PREFIX=$(cd "$PREFIX" && pwd)
SRC_DIR=${STARPU_SRC_DIR:-$HOME/.cache/exstar/starpu-src}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
JOBS=${JOBS:-2}
STARPU_UPSTREAM_VERSION=1.3.10

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive

[ -x "$CUDA_HOME/bin/nvcc" ] || die "nvcc not found at $CUDA_HOME/bin/nvcc (set CUDA_HOME)"

installed_ok() {
  local lib="$PREFIX/lib/libstarpu-1.3.so"
  [ -e "$lib" ] && [ -e "$PREFIX/lib/pkgconfig/starpu-1.3.pc" ] && [ -e "$PREFIX/lib/pkgconfig/starpumpi-1.3.pc" ] &&
    nm -D "$lib" 2>/dev/null | grep ' T starpu_cuda_get_local_stream$' >/dev/null
}

if [ "${FORCE:-0}" != 1 ] && installed_ok; then
  log "StarPU with CUDA already installed in $PREFIX (FORCE=1 to rebuild)"
else

# ---------------------------------------------------------------- 1. sources and packages
SOURCES=/etc/apt/sources.list.d/debian.sources
need_update=0
# (no "| grep -q" anywhere: with pipefail, grep -q exiting early can fail the pipeline)
has_starpu_src() { apt-cache showsrc starpu 2>/dev/null | grep '^Package: starpu$' >/dev/null; }
if ! has_starpu_src; then
  if [ -f "$SOURCES" ] && grep '^Types:' "$SOURCES" | grep -v 'deb-src' >/dev/null; then
    log "enabling deb-src in $SOURCES"
    $sudo sed -i -E '/^Types:/{/deb-src/!s/$/ deb-src/}' "$SOURCES"
  elif [ ! -f "$SOURCES" ]; then
    die "$SOURCES not found; add a deb-src line for Debian bookworm by hand"
  fi
  need_update=1
fi

# The orig tarball ships a generated configure: no autoconf/automake/libtool needed.
pkgs=(build-essential dpkg-dev pkg-config binutils patch
      libhwloc-dev ocl-icd-opencl-dev opencl-headers libopenmpi-dev openmpi-bin)
missing=()
for p in "${pkgs[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then need_update=1; fi
if [ $need_update = 1 ]; then
  log "apt-get update"
  $sudo apt-get update -q
fi
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
has_starpu_src ||
  die "apt-cache showsrc starpu finds nothing even after enabling deb-src"

mkdir -p "$SRC_DIR"
cd "$SRC_DIR"
orig=$(ls starpu_"$STARPU_UPSTREAM_VERSION"*.orig.tar.* 2>/dev/null | head -n1) || true
if [ -z "$orig" ]; then
  log "downloading the starpu source package into $SRC_DIR"
  apt-get source --download-only starpu
  orig=$(ls starpu_"$STARPU_UPSTREAM_VERSION"*.orig.tar.* 2>/dev/null | head -n1) || true
  [ -n "$orig" ] || die "no starpu_${STARPU_UPSTREAM_VERSION}*.orig.tar.* after apt-get source \
(Debian's version is $(ls starpu_*.dsc 2>/dev/null || echo '?'); this script expects $STARPU_UPSTREAM_VERSION)"
fi
topdir=$(tar tf "$orig" 2>/dev/null | head -n1 | cut -d/ -f1) || true  # tar gets SIGPIPE
[ -n "$topdir" ] || die "cannot read $orig"
SRC="$SRC_DIR/$topdir"
if [ ! -f "$SRC/configure" ]; then
  log "unpacking $orig"
  rm -rf "$SRC"
  tar xf "$orig"
  [ -f "$SRC/configure" ] || die "$orig has no configure script"
fi

# ---------------------------------------------------------------- 2. CUDA 13 patches
cd "$SRC"
DRV_C=src/drivers/cuda/driver_cuda.c
DRV_H=src/drivers/cuda/driver_cuda.h
CUBLAS_C=src/drivers/cuda/starpu_cublas.c

# 2a. cudaDeviceProp::computeMode is gone in CUDA 13: the exclusive-mode test is just false.
if grep -q 'props\[devid\]\.computeMode == cudaComputeModeExclusive' "$DRV_C"; then
  log "patching $DRV_C (computeMode)"
  sed -i 's/props\[devid\]\.computeMode == cudaComputeModeExclusive/0 \/* exstar: CUDA 13 has no computeMode *\//' "$DRV_C"
fi
grep -q 'computeMode' "$DRV_C" && ! grep -q 'exstar: CUDA 13 has no computeMode' "$DRV_C" &&
  die "patch 2a failed: $DRV_C still uses computeMode"
grep -q 'exstar: CUDA 13 has no computeMode' "$DRV_C" ||
  die "patch 2a failed: expected test on computeMode not found in $DRV_C (source changed?)"

# 2b. CUDA 13 refuses <cublas.h> and <cublas_v2.h> in one file. starpu_cublas.c gets
#     <cublas.h> directly and through core/workers.h -> driver_cuda.h, and <cublas_v2.h>
#     through starpu_cublas_v2.h. Use only the v2 API everywhere in the driver.
if grep -q '^#include <cublas.h>' "$DRV_H"; then
  log "patching $DRV_H (<cublas.h> -> <cublas_v2.h>)"
  sed -i 's/^#include <cublas.h>$/#include <cublas_v2.h>/' "$DRV_H"
fi
grep -q '^#include <cublas_v2.h>' "$DRV_H" && ! grep -q '<cublas.h>' "$DRV_H" ||
  die "patch 2b failed on $DRV_H: expected '#include <cublas.h>' not found"

CUBLAS_PATCH=$(cat <<'EOF'
--- a/src/drivers/cuda/starpu_cublas.c
+++ b/src/drivers/cuda/starpu_cublas.c
@@ -20,7 +20,6 @@
 #include <core/workers.h>
 
 #ifdef STARPU_USE_CUDA
-#include <cublas.h>
 #include <starpu_cublas_v2.h>
 
 static int cublas_initialized[STARPU_NMAXWORKERS];
@@ -47,12 +46,7 @@
 {
 	unsigned idx = get_idx();
 	STARPU_PTHREAD_MUTEX_LOCK(&mutex);
-	if (!(cublas_initialized[idx]++))
-	{
-		cublasStatus cublasst = cublasInit();
-		if (STARPU_UNLIKELY(cublasst))
-			STARPU_CUBLAS_REPORT_ERROR(cublasst);
-	}
+	cublas_initialized[idx]++;
 	STARPU_PTHREAD_MUTEX_UNLOCK(&mutex);
 
 	cublasCreate(&cublas_handles[starpu_worker_get_id_check()]);
@@ -61,15 +55,14 @@
 
 static void set_cublas_stream_func(void *args STARPU_ATTRIBUTE_UNUSED)
 {
-	cublasSetKernelStream(starpu_cuda_get_local_stream());
+	cublasSetStream(cublas_handles[starpu_worker_get_id_check()], starpu_cuda_get_local_stream());
 }
 
 static void shutdown_cublas_func(void *args STARPU_ATTRIBUTE_UNUSED)
 {
 	unsigned idx = get_idx();
 	STARPU_PTHREAD_MUTEX_LOCK(&mutex);
-	if (!--cublas_initialized[idx])
-		cublasShutdown();
+	--cublas_initialized[idx];
 	STARPU_PTHREAD_MUTEX_UNLOCK(&mutex);
 
 	cublasDestroy(cublas_handles[starpu_worker_get_id_check()]);
@@ -103,7 +96,7 @@
 	if (!_starpu_get_machine_config()->topology.cuda_th_per_dev ||
 		(!_starpu_get_machine_config()->topology.cuda_th_per_stream &&
 		 _starpu_get_machine_config()->topology.nworkerpercuda > 1))
-		cublasSetKernelStream(starpu_cuda_get_local_stream());
+		cublasSetStream(cublas_handles[starpu_worker_get_id_check()], starpu_cuda_get_local_stream());
 #endif
 }
 
EOF
)
if printf '%s\n' "$CUBLAS_PATCH" | patch -p1 -R --dry-run -s -f >/dev/null 2>&1; then
  :  # already applied
elif printf '%s\n' "$CUBLAS_PATCH" | patch -p1 -N --dry-run -s -f >/dev/null 2>&1; then
  log "patching $CUBLAS_C (cuBLAS v2 only)"
  printf '%s\n' "$CUBLAS_PATCH" | patch -p1 -N -s -f --no-backup-if-mismatch
else
  die "patch 2b failed: $CUBLAS_C does not match the expected StarPU 1.3.10 text; \
delete $SRC to start from a clean tarball, or adapt the patch"
fi
if grep -nE 'cublasInit|cublasShutdown|cublasSetKernelStream|<cublas\.h>' "$CUBLAS_C"; then
  die "patch 2b failed: legacy cuBLAS calls remain in $CUBLAS_C (lines above)"
fi

# ---------------------------------------------------------------- 3. configure, build, install
export PATH="$CUDA_HOME/bin:$PATH"
CONF_ARGS=(--enable-cuda --enable-opencl --enable-maxcpus=64 --enable-maxcudadev=8
           --enable-mpi --disable-mpi-check   # StarPU-MPI on Open MPI: GPU ranks (libexstar_mpi)
           --disable-build-doc --disable-build-examples --disable-build-tests
           --disable-fortran --disable-socl --disable-starpufft
           --disable-static   # the static lib is 94 MB and doubles the compile time
           --with-cuda-dir="$CUDA_HOME"
           --prefix="$PREFIX")
BUILD="$SRC/build-cuda"
mkdir -p "$BUILD"
cd "$BUILD"
stamp_want=$(printf '%s\n' "${CONF_ARGS[@]}")
if [ ! -f config.status ] || [ ! -f .exstar-configure-args ] ||
   [ "$(cat .exstar-configure-args)" != "$stamp_want" ]; then
  log "configuring (log: $BUILD/configure.log)"
  rm -f .exstar-configure-args
  if ! ../configure "${CONF_ARGS[@]}" >configure.log 2>&1; then
    tail -n 40 configure.log >&2
    die "configure failed; see $BUILD/configure.log"
  fi
  printf '%s\n' "$stamp_want" > .exstar-configure-args
fi
grep -q '^#define STARPU_USE_CUDA 1' src/common/config.h ||
  die "configure did not enable CUDA (see $BUILD/configure.log and config.log)"
grep -q '^#define STARPU_USE_OPENCL 1' src/common/config.h ||
  die "configure did not enable OpenCL (see $BUILD/configure.log and config.log)"
grep -q '^#define STARPU_USE_MPI 1' src/common/config.h ||
  die "configure did not enable StarPU-MPI (Open MPI's mpicc missing? see $BUILD/configure.log)"
grep -q '^#define STARPU_MAXCPUS 64' src/common/config.h ||
  die "configure did not take --enable-maxcpus=64"

log "building with make -j$JOBS (log: $BUILD/make.log)"
if ! make -j"$JOBS" >make.log 2>&1; then
  grep -n -m 20 -E 'error|Error' make.log >&2 || true
  tail -n 30 make.log >&2
  die "make failed; see $BUILD/make.log"
fi
log "installing into $PREFIX"
make install >install.log 2>&1 || { tail -n 30 install.log >&2; die "make install failed; see $BUILD/install.log"; }

installed_ok || die "installed $PREFIX/lib/libstarpu-1.3.so lacks starpu_cuda_get_local_stream"
fi

# ---------------------------------------------------------------- 4. report
PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
  pkg-config --exists starpu-1.3 || die "pkg-config cannot find starpu-1.3 in $PREFIX/lib/pkgconfig"
echo
echo "StarPU $(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --modversion starpu-1.3) with CUDA installed in:"
echo "  $PREFIX"
echo "Use it with:"
echo "  export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
echo "  export LD_LIBRARY_PATH=$PREFIX/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
