#!/usr/bin/env bash
# Installs what scripts/fuzz.sh needs beyond scripts/install-deps.sh: Debian's clang and the
# compiler-rt of its version (libclang-rt-N-dev: libFuzzer and the sanitizers, which clang only
# recommends). Idempotent, like install-deps.sh: apt-get runs only when something is missing.
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
updated=0
install() {
  [ "$updated" = 1 ] || { $sudo apt-get update -q; updated=1; }
  $sudo apt-get install -y -q --no-install-recommends "$@"
}
installed clang || install clang
major=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
installed "libclang-rt-$major-dev" || install "libclang-rt-$major-dev"
echo "install-fuzz-deps: clang $major and libclang-rt-$major-dev present"
