// Benchmark of the exact LU factorization (exstar_dgetrf) on CPU cores against the same task graph
// with plain-double codelets (exstar_dgetrf_plain) and LAPACK's dgetrf from OpenBLAS.
//
//   exstar_bench_lu [--min-log2n K] [--max-log2n K] [--reps R] [--cores C] [--sched NAME]
//                   [--csv FILE] [--ref-log2n K] [--quiet] [--budget S]
//
// For n = 2^min .. 2^max (default 512 .. 2048; 8192 is --max-log2n 13, hours on 2 cores for the
// exact LU), square n x n, lda = n, the median of R runs (default 10, round-robin, see measure()
// in bench_util.hpp) of the candidates below; when the warm-up round shows that R rounds would take
// more than S seconds (--budget, default 300; 0: no limit) fewer rounds are timed (at least 1),
// and the program says so. Candidates:
//   exstar       / cpu-Cc  exstar_dgetrf(n, n, A, n, ipiv, &info) through StarPU
//   exstar-plain / cpu-Cc  exstar_dgetrf_plain: the same graph and pivoting, plain double columns
//   openblas     / cpu-Cc  LAPACK dgetrf_ of OpenBLAS (blocked, right-looking) on C threads
//   openblas     / cpu-1c  the same on one thread
// A is reset (untimed) to the input before every call. Input: uniform in [-1, 1) (the data
// option is ignored: partial pivoting on such a matrix keeps every entry in range).
// CSV: op,n,backend,implementation,seconds,GBps with GBps = 8·n² / seconds / 1e9 (the matrix
// read once: a nominal rate, comparable between implementations; LU does 2n³/3 flops).
// stdout ends with the ratios exact/plain graph and exact/LAPACK at n = 2^ref (default 2^11).
// Exit status 1 when the exact LU's factors differ from one run to the next (not reproducible).
#include "bench/bench_util.hpp"

#include <cinttypes>

// LAPACK of OpenBLAS (Debian's libopenblas has LAPACK inside; no lapacke.h needed).
extern "C" void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);

using namespace exstar_bench;

namespace {

// measure() of bench_util.hpp with a time budget: the exact LU takes seconds to minutes per call
// on 2 cores, so after the warm-up round the number of timed rounds is cut to what fits in
// budget seconds (at least 1, at most reps). Same round-robin, same CSV rows.
int measure_budget(Csv &csv, const std::string &op, int64_t n, double bytes, int reps, double budget,
                   std::vector<Candidate> &cands)
{
  std::vector<std::vector<double>> t(cands.size());
  double warm = 0;
  int rounds = reps;
  for (int r = -1; r < rounds; ++r) {
    for (size_t c = 0; c < cands.size(); ++c) {
      starpu_workers_run(cands[c].starpu);
      if (cands[c].prepare) cands[c].prepare();
      double s = seconds_of(cands[c].run);
      if (r >= 0) t[c].push_back(s);
      else warm += s;
    }
    if (r < 0 && budget > 0 && warm * reps > budget) rounds = std::max(1, (int)(budget / warm));
  }
  for (size_t c = 0; c < cands.size(); ++c) csv.add(op, n, cands[c].backend, cands[c].implementation, median(t[c]), bytes);
  return rounds;
}

} // namespace

