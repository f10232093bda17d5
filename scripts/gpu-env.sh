# Sourced by scripts/gpu-*.sh on the GPU machine, from the repository root, with root, dir (what
# scripts/gpu-prepare.sh made) and out set: the output folder, /work/main (the build tree's CTest
# files name it), the build unpacked, the bundle's libraries (and Open MPI's, when bundled) and
# the build's own on the library path.
mkdir -p "$out" /work
[ -e /work/main ] || ln -s "$root" /work/main
bash "$root/scripts/gpu-unpack.sh" "$dir"
. "$dir/bundle/env.sh"
[ -f "$dir/bundle/ompi/env.sh" ] && . "$dir/bundle/ompi/env.sh"
export LD_LIBRARY_PATH=$root/$dir/build:$LD_LIBRARY_PATH STARPU_SILENT=1
