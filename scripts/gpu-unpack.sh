#!/usr/bin/env bash
# On the GPU machine: unpacks DIR/build.tar.xz (scripts/gpu-prepare.sh) into DIR/build when the
# archive is newer than what is there. Sourced or run by the other scripts/gpu-*.sh.
dir=${1:-.gpu}
if [ -f "$dir/build.tar.xz" ] && { [ ! -d "$dir/build" ] || [ "$dir/build.tar.xz" -nt "$dir/build" ]; }; then
  rm -rf "$dir/build" && tar -C "$dir" -xJf "$dir/build.tar.xz" && touch "$dir/build"
fi
