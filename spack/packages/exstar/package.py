# Spack recipe for exstar: exact, reproducible dense linear algebra for StarPU.
# Use it from this repository (it has no download URL yet): see spack/README.md.

import os

from spack.package import *


class Exstar(CMakePackage, CudaPackage):
    """Exact, reproducible dense linear algebra for the StarPU task runtime: every BLAS
    result is the correctly rounded exact value, on CPU, OpenCL and CUDA workers, as
    StarPU codelets for users' own task graphs, with LU drivers and the `exstar` tool."""

    maintainers("exstar")

    # exstar has no published tarball or public git address yet, so the recipe builds the git
    # repository it lives in (spack/packages/exstar/package.py inside an exstar checkout):
    # its branch main, committed state only. `spack develop` builds a working tree instead
    # (spack/README.md). Replace `git` by the public address once there is one, and add
    # version("0.2.0", tag=...) lines for tagged releases.
    git = "file://" + os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))

    version("main", branch="main")

    variant("opencl", default=True, description="StarPU with OpenCL workers (starpu+opencl)")
    variant("examples", default=True, description="Build and install the exstar tool")
    variant("mpi", default=True, description="libexstar_mpi: the StarPU-MPI drivers (starpu+mpi)")
    variant(
        "bench", default=False, description="Build the benchmarks (against OpenBLAS; not installed)"
    )

    depends_on("cmake@3.21:", type="build")
    depends_on("pkgconfig", type="build")

    # CMakeLists.txt asks pkg-config for starpu-1.3: StarPU 1.3.x is what exstar is built and
    # tested with (Debian's 1.3 series; 1.3.10 with CUDA).
    depends_on("starpu@1.3")
    depends_on("starpu+opencl", when="+opencl")
    depends_on("starpu~opencl", when="~opencl")
    depends_on("starpu+mpi", when="+mpi")
    depends_on("mpi", when="+mpi")
    depends_on("starpu+cuda", when="+cuda")
    depends_on("starpu~cuda", when="~cuda")
    # The OpenCL host code is always compiled (find_package(OpenCL REQUIRED)); with ~opencl
    # StarPU simply runs no OpenCL codelet.
    depends_on("opencl")

    # Tests only (`spack install --test=root`): Catch2 2.x (catch2/catch.hpp) and the MPFR
    # oracles; without tests CMake needs none of them (EXSTAR_BUILD_TESTS=OFF).
    depends_on("catch2@2", type="test")
    depends_on("mpfr", type="test")
    depends_on("gmp", type="test")
    depends_on("openblas", when="+bench")

    conflicts("cuda_arch=none", when="+cuda", msg="exstar+cuda needs a cuda_arch (90: H100/H200)")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("EXSTAR_CUDA", "ON" if spec.satisfies("+cuda") else "OFF"),
            self.define("EXSTAR_BUILD_TESTS", self.run_tests),
            self.define_from_variant("EXSTAR_BUILD_EXAMPLES", "examples"),
            self.define_from_variant("EXSTAR_BUILD_BENCH", "bench"),
            self.define_from_variant("EXSTAR_MPI", "mpi"),
        ]
        if spec.satisfies("+cuda"):
            archs = spec.variants["cuda_arch"].value
            args.append(self.define("EXSTAR_CUDA_ARCH", ";".join(archs)))
        # The CPU kernels are compiled for x86-64-v3 (FMA; AVX-512 copies chosen at run time).
        # On an older or non-x86 target, leave the architecture to Spack's compiler flags.
        if not spec.satisfies("target=x86_64_v3:"):
            args.append(self.define("EXSTAR_CPU_ARCH", ""))
        return args

    def check(self):
        # The GPU tests skip themselves (ctest "skipped") where no device is present.
        with working_dir(self.build_directory):
            ctest = Executable(self.spec["cmake"].prefix.bin.ctest)
            ctest("--output-on-failure", "-LE", "heavy")
