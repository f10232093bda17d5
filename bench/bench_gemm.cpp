// Benchmark of the exact gemm (C := A·B, 'N','N', square n x n, α = 1, β = 0) on CPU cores
// against OpenBLAS.
//
//   exstar_bench_gemm [--min-log2n K] [--max-log2n K] [--reps R] [--cores C] [--sched NAME]
//                     [--csv FILE] [--data uniform|wide] [--ref-log2n K] [--quiet]
//
// For n = 2^min .. 2^max (default 256 .. 2048), the median of R runs (default 10, round-robin,
// see measure() in bench_util.hpp) of:
//   exstar        / cpu-Cc  exstar_dgemm through StarPU (output tiles on C workers)
//   openblas      / cpu-Cc  cblas_dgemm with C OpenBLAS threads
//   exstar-kernel / cpu-1c  exstar_cpu_dgemm on one thread, no StarPU
//   openblas      / cpu-1c  cblas_dgemm on one thread
// CSV: op,n,backend,implementation,seconds,GBps where, for gemm, the last column holds the
// effective GFLOP/s 2n³ / seconds / 1e9 (the shared CSV layout of bench_util.hpp).
// stdout ends with the ratio exact/OpenBLAS at n = 2^ref (default 2^11; target <= 20x) and the
// fraction of entries the first pass declined (the retry, then the exact path, took them; kernel, last run).
// Exit status 1 when the StarPU and kernel-only results differ in a bit.
#include "bench/bench_util.hpp"
#include "kernels_cpu/gemm.h"

#include <cinttypes>

int main(int argc, char **argv)
{
  using namespace exstar_bench;
  Options d;
  d.min_log2n = 8;
  d.max_log2n = 11;
  d.ref_log2n = 11;
  Options o = parse_options(argc, argv, d, "exact gemm vs OpenBLAS dgemm");
  const int64_t nmax = int64_t(1) << o.max_log2n;
  std::vector<double> A(nmax * nmax), B(nmax * nmax), C(nmax * nmax), Ck(nmax * nmax);
  fill(A, 3, o.data);
  fill(B, 4, o.data);
  const std::string multi = backend_name(o.cores), one = backend_name(1);
  Csv csv(o.csv, o.quiet);
  std::printf("exstar_bench_gemm: NN, n = 2^%d..2^%d, %d reps (median, after 1 warm-up), data %s\n", o.min_log2n,
              o.max_log2n, o.reps, o.data.c_str());
  std::printf("OpenBLAS %s, threads: %d (%s) and 1 (%s)\n", openblas_info().c_str(), o.cores, multi.c_str(),
              one.c_str());
  std::printf("StarPU: %d CPU workers (STARPU_NCPU), scheduler %s, exstar's default tiles\n", o.cores, o.sched.c_str());

  start_exstar(o.cores, o.sched);
  int mismatches = 0;
  int64_t repaired = 0, entries = 0;
  for (int k = o.min_log2n; k <= o.max_log2n; ++k) {
    const int64_t n = int64_t(1) << k;
    const double *pA = A.data(), *pB = B.data();
    double *pC = C.data(), *pCk = Ck.data();
    const int ni = (int)n;
    std::vector<Candidate> cands = {
        {multi, "openblas", false,
         [&] { cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0, pA, ni, pB, ni, 0.0, pC, ni); },
         [&] { openblas_threads(o.cores); }},
        {one, "openblas", false,
         [&] { cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0, pA, ni, pB, ni, 0.0, pC, ni); },
         [&] { openblas_threads(1); }},
        {one, "exstar-kernel", false,
         [&] {
           repaired = exstar_cpu_dgemm('N', 'N', n, n, n, 1.0, pA, 0, n, pB, 0, n, 0.0, pCk, 0, n, 0);
           entries = n * n;
         }},
        {multi, "exstar", true,
         [&] { check(exstar_dgemm('N', 'N', n, n, n, 1.0, pA, n, pB, n, 0.0, pC, n), "exstar_dgemm"); }},
    };
    measure(csv, "gemm", n, 2.0 * n * n * n, o.reps, cands);
    if (std::memcmp(pC, pCk, n * n * sizeof(double)) != 0) {
      std::fprintf(stderr, "MISMATCH n=%" PRId64 ": exstar_dgemm and the bare kernel differ\n", n);
      ++mismatches;
    }
    std::printf("  n = %" PRId64 ": first pass declined (retried, then exact) %" PRId64 " of %" PRId64 " entries (%.2e)\n", n, repaired, entries,
                entries ? (double)repaired / (double)entries : 0.0);
  }
  stop_exstar();

  int ref = std::min(std::max(o.ref_log2n, o.min_log2n), o.max_log2n);
  const int64_t n = int64_t(1) << ref;
  std::printf("\nsummary at n = %" PRId64 ", %d cores:\n", n, o.cores);
  print_ratio("  exact gemm (exstar_dgemm, StarPU) / OpenBLAS dgemm", csv.seconds("gemm", n, multi, "exstar"),
              csv.seconds("gemm", n, multi, "openblas"), 20.0);
  print_ratio("  exact gemm kernel alone / OpenBLAS dgemm, 1 thread", csv.seconds("gemm", n, one, "exstar-kernel"),
              csv.seconds("gemm", n, one, "openblas"), 0);
  if (mismatches) std::printf("%d size(s) where the StarPU and kernel-only exact results differ\n", mismatches);
  return mismatches ? 1 : 0;
}
