// Benchmark of the exact triangular solve (lower, no transpose, non-unit diagonal) on CPU cores
// against OpenBLAS.
//
//   exstar_bench_trsv [--min-log2n K] [--max-log2n K] [--reps R] [--cores C] [--sched NAME]
//                     [--csv FILE] [--ref-log2n K] [--quiet]
//
// For n = 2^min .. 2^max (default 1024 .. 16384), the median of R runs (default 10,
// round-robin, see measure() in bench_util.hpp) of:
//   exstar   / cpu-Cc  exstar_dtrsv('L', 'N', 'N', n, T, n, x, 1, &info) through StarPU
//   openblas / cpu-Cc  cblas_dtrsv(ColMajor, Lower, NoTrans, NonUnit, ...), C OpenBLAS threads
//   openblas / cpu-1c  the same on one thread
// x is reset to b (untimed) before every call. T is diagonally dominant (off-diagonal entries
// uniform in [-1, 1) / n, diagonal 2 + |u|), so the solve stays well inside the double range
// (the data option is ignored: wide exponents would overflow the substitution).
// CSV: op,n,backend,implementation,seconds,GBps with GBps = 4·n² / seconds / 1e9 (the triangle).
// stdout ends with the ratio exact/OpenBLAS at n = 2^ref (default 2^13; target <= 3x).
#include "bench/bench_util.hpp"

#include <cinttypes>

namespace {

using namespace exstar_bench;

// Lower triangle of a diagonally dominant n x n matrix, column-major, lda = n (upper part 0).
void make_lower(std::vector<double> &T, int64_t n)
{
  T.assign(n * n, 0.0);
  fill(T, 5, "uniform");
  const double scale = 1.0 / (double)n;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      double &t = T[i + j * n];
      t = i > j ? t * scale : i == j ? 2.0 + std::fabs(t) : 0.0;
    }
}

} // namespace

int main(int argc, char **argv)
{
  Options d;
  d.min_log2n = 10;
  d.max_log2n = 14;
  d.ref_log2n = 13;
  Options o = parse_options(argc, argv, d, "exact trsv vs OpenBLAS dtrsv");
  const int64_t nmax = int64_t(1) << o.max_log2n;
  std::vector<double> T, b(nmax), x(nmax), xe(nmax);
  fill(b, 6, "uniform");
  const std::string multi = backend_name(o.cores), one = backend_name(1);
  Csv csv(o.csv, o.quiet);
  std::printf("exstar_bench_trsv: L N N, n = 2^%d..2^%d, %d reps (median, after 1 warm-up)\n", o.min_log2n,
              o.max_log2n, o.reps);
  std::printf("OpenBLAS %s, threads: %d (%s) and 1 (%s)\n", openblas_info().c_str(), o.cores, multi.c_str(),
              one.c_str());
  std::printf("StarPU: %d CPU workers (STARPU_NCPU), scheduler %s, exstar's default blocking\n", o.cores,
              o.sched.c_str());

  start_exstar(o.cores, o.sched);
  for (int k = o.min_log2n; k <= o.max_log2n; ++k) {
    const int64_t n = int64_t(1) << k;
    make_lower(T, n);
    const double *pT = T.data();
    double *px = x.data(), *pxe = xe.data();
    auto reset = [&](double *v) { std::copy(b.begin(), b.begin() + n, v); };
    std::vector<Candidate> cands = {
        {multi, "openblas", false,
         [&] { cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)n, pT, (int)n, px, 1); },
         [&] { openblas_threads(o.cores); reset(px); }},
        {one, "openblas", false,
         [&] { cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)n, pT, (int)n, px, 1); },
         [&] { openblas_threads(1); reset(px); }},
        {multi, "exstar", true,
         [&] {
           int64_t info = 0;
           check(exstar_dtrsv('L', 'N', 'N', n, pT, n, pxe, 1, &info), "exstar_dtrsv");
         },
         [&] { reset(pxe); }},
    };
    measure(csv, "trsv", n, 4.0 * n * n, o.reps, cands);
    double maxrel = 0;
    for (int64_t i = 0; i < n; ++i) maxrel = std::max(maxrel, std::fabs(x[i] - xe[i]) / std::fabs(xe[i]));
    if (!o.quiet) std::printf("      n=%" PRId64 " max |openblas - exact| / |exact| = %.3g\n", n, maxrel);
  }
  stop_exstar();

  int ref = std::min(std::max(o.ref_log2n, o.min_log2n), o.max_log2n);
  const int64_t n = int64_t(1) << ref;
  std::printf("\nsummary at n = %" PRId64 ", %d cores:\n", n, o.cores);
  print_ratio("  exact trsv (exstar_dtrsv, StarPU) / OpenBLAS dtrsv", csv.seconds("trsv", n, multi, "exstar"),
              csv.seconds("trsv", n, multi, "openblas"), 3.0);
  print_ratio("  exact trsv / OpenBLAS dtrsv, 1 thread", csv.seconds("trsv", n, multi, "exstar"),
              csv.seconds("trsv", n, one, "openblas"), 0);
  return 0;
}
