#!/usr/bin/env bash
# Fetches Debian's lapack source package (the reference BLAS and CBLAS testers: BLAS/TESTING,
# CBLAS/testing) into a cache folder, for the ctest tests blas_ref_* (tests/blas). Prints the
# source folder on success. Needs deb-src in /etc/apt/sources.list.d/debian.sources (this
# script enables it, as scripts/build-starpu-cuda.sh does) and dpkg-dev (apt-get source).
# Usage: scripts/fetch-lapack-source.sh [CACHE_DIR]   (default ~/.cache/exstar/lapack-src)
set -euo pipefail
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/exstar/lapack-src}
found() { ls -d "$cache"/lapack-*/BLAS/TESTING 2>/dev/null | head -n 1 | sed 's|/BLAS/TESTING$||'; }
if [ -n "$(found)" ]; then found; exit 0; fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo -n"
SOURCES=/etc/apt/sources.list.d/debian.sources
if ! apt-cache showsrc lapack 2>/dev/null | grep '^Package: lapack$' >/dev/null; then
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
