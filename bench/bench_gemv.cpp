// Benchmark of the exact gemv (y := A·x, trans 'N', square n x n, α = 1, β = 0) on CPU cores
// against OpenBLAS.
//
//   exstar_bench_gemv [--min-log2n K] [--max-log2n K] [--reps R] [--cores C] [--sched NAME]
//                     [--csv FILE] [--data uniform|wide] [--ref-log2n K] [--quiet]
//
// For n = 2^min .. 2^max (default 1024 .. 16384; A of 16384² doubles is 2 GiB), the median of
// R runs (default 10, round-robin, see measure() in bench_util.hpp) of:
//   exstar        / cpu-Cc  exstar_dgemv('N', n, n, 1, A, n, x, 1, 0, y, 1) through StarPU
//   openblas      / cpu-Cc  cblas_dgemv(ColMajor, NoTrans, ...) with C OpenBLAS threads
//   exstar-kernel / cpu-1c  exstar_cpu_gemv_acc + exstar_cpu_gemv_finish on one thread, no StarPU
//   openblas      / cpu-1c  cblas_dgemv on one thread
// and, as op gemv_t, trans 'T' (y := Aᵀ·x): exstar and openblas on C cores.
// CSV: op,n,backend,implementation,seconds,GBps with GBps = 8·n² / seconds / 1e9 (the matrix).
// stdout ends with the ratio exact/OpenBLAS at n = 2^ref (default 2^13; target <= 3x).
// Exit status 1 when the StarPU and kernel-only results differ in a bit.
#include "bench/bench_util.hpp"
#include "kernels_cpu/gemv.h"

#include <cinttypes>

namespace {

using namespace exstar_bench;

void exact_kernel_gemv(int64_t n, const double *A, const double *x, double *y, std::vector<exstar_i64> &acc)
{
  std::fill(acc.begin(), acc.end(), 0); // zero accumulators (the same words exstar_cpu_acc_zero writes)
  exstar_cpu_gemv_acc('N', n, n, 1.0, A, 0, n, x, 0, 1, acc.data(), 0);
  exstar_cpu_gemv_finish(n, 0.0, y, 0, 1, acc.data(), 0);
}

} // namespace

int main(int argc, char **argv)
{
  Options d;
  d.min_log2n = 10;
  d.max_log2n = 14;
  d.ref_log2n = 13;
  Options o = parse_options(argc, argv, d, "exact gemv vs OpenBLAS dgemv");
  const int64_t nmax = int64_t(1) << o.max_log2n;
  std::vector<double> A(nmax * nmax), x(nmax), y(nmax), yk(nmax);
  fill(A, 3, o.data);
  fill(x, 4, o.data);
  const std::string multi = backend_name(o.cores), one = backend_name(1);
  Csv csv(o.csv, o.quiet);
  std::printf("exstar_bench_gemv: trans N and T, n = 2^%d..2^%d, %d reps (median, after 1 warm-up), data %s\n",
              o.min_log2n, o.max_log2n, o.reps, o.data.c_str());
  std::printf("OpenBLAS %s, threads: %d (%s) and 1 (%s)\n", openblas_info().c_str(), o.cores, multi.c_str(),
              one.c_str());
  std::printf("StarPU: %d CPU workers (STARPU_NCPU), scheduler %s, exstar's default blocking\n", o.cores,
              o.sched.c_str());

  start_exstar(o.cores, o.sched);
  int mismatches = 0;
  for (int k = o.min_log2n; k <= o.max_log2n; ++k) {
    const int64_t n = int64_t(1) << k;
    // A is n x n with lda = n: the first n² entries of the big array.
    const double *pA = A.data(), *px = x.data();
    double *py = y.data(), *pyk = yk.data();
    std::vector<exstar_i64> acc(n * EXSTAR_ACC_WORDS);
    std::vector<Candidate> cands = {
        {multi, "openblas", false,
         [&] { cblas_dgemv(CblasColMajor, CblasNoTrans, (int)n, (int)n, 1.0, pA, (int)n, px, 1, 0.0, py, 1); },
         [&] { openblas_threads(o.cores); }},
        {one, "openblas", false,
         [&] { cblas_dgemv(CblasColMajor, CblasNoTrans, (int)n, (int)n, 1.0, pA, (int)n, px, 1, 0.0, py, 1); },
         [&] { openblas_threads(1); }},
        {one, "exstar-kernel", false, [&] { exact_kernel_gemv(n, pA, px, pyk, acc); }},
        {multi, "exstar", true,
         [&] { check(exstar_dgemv('N', n, n, 1.0, pA, n, px, 1, 0.0, py, 1), "exstar_dgemv"); }},
    };
    measure(csv, "gemv", n, 8.0 * n * n, o.reps, cands);
    // y holds the StarPU result (the last candidate), yk the kernel's: the same bits.
    if (std::memcmp(py, pyk, n * sizeof(double)) != 0) {
      std::fprintf(stderr, "MISMATCH n=%" PRId64 ": exstar_dgemv and the bare kernel differ\n", n);
      ++mismatches;
    }
    // trans 'T' (y := Aᵀ·x): each entry a contiguous column's dot
    std::vector<Candidate> cands_t = {
        {multi, "openblas", false,
         [&] { cblas_dgemv(CblasColMajor, CblasTrans, (int)n, (int)n, 1.0, pA, (int)n, px, 1, 0.0, py, 1); },
         [&] { openblas_threads(o.cores); }},
        {multi, "exstar", true,
         [&] { check(exstar_dgemv('T', n, n, 1.0, pA, n, px, 1, 0.0, py, 1), "exstar_dgemv"); }},
    };
    measure(csv, "gemv_t", n, 8.0 * n * n, o.reps, cands_t);
  }
  stop_exstar();

  int ref = std::min(std::max(o.ref_log2n, o.min_log2n), o.max_log2n);
  const int64_t n = int64_t(1) << ref;
  std::printf("\nsummary at n = %" PRId64 ", %d cores:\n", n, o.cores);
  print_ratio("  exact gemv (exstar_dgemv, StarPU) / OpenBLAS dgemv", csv.seconds("gemv", n, multi, "exstar"),
              csv.seconds("gemv", n, multi, "openblas"), 3.0);
  print_ratio("  exact gemv 'T' (exstar_dgemv, StarPU) / OpenBLAS dgemv 'T'", csv.seconds("gemv_t", n, multi, "exstar"),
              csv.seconds("gemv_t", n, multi, "openblas"), 3.0);
  print_ratio("  exact gemv kernel alone / OpenBLAS dgemv, 1 thread", csv.seconds("gemv", n, one, "exstar-kernel"),
              csv.seconds("gemv", n, one, "openblas"), 0);
  if (mismatches) std::printf("%d size(s) where the StarPU and kernel-only exact results differ\n", mismatches);
  return mismatches ? 1 : 0;
}
