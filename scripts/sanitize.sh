#!/usr/bin/env bash
# CI stage: exstar's CPU and OpenCL tests under AddressSanitizer, UndefinedBehaviorSanitizer and
# LeakSanitizer. Builds into ${EXSTAR_ASAN_BUILD_DIR:-build-asan} with -DEXSTAR_SANITIZE=ON and
# no CUDA (nvcc code cannot be instrumented), then runs ctest there. Any report fails the stage:
# UBSan halts on the first error, ASan always does, LSan makes the test exit non-zero.
#
# Suppressions (scripts/sanitizers/lsan.supp) cover only leaks inside StarPU, hwloc, PoCL/LLVM
# and the OpenCL ICD loader, named by their own functions: an allocation made by exstar is never
# suppressed. ASan and UBSan need none.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${EXSTAR_ASAN_BUILD_DIR:-$root/build-asan}
supp=$root/scripts/sanitizers
bash "$root/scripts/install-deps.sh"

start=$(date +%s)
# RelWithDebInfo: -O2 -g, for stacks with lines. Benchmarks are not run here: not built.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXSTAR_SANITIZE=ON -DEXSTAR_CUDA=OFF \
      -DEXSTAR_BUILD_BENCH=OFF
cmake --build "$build" -j "$(nproc)"
built=$(date +%s)

# PoCL (Debian 12's 3.1) runs as is: it maps nothing into ASan's shadow gap, so the
# protect_shadow_gap=0 that NVIDIA's OpenCL/CUDA drivers need is not set (this stage has no
# CUDA and uses no GPU driver).
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
asan="check_initialization_order=1"
cd "$build"

# 1. Memory errors and undefined behaviour, in every CPU and OpenCL test but: the heavy sweeps
#    (as scripts/test.sh), anything CUDA (not built), the installed-package test (its outside
#    consumer is built without -fsanitize and cannot load an ASan library) and the tests of
#    step 2. No leak check here: see step 2.
#    Not the NumPy tests either: they preload the instrumented libexstar_blas into Debian's
#    python3, which is not instrumented, and ASan refuses to start after another runtime.
ASAN_OPTIONS="$asan:detect_leaks=0" \
  ctest --output-on-failure --timeout 1200 -LE 'heavy|install' \
        -E 'cuda|^api$|^handles$|^cli_|^blas_numpy|^blas_starpu_owner_threads$'
# blas_starpu_owner_threads: the first BLAS call, from one of 8 threads, starts StarPU and PoCL
# there, and PoCL's LLVM installs its own (malloc'ed) alternate signal stack on that thread;
# when the thread ends, ASan unmaps the thread's current alternate stack as if it were its own
# and dies ("unable to unmap"). use_sigaltstack=0: ASan keeps none, the rest is checked as above.
ASAN_OPTIONS="$asan:detect_leaks=0:use_sigaltstack=0" \
  ctest --output-on-failure --timeout 1200 -R '^blas_starpu_owner_threads$'
errors=$(date +%s)

# 2. Leaks too, in programs that call every public entry point (blocking calls through the
#    tool, every insert call in test_handles) and exit: with fast_unwind_on_malloc=0, as StarPU
#    and hwloc are built without frame pointers: the fast unwinder stops at their first frame,
#    and a leak inside them would show no function of theirs for lsan.supp to name. That
#    unwinder makes the MPFR-heavy sweeps 8x slower (test_reduce: 5 s -> 42 s), hence the
#    short list.
#    print_suppressions=0: the tool's stderr is part of its contract (the cli tests read it).
#    Not cli_memory: its subject is the address-space limit (ulimit -v) and the memory the
#    process may use, which ASan's shadow memory (terabytes of reserved address space) and its
#    allocator's overhead make meaningless; it runs in the plain test stage.
ASAN_OPTIONS="$asan:detect_leaks=1:fast_unwind_on_malloc=0" \
  LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
  ctest --output-on-failure --timeout 1200 -R '^api$|^handles$|^cli_' -E 'cuda|^cli_memory$'
end=$(date +%s)
echo "sanitize: build $((built - start)) s, errors $((errors - built)) s, leaks $((end - errors)) s"
