// exstar bench dot|nrm2|gemv|trsv|gemm|getrf|potrf --n N [--reps R]: times the exact library call against
// the vendor's plain-double implementation (BLAS, LAPACK) on the same cores, and prints the
// medians and ratios.
#include "baseline.hpp"
#include "cli.hpp"
#include "gen.hpp"
#include "lu.hpp"
#include "mmio.hpp"
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>

namespace cli {

namespace {

std::vector<OptSpec> options()
{
  std::vector<OptSpec> o = runtime_options();
  for (const char *name : {"--n", "--reps", "--seed", "--nb"}) o.push_back({name, true});
  return o;
}

// One contender: reset() restores its input (untimed), call() is timed.
struct Contender {
  std::string name, where;
  std::function<void()> reset;
  std::function<int()> call;
};

// The median of reps timed calls, after one untimed warm-up call (StarPU's first tasks also
// load the OpenCL program and calibrate the performance models).
double median_seconds(const Contender &c, int reps)
{
  std::vector<double> times;
  for (int r = -1; r < reps; ++r) {
    c.reset();
    auto start = std::chrono::steady_clock::now();
    int status = c.call();
    std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    if (status != EXSTAR_SUCCESS) check(status);
    if (r >= 0) times.push_back(t.count());
  }
  std::sort(times.begin(), times.end());
  size_t k = times.size();
  return k % 2 ? times[k / 2] : 0.5 * (times[k / 2 - 1] + times[k / 2]);
}

Matrix random_matrix(Rng &rng, int64_t rows, int64_t cols)
{
  Matrix m;
  m.rows = rows;
  m.cols = cols;
  m.values.resize((size_t)(rows * cols));
  for (double &v : m.values) v = rng.symmetric();
  return m;
}

// Lower triangular with a dominant diagonal, so that the solution stays of order 1 (no overflow
// and no special values on the timed path).
Matrix dominant_lower(Rng &rng, int64_t n)
{
  Matrix t = random_matrix(rng, n, n);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      t.at(i, j) = i < j ? 0.0 : i == j ? 1.0 + rng.unit() : t.at(i, j) / (double)n;
  return t;
}

// The data live in one Workspace for the whole run; the contenders capture it by reference.
struct Workspace {
  Matrix a, x, y;
  std::vector<double> out, b;
  std::vector<int32_t> ipiv;
  int64_t info = 0;
  double scalar = 0.0;
};

// The vendor baselines: the BLAS and LAPACK the tool links (OpenBLAS on Debian), through their
// Fortran symbols, on as many threads as there are CPU workers: the same cores as the exact call.
#ifdef EXSTAR_TOOL_HAVE_LAPACK
extern "C" {
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t);
double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy);
double dnrm2_(const int *n, const double *x, const int *incx);
void dgemv_(const char *trans, const int *m, const int *n, const double *alpha, const double *a, const int *lda,
            const double *x, const int *incx, const double *beta, double *y, const int *incy, size_t);
void dtrsv_(const char *uplo, const char *trans, const char *diag, const int *n, const double *a, const int *lda,
            double *x, const int *incx, size_t, size_t, size_t);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc, size_t, size_t);
void openblas_set_num_threads(int) __attribute__((weak));
}

// The threads BLAS and LAPACK get: as many as CPU workers (the same cores); without CPU workers
// (only accelerators) the machine's cores, not one thread (a single-threaded n = 8192 dgetrf
// beside a GPU took ~9 s a run).
unsigned vendor_threads()
{
  const unsigned workers = starpu_cpu_worker_get_count();
  return workers > 0 ? workers : std::max(1u, std::thread::hardware_concurrency());
}

// Wraps a vendor call: sets OpenBLAS's thread count first (when the BLAS is OpenBLAS), and
// pauses StarPU's workers around it. Idle StarPU CPU workers poll for tasks, so they took half
// of the cores from OpenBLAS's threads: dgemm n = 2048 on 2 threads took 0.348 s beside 2 idle
// workers, 0.184 s with them paused, 0.176 s in a program without StarPU (2-core EPYC VM).
std::function<int()> vendor(std::function<void()> f)
{
  return [f] {
    if (openblas_set_num_threads) openblas_set_num_threads((int)vendor_threads());
    starpu_pause();
    f();
    starpu_resume();
    return (int)EXSTAR_SUCCESS;
  };
}

std::string vendor_where(const char *call) { return std::string(call) + ", " + std::to_string(vendor_threads()) + " threads"; }
#endif

