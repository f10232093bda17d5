#!/usr/bin/env bash
# Fetches Debian's lapack source package (the reference BLAS and CBLAS testers: BLAS/TESTING,
# CBLAS/testing) into a cache folder, for the ctest tests blas_ref_* (tests/blas). Prints the
# source folder on success. Needs deb-src in /etc/apt/sources.list.d/debian.sources (this
# script enables it, as scripts/build-starpu-cuda.sh does) and dpkg-dev (apt-get source).
# Usage: scripts/fetch-lapack-source.sh [--no-setup] [CACHE_DIR]   (default ~/.cache/exstar/lapack-src)
# --no-setup (CMake's configure step uses it): never touch the system (no deb-src, no apt-get
# update); fail when apt does not know the source package yet.
set -euo pipefail
setup=1
if [ "${1:-}" = "--no-setup" ]; then setup=0; shift; fi
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/exstar/lapack-src}
found() { ls -d "$cache"/lapack-*/BLAS/TESTING 2>/dev/null | head -n 1 | sed 's|/BLAS/TESTING$||'; }
if [ -n "$(found)" ]; then found; exit 0; fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo -n"
SOURCES=/etc/apt/sources.list.d/debian.sources
if ! apt-cache showsrc lapack 2>/dev/null | grep '^Package: lapack$' >/dev/null; then
  if [ $setup = 0 ]; then
    echo "apt knows no lapack source package (deb-src off): run scripts/fetch-lapack-source.sh" >&2
    exit 1
  fi
  if [ -f "$SOURCES" ] && grep '^Types:' "$SOURCES" | grep -v 'deb-src' >/dev/null; then
    echo "fetch-lapack-source: enabling deb-src in $SOURCES" >&2
    $sudo sed -i -E '/^Types:/{/deb-src/!s/$/ deb-src/}' "$SOURCES"
  fi
  $sudo apt-get update -q >&2
fi
mkdir -p "$cache"
cd "$cache"
apt-get source --download-only lapack >&2
tar xzf lapack_*.orig.tar.gz
found
