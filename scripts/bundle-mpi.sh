#!/usr/bin/env bash
# Gathers Open MPI's launcher and run-time pieces (Debian's openmpi-bin 4.1: mpirun/orterun,
# orted, the MCA components, PMIx, the help texts) into BUNDLE_DIR/ompi, relocated through
# Open MPI's OPAL_* variables, for the lent GPU machine, which has no Open MPI. With
# scripts/build-starpu-cuda.sh (StarPU-MPI with CUDA) and scripts/bundle-gpu.sh, `mpirun -np 4`
# there runs one exstar rank a GPU.
#
# Usage: scripts/bundle-mpi.sh BUNDLE_DIR      then there: source BUNDLE_DIR/ompi/env.sh
set -euo pipefail
die() { echo "bundle-mpi: ERROR: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: $0 BUNDLE_DIR"
command -v orterun >/dev/null || die "orterun not found (apt-get install openmpi-bin)"
mkdir -p "$1"
out=$(cd "$1" && pwd)/ompi
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib/openmpi3" "$out/lib/pmix" "$out/share" "$out/etc"
pkglib=$(ompi_info --path pkglibdir --parsable 2>/dev/null | sed -n 's/^path:pkglibdir://p')
pkgdata=$(ompi_info --path pkgdatadir --parsable 2>/dev/null | sed -n 's/^path:pkgdatadir://p')
sysconf=$(ompi_info --path sysconfdir --parsable 2>/dev/null | sed -n 's/^path:sysconfdir://p')
[ -d "$pkglib" ] || die "Open MPI's component directory not found (ompi_info)"
cp -L "$(command -v orterun)" "$out/bin/orterun"
cp -L "$(command -v orted)" "$out/bin/orted"
ln -s orterun "$out/bin/mpirun"
cp -L "$pkglib"/*.so "$out/lib/openmpi3/"
pmixlib=$(dirname "$(readlink -f "$(ldconfig -p | awk '/libpmix.so.2 /{print $NF; exit}')")")
[ -d "$pmixlib/pmix" ] && cp -L "$pmixlib"/pmix/*.so "$out/lib/pmix/" 2>/dev/null || true
cp -r "$pkgdata" "$out/share/openmpi"
[ -d /usr/share/pmix ] && cp -r /usr/share/pmix "$out/share/pmix"
[ -d "$sysconf" ] && cp -L "$sysconf"/* "$out/etc/" 2>/dev/null || true
# Every library these need, but the C library and the loader (the GPU machine has those).
for f in "$out"/bin/orterun "$out"/bin/orted "$out"/lib/openmpi3/*.so "$out"/lib/pmix/*.so; do
  ldd "$f" 2>/dev/null | awk '/=> \//{print $3}'
done | sort -u | while read -r lib; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
  esac
done
cat > "$out/env.sh" <<'ENV'
# Open MPI from this folder (source it): the OPAL_* variables relocate its installation.
d=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$d OPAL_EXEC_PREFIX=$d OPAL_BINDIR=$d/bin OPAL_LIBDIR=$d/lib OPAL_PKGLIBDIR=$d/lib/openmpi3
export OPAL_DATAROOTDIR=$d/share OPAL_DATADIR=$d/share OPAL_PKGDATADIR=$d/share/openmpi OPAL_SYSCONFDIR=$d/etc
export PMIX_MCA_mca_base_component_path=$d/lib/pmix PMIX_INSTALL_PREFIX=$d
export PATH=$d/bin:$PATH LD_LIBRARY_PATH=$d/lib:${LD_LIBRARY_PATH:-}
# components whose fabrics the machine lacks stay quiet, and PMIx's note that it found no
# compression library (seen on the GPU machine, 2026-11-27: one more stderr line per run)
export OMPI_MCA_mca_base_component_show_load_errors=0 PMIX_MCA_pcompress_base_silence_warning=1
ENV
du -sh "$out"