std::vector<Contender> dot_contenders(int64_t n, Workspace &w, Rng &rng)
{
  w.x = random_matrix(rng, n, 1);
  w.y = random_matrix(rng, n, 1);
  auto nothing = [] {};
  std::vector<Contender> c = {
      {"exact", "exstar_ddot (StarPU)", nothing,
       [&w, n] { return exstar_ddot(n, w.x.values.data(), 1, w.y.values.data(), 1, &w.scalar); }}};
#ifdef EXSTAR_TOOL_HAVE_LAPACK
  c.push_back({"blas", vendor_where("BLAS ddot"), nothing, vendor([&w, n] {
                 const int ni = (int)n, one = 1;
                 w.scalar = ddot_(&ni, w.x.values.data(), &one, w.y.values.data(), &one);
               })});
#else
  c.push_back({"plain", "double loop, 1 thread (no BLAS)", nothing, [&w] {
                 w.scalar = plain_dot(w.x.values, w.y.values);
                 return (int)EXSTAR_SUCCESS;
               }});
#endif
  return c;
}

std::vector<Contender> nrm2_contenders(int64_t n, Workspace &w, Rng &rng)
{
  w.x = random_matrix(rng, n, 1);
  auto nothing = [] {};
  std::vector<Contender> c = {
      {"exact", "exstar_dnrm2 (StarPU)", nothing, [&w, n] { return exstar_dnrm2(n, w.x.values.data(), 1, &w.scalar); }}};
#ifdef EXSTAR_TOOL_HAVE_LAPACK
  c.push_back({"blas", vendor_where("BLAS dnrm2"), nothing, vendor([&w, n] {
                 const int ni = (int)n, one = 1;
                 w.scalar = dnrm2_(&ni, w.x.values.data(), &one);
               })});
#else
  c.push_back({"plain", "sqrt of a double loop, 1 thread (no BLAS)", nothing, [&w] {
                 double s = 0.0;
                 for (double v : w.x.values) s += v * v;
                 w.scalar = std::sqrt(s);
                 return (int)EXSTAR_SUCCESS;
               }});
#endif
  return c;
}

std::vector<Contender> gemv_contenders(int64_t n, Workspace &w, Rng &rng)
{
  w.a = random_matrix(rng, n, n);
  w.x = random_matrix(rng, n, 1);
  w.out.assign((size_t)n, 0.0);
  auto nothing = [] {};
  std::vector<Contender> c = {
      {"exact", "exstar_dgemv (StarPU)", nothing, [&w, n] {
         return exstar_dgemv('N', n, n, 1.0, w.a.values.data(), n, w.x.values.data(), 1, 0.0, w.out.data(), 1);
       }}};
#ifdef EXSTAR_TOOL_HAVE_LAPACK
  c.push_back({"blas", vendor_where("BLAS dgemv"), nothing, vendor([&w, n] {
                 const int ni = (int)n, one = 1;
                 const double alpha = 1.0, beta = 0.0;
                 dgemv_("N", &ni, &ni, &alpha, w.a.values.data(), &ni, w.x.values.data(), &one, &beta, w.out.data(),
                        &one, 1);
               })});
#else
  c.push_back({"plain", "double loops, 1 thread (no BLAS)", nothing, [&w] {
                 plain_gemv(false, w.a, 1.0, w.x.values, 0.0, w.out);
                 return (int)EXSTAR_SUCCESS;
               }});
#endif
  return c;
}

std::vector<Contender> trsv_contenders(int64_t n, Workspace &w, Rng &rng)
{
  w.a = dominant_lower(rng, n);
  w.b = random_matrix(rng, n, 1).values;
  auto reset = [&w] { w.out = w.b; };
  std::vector<Contender> c = {
      {"exact", "exstar_dtrsv (StarPU)", reset,
       [&w, n] { return exstar_dtrsv('L', 'N', 'N', n, w.a.values.data(), n, w.out.data(), 1, &w.info); }}};
#ifdef EXSTAR_TOOL_HAVE_LAPACK
  c.push_back({"blas", vendor_where("BLAS dtrsv"), reset, vendor([&w, n] {
                 const int ni = (int)n, one = 1;
                 dtrsv_("L", "N", "N", &ni, w.a.values.data(), &ni, w.out.data(), &one, 1, 1, 1);
               })});
#else
  c.push_back({"plain", "double substitution, 1 thread (no BLAS)", reset, [&w] {
                 plain_trsv('L', false, false, w.a, w.out);
                 return (int)EXSTAR_SUCCESS;
               }});
#endif
  return c;
}

