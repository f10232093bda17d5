#!/usr/bin/env bash
# Installs the Debian packages exstar needs to build, test and benchmark. Idempotent:
# packages already present are skipped, and apt-get runs only when something is missing.
set -euo pipefail
pkgs=(build-essential cmake pkg-config git
      libstarpu-dev starpu-tools libhwloc-dev
      ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
      libmpfr-dev libgmp-dev catch2 libopenblas-dev
      openmpi-bin libopenmpi-dev
      gnuplot-nox doxygen
      gfortran dpkg-dev  # libexstar_blas: the reference BLAS testers (tests/blas, scripts/fetch-lapack-source.sh)
      python3-numpy python3-pytest python3-hypothesis)  # libexstar_blas: NumPy under LD_PRELOAD (tests/blas)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