int main(int argc, char **argv)
{
  Options d;
  d.min_log2n = 9;
  d.max_log2n = 11;
  d.ref_log2n = 11;
  // --budget S (this program's own option, taken out before the common ones are parsed).
  double budget = 300;
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--budget") == 0 && i + 1 < argc) budget = std::atof(argv[++i]);
    else args.push_back(argv[i]);
  }
  Options o = parse_options((int)args.size(), args.data(), d,
                            "exact LU vs the plain-double graph and OpenBLAS dgetrf; own option --budget S: "
                            "seconds of timed rounds per size (default 300, 0 = no limit)");
  const int64_t nmax = int64_t(1) << o.max_log2n;
  std::vector<double> A0(nmax * nmax), A(nmax * nmax), Ae(nmax * nmax);
  std::vector<int32_t> ipiv(nmax), ipive(nmax);
  std::vector<int> ipivl(nmax);
  const std::string multi = backend_name(o.cores), one = backend_name(1);
  Csv csv(o.csv, o.quiet);
  std::printf("exstar_bench_lu: getrf n x n, n = 2^%d..2^%d, %d reps (median, after 1 warm-up)\n", o.min_log2n,
              o.max_log2n, o.reps);
  std::printf("OpenBLAS %s (LAPACK dgetrf_), threads: %d (%s) and 1 (%s)\n", openblas_info().c_str(), o.cores,
              multi.c_str(), one.c_str());
  std::printf("StarPU: %d CPU workers (STARPU_NCPU), scheduler %s, exstar's default blocking\n", o.cores,
              o.sched.c_str());

  start_exstar(o.cores, o.sched);
  repro_check repro("exact LU factors");
  for (int k = o.min_log2n; k <= o.max_log2n; ++k) {
    const int64_t n = int64_t(1) << k;
    A0.resize(n * n);
    fill(A0, 7 + k, "uniform");
    double *pA = A.data(), *pAe = Ae.data();
    auto reset = [&](double *dst) { std::copy(A0.begin(), A0.begin() + n * n, dst); };
    const int ni = (int)n;
    repro.new_size();
    auto lapack = [&] {
      int info = 0;
      dgetrf_(&ni, &ni, pA, &ni, ipivl.data(), &info);
      if (info < 0) { std::fprintf(stderr, "dgetrf_: info = %d\n", info); std::exit(1); }
    };
    std::vector<Candidate> cands = {
        {multi, "openblas", false, lapack, [&] { openblas_threads(o.cores); reset(pA); }},
        {one, "openblas", false, lapack, [&] { openblas_threads(1); reset(pA); }},
        {multi, "exstar-plain", true,
         [&] {
           int64_t info = 0;
           int s = exstar_dgetrf_plain(n, n, pA, n, ipiv.data(), &info);
           if (s != EXSTAR_ERR_SINGULAR) check(s, "exstar_dgetrf_plain");
         },
         [&] { reset(pA); }},
        {multi, "exstar", true,
         [&] {
           int64_t info = 0;
           int s = exstar_dgetrf(n, n, pAe, n, ipive.data(), &info);
           if (s != EXSTAR_ERR_SINGULAR) check(s, "exstar_dgetrf");
         },
         [&] { repro.before_run(pAe, n); reset(pAe); }},
    };
    int done = measure_budget(csv, "getrf", n, 8.0 * n * n, o.reps, budget, cands);
    if (done < o.reps && !o.quiet) std::printf("      n=%" PRId64 ": %d timed round(s), not %d (--budget %g s)\n", n, done, o.reps, budget);
    repro.check(pAe, n);
    // Distance of the plain graph's factors (last run, in A) from the exact ones (in Ae).
    double maxrel = 0;
    for (int64_t i = 0; i < n * n; ++i)
      if (Ae[i] != 0) maxrel = std::max(maxrel, std::fabs(A[i] - Ae[i]) / std::fabs(Ae[i]));
    int pivdiff = 0;
    for (int64_t i = 0; i < n; ++i) pivdiff += ipiv[i] != ipive[i];
    if (!o.quiet)
      std::printf("      n=%" PRId64 " plain graph vs exact: max rel. difference %.3g, %d pivots differ\n", n, maxrel,
                  pivdiff);
  }
  stop_exstar();

  int ref = std::min(std::max(o.ref_log2n, o.min_log2n), o.max_log2n);
  const int64_t n = int64_t(1) << ref;
  std::printf("\nsummary at n = %" PRId64 ", %d cores:\n", n, o.cores);
  // no target here: the LU's "at most 2x the plain graph" is the GPU's (bench/cuda/gpu_bench.cpp)
  print_ratio("  exact LU (exstar_dgetrf) / plain-double graph (exstar_dgetrf_plain)",
              csv.seconds("getrf", n, multi, "exstar"), csv.seconds("getrf", n, multi, "exstar-plain"), 0);
  print_ratio("  exact LU / OpenBLAS LAPACK dgetrf", csv.seconds("getrf", n, multi, "exstar"),
              csv.seconds("getrf", n, multi, "openblas"), 0);
  print_ratio("  exact LU / OpenBLAS LAPACK dgetrf, 1 thread", csv.seconds("getrf", n, multi, "exstar"),
              csv.seconds("getrf", n, one, "openblas"), 0);
  return repro.report();
}