std::vector<Contender> gemm_contenders(int64_t n, Workspace &w, Rng &rng)
{
  w.a = random_matrix(rng, n, n);
  w.x = random_matrix(rng, n, n); // B
  w.out.assign((size_t)(n * n), 0.0);
  auto nothing = [] {};
  std::vector<Contender> c = {{"exact", "exstar_dgemm (StarPU)", nothing, [&w, n] {
                                 return exstar_dgemm('N', 'N', n, n, n, 1.0, w.a.values.data(), n, w.x.values.data(),
                                                     n, 0.0, w.out.data(), n);
                               }}};
#ifdef EXSTAR_TOOL_HAVE_LAPACK
  c.push_back({"blas", vendor_where("BLAS dgemm"), nothing, vendor([&w, n] {
                 const int ni = (int)n;
                 const double alpha = 1.0, beta = 0.0;
                 dgemm_("N", "N", &ni, &ni, &ni, &alpha, w.a.values.data(), &ni, w.x.values.data(), &ni, &beta,
                        w.out.data(), &ni, 1, 1);
               })});
#else
  c.push_back({"plain", "double loops, 1 thread (no BLAS)", nothing, [&w, n] {
                 plain_gemm(false, false, w.a, w.x, 1.0, 0.0, n, n, n, w.out);
                 return (int)EXSTAR_SUCCESS;
               }});
#endif
  return c;
}

// getrf: the exact and plain tiled graphs through the library on the same workers, and
// LAPACK's dgetrf (OpenBLAS on Debian) on as many threads as there are CPU workers.
std::vector<Contender> getrf_contenders(int64_t n, Workspace &w, Rng &rng)
{
  w.a = random_matrix(rng, n, n);
  w.ipiv.assign((size_t)n, 0);
  auto reset = [&w] { w.out = w.a.values; };
  std::vector<Contender> c = {
      {"exact", "exstar_dgetrf (StarPU, tiled)", reset,
       [&w, n] { return exstar_dgetrf(n, n, w.out.data(), n, w.ipiv.data(), &w.info); }},
      {"plain-tiled", "exstar_dgetrf_plain (StarPU, tiled)", reset,
       [&w, n] { return exstar_dgetrf_plain(n, n, w.out.data(), n, w.ipiv.data(), &w.info); }}};
#ifdef EXSTAR_TOOL_HAVE_LAPACK
  c.push_back({"lapack", vendor_where("LAPACK dgetrf"), reset, vendor([&w, n] {
                 int ni = (int)n, info = 0;
                 static_assert(sizeof(int) == sizeof(int32_t), "LAPACK's ipiv is int");
                 dgetrf_(&ni, &ni, w.out.data(), &ni, (int *)w.ipiv.data(), &info);
               })});
#endif
  return c;
}

// potrf: a symmetric positive definite A (uniform in [-1, 1) mirrored from the lower triangle,
// n on the diagonal: strictly diagonally dominant), factored by the exact and plain tiled graphs
// and by LAPACK's dpotrf.
std::vector<Contender> potrf_contenders(int64_t n, Workspace &w, Rng &rng)
{
  w.a = random_matrix(rng, n, n);
  for (int64_t j = 0; j < n; ++j) {
    w.a.at(j, j) = (double)n;
    for (int64_t i = j + 1; i < n; ++i) w.a.at(j, i) = w.a.at(i, j);
  }
  auto reset = [&w] { w.out = w.a.values; };
  std::vector<Contender> c = {
      {"exact", "exstar_dpotrf (StarPU, tiled)", reset,
       [&w, n] { return exstar_dpotrf('L', n, w.out.data(), n, &w.info); }},
      {"plain-tiled", "exstar_dpotrf_plain (StarPU, tiled)", reset,
       [&w, n] { return exstar_dpotrf_plain('L', n, w.out.data(), n, &w.info); }}};
#ifdef EXSTAR_TOOL_HAVE_LAPACK
  c.push_back({"lapack", vendor_where("LAPACK dpotrf"), reset, vendor([&w, n] {
                 int ni = (int)n, info = 0;
                 dpotrf_("L", &ni, w.out.data(), &ni, &info, 1);
               })});
#endif
  return c;
}

std::vector<Contender> contenders(const std::string &op, int64_t n, Workspace &w, Rng &rng)
{
  if (op == "potrf") return potrf_contenders(n, w, rng);
  if (op == "dot") return dot_contenders(n, w, rng);
  if (op == "nrm2") return nrm2_contenders(n, w, rng);
  if (op == "gemv") return gemv_contenders(n, w, rng);
  if (op == "trsv") return trsv_contenders(n, w, rng);
  if (op == "gemm") return gemm_contenders(n, w, rng);
  return getrf_contenders(n, w, rng);
}

std::string workers()
{
  std::string s;
  const std::pair<enum starpu_worker_archtype, const char *> kinds[] = {
      {STARPU_CPU_WORKER, "cpu"}, {STARPU_OPENCL_WORKER, "opencl"}, {STARPU_CUDA_WORKER, "cuda"}};
  for (const auto &k : kinds) {
    int count = starpu_worker_get_count_by_type(k.first);
    if (count > 0) s += (s.empty() ? "" : ", ") + std::to_string(count) + " " + k.second;
  }
  return s;
}

int run(const Args &args)
{
  args.expect_files(1, 1, "one operation: dot, nrm2, gemv, trsv, gemm, getrf or potrf");
  const std::string op = args.files()[0];
  if (op != "dot" && op != "nrm2" && op != "gemv" && op != "trsv" && op != "gemm" && op != "getrf" && op != "potrf")
    throw UsageError("unknown operation '" + op + "' (dot, nrm2, gemv, trsv, gemm, getrf or potrf)");
  if (!args.has("--n")) throw UsageError("missing --n N");
  const int64_t max_n = op == "dot" || op == "nrm2"                      ? (int64_t(1) << 28)
                        : op == "getrf" || op == "gemm" || op == "potrf" ? 8192
                                                                         : 16384;
  int64_t n = args.integer("--n", 0, 1, max_n);
  int reps = (int)args.integer("--reps", 5, 1, 1000);
  Rng rng((uint64_t)args.integer("--seed", 1, 0, INT64_MAX));
  Session session(args);
  if (op == "getrf" || op == "potrf") lu_shape(args);
  Workspace w;
  std::vector<Contender> list = contenders(op, n, w, rng);
  std::vector<double> medians;
  for (const Contender &c : list) medians.push_back(median_seconds(c, reps));
  // The baseline is the last contender: the vendor BLAS/LAPACK call (the tool's own loop in a
  // build without them).
  const Contender &base = list.back();
  const double baseline = medians.back();
  std::printf("exstar bench %s: n = %lld, median of %d runs, workers: %s\n", op.c_str(), (long long)n, reps,
              workers().c_str());
  std::printf("%-12s %-36s %12s %10s\n", "", "implementation", "median s", ("vs " + base.name).c_str());
  for (size_t i = 0; i < list.size(); ++i)
    std::printf("%-12s %-36s %12.3e %10.3g\n", list[i].name.c_str(), list[i].where.c_str(), medians[i],
                baseline > 0 ? medians[i] / baseline : 0.0);
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) throw Failure("cannot write to standard output");
  return EXIT_OK;
}

std::string help()
{
  return std::string(
             "usage: exstar bench dot|nrm2|gemv|trsv|gemm|getrf|potrf --n N [options]\n\n"
             "Times the exact library call against the best plain-double implementation of the\n"
             "same operation the tool is linked with (BLAS and LAPACK: OpenBLAS on Debian, on as\n"
             "many threads as there are CPU workers, the same cores; the machine's cores when there\n"
             "are none) and prints the median time of each and its ratio to that baseline, the\n"
             "last line. Data: uniform random in [-1, 1) (trsv: a lower triangular matrix with a\n"
             "dominant diagonal; potrf: a symmetric one, n on the diagonal). Each contender runs\n"
             "once untimed first (warm-up), then R timed runs.\n"
             "  dot    exstar_ddot, n-vectors           vs BLAS ddot\n"
             "  nrm2   exstar_dnrm2, n-vector            vs BLAS dnrm2\n"
             "  gemv   exstar_dgemv, n x n, y := A x    vs BLAS dgemv\n"
             "  trsv   exstar_dtrsv, lower n x n        vs BLAS dtrsv\n"
             "  gemm   exstar_dgemm, n x n, C := A B    vs BLAS dgemm\n"
             "  getrf  exstar_dgetrf, n x n, tiled      vs exstar_dgetrf_plain (plain-tiled: the same\n"
             "                                          tiled graph with LAPACK/BLAS kernels) and\n"
             "                                          LAPACK dgetrf; one line each\n"
             "  potrf  exstar_dpotrf, n x n, tiled       vs exstar_dpotrf_plain (the same tiled graph\n"
             "                                          with LAPACK/BLAS kernels) and LAPACK dpotrf\n"
             "A build without BLAS and LAPACK compares with double loops written in the tool\n"
             "(one thread; getrf: plain-tiled alone), and says so; potrf needs LAPACK.\n\n"
             "options:\n"
             "  --n N          problem size (required)\n"
             "  --reps R       timed runs per contender (default 5)\n"
             "  --seed S       seed of the random data (default 1)\n"
             "  --nb NB        getrf, potrf: tile edge of both tiled graphs (default exstar_default_tile)\n") +
         runtime_options_help;
}

} // namespace

extern const Command cmd_bench;
const Command cmd_bench = {"bench", "time the exact operations against BLAS/LAPACK",
                           help, options, run, UnderMpi::rank0};

} // namespace cli
