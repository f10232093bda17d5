// GPU benchmark of exstar's exact gemv, trsv and LU on one CUDA device, against cuBLAS / cuSOLVER
// on the same device data, in ONE run (one CSV):
//
//   gpu_bench [--ops gemv,trsv,lu] [--min-log K] [--max-log K] [--lu-min-log K] [--lu-max-log K]
//             [--reps R] [--lu-reps R] [--lu-limit S] [--trsv-nb NB] [--sched NAME] [--ncpu C]
//             [--csv FILE]
//
// CSV lines op,n,backend,implementation,seconds,GBps on stdout and in FILE; everything else
// (device, settings, checks, the ratio summary) on stderr. backend: `cuda` for work issued on one
// stream by this program (timed with CUDA events: median of R runs after 3 warm-ups), `starpu-cuda`
// for a task graph run by StarPU on its CUDA worker (timed on the host: submission + execution,
// starpu_task_wait_for_all; median of R after 1 warm-up). Rows:
//   gemv N and T (op gemv_n / gemv_t), n x n, n = 2^min-log .. 2^max-log (default 1024 .. 16384):
//     cuda / exstar-kernels  exstar_cuda_acc_zero + exstar_cuda_gemv_acc + exstar_cuda_gemv_finish
//                            (α = 1, β = 0: the whole exact operation, called directly)
//     cuda / cublas          cublasDgemv (host pointer mode)
//   trsv lower, no transpose, non-unit (op trsv), same sizes; x reset to b before each run, untimed:
//     cuda / exstar-kernels  exstar_dtrsv's blocked order issued directly: per block of nb rows
//                            (--trsv-nb, default 16384 = the runtime's with CUDA), acc zero, the exact gemv_acc
//                            of the solved blocks (α = −1), then exstar_cuda_trsv_solve
//     starpu-cuda / exstar   exstar_dtrsv_insert on handles already on the GPU (T prefetched once,
//                            x prefetched after each reset), until starpu_task_wait_for_all
//     cuda / cublas          cublasDtrsv
//   LU (op getrf), n = 2^lu-min-log .. 2^lu-max-log (default 512 .. 8192), uniform [-1, 1):
//     starpu-cuda / exstar        exstar_dgetrf_insert, A and ipiv prefetched to the GPU first
//     starpu-cuda / exstar-plain  exstar_dgetrf_plain_insert, same conditions
//     cuda / cusolver             cusolverDnDgetrf (A reset on the device, untimed)
//     When one StarPU LU run takes more than --lu-limit seconds (default 60), that implementation
//     is timed once at that size and not at larger ones (said on stderr).
//   gemm (op gemm), n = --gemm-n, 'N','N', α 1, β 0:
//     cuda / cublas                     cublasDgemm on device data
//     starpu-cuda / exstar              exstar_dgemm on pinned host arrays (PCIe inside the time)
//     starpu-cuda / exstar-device-home  exstar_dgemm_desc_insert on --gemm-nb tiles at home on the
//                                       GPUs (the library's grid of C's tiles), bits compared
//                                       with the blocking call's
// Except for the blocking exstar_dgemm, no host<->device transfer is timed. GBps: gemv 8·n², trsv 4·n², getrf 8·n² bytes /
// seconds (nominal, as the CPU benchmarks). Checks (stderr): the directly issued and the StarPU
// exact trsv give the same bits; the exact LU gives the same bits on every run; max relative
// differences to cuBLAS / cuSOLVER. Exit status 1 when a bit check fails.
//
// StarPU: exstar_init with the CUDA worker only (--ncpu 0, the default; --ncpu C adds C CPU
// workers, which then share the graph), scheduler eager (--sched).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <exstar/exstar.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/accumulator.h"
#include "kernels_cuda/gemv.h"
#include "kernels_cuda/kernels_cuda.h"
#include "kernels_cuda/trsv.h"
#include "bench/cuda/bench_cuda.hpp"

#define CHECK_CUSOLVER(call)                                                                   \
  do {                                                                                         \
    cusolverStatus_t s_ = (call);                                                              \
    if (s_ != CUSOLVER_STATUS_SUCCESS) {                                                       \
      std::fprintf(stderr, "%s:%d: cuSOLVER status %d\n", __FILE__, __LINE__, (int)s_);        \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

namespace {

struct Options {
  std::string ops = "gemv,trsv,lu";
  int min_log = 10, max_log = 14;    // gemv, trsv
  int lu_min_log = 9, lu_max_log = 13;
  int reps = 10, lu_reps = 5;
  double lu_limit = 60;
  int64_t trsv_nb = 16384; // exstar_dtrsv's default when CUDA workers run
  std::string sched = "eager";
  int ncpu = 0;
  std::string csv;
  std::string lu_sizes = "4096,8192"; // lutiled
  std::string lu_nbs = "0";           // lutiled tile edges (0: exstar_default_tile)
  std::string lu_home = "both";       // lutiled: host (pinned host array), device (tiles on the GPU), both
  std::string potrf_runs = "host,home,plain"; // potrf: which exstar runs
  std::string lu_runs = "cusolver,exact,plain"; // lutiled: which runs (a sweep of settings needs only exact)
  int ncuda = 1, nopencl = 0;         // StarPU CUDA / OpenCL workers (-1: every device)
  int64_t batch_count = 64, batch_n = 1024; // lubatch
  int64_t gemm_n = 16384;             // gemm
  int64_t gemm_nb = 2048;             // gemm: the tiles at home
  std::string gemm_runs = "host,home"; // gemm: which exstar runs
};

void usage(const char *prog)
{
  std::fprintf(stderr,
               "usage: %s [options]\n"
               "  --ops LIST        comma-separated subset of gemv,trsv,lu,lutiled,lubatch,gemm,potrf (default gemv,trsv,lu)\n"
               "  --lu-sizes LIST   lutiled: the n (default 4096,8192)\n"
               "  --lu-nbs LIST     lutiled: the tile edges (default 0: the library's default)\n"
               "  --lu-home WHERE   lutiled: host (pinned host array), device (tiles at home on the GPU) or both\n"
               "  --potrf-runs LIST potrf: the exstar runs, a subset of host,home,plain (default all three)\n"
               "  --lu-runs LIST    lutiled: a subset of cusolver,exact,plain (default all three)\n"
               "  --ncuda N         StarPU CUDA workers, one a GPU (default 1; -1: every GPU)\n"
               "  --nopencl N       StarPU OpenCL workers (default 0; STARPU_WORKERS_OPENCLID picks the devices)\n"
               "  --batch COUNTxN   lubatch: COUNT LUs of N x N (default 64x1024)\n"
               "  --gemm-n N        gemm: exstar_dgemm of N x N matrices through StarPU (default 16384)\n"
               "  --gemm-nb NB      gemm: the tiles of the run on tiles at home on the GPUs (default 2048)\n"
               "  --gemm-runs LIST  gemm: the exstar runs, a subset of host,home (default both)\n"
               "  --min-log K       gemv/trsv smallest n = 2^K (default 10)\n"
               "  --max-log K       gemv/trsv largest n = 2^K (default 14)\n"
               "  --lu-min-log K    LU smallest n = 2^K (default 9)\n"
               "  --lu-max-log K    LU largest n = 2^K (default 13)\n"
               "  --reps R          gemv/trsv timed runs, median kept (default 10)\n"
               "  --lu-reps R       LU timed runs, median kept (default 5)\n"
               "  --lu-limit S      a StarPU LU run over S seconds: once at that n, not larger (default 60)\n"
               "  --trsv-nb NB      trsv block rows (default 16384, as exstar_dtrsv with CUDA workers)\n"
               "  --sched NAME      StarPU scheduler (default eager; 'default': StarPU's own, or STARPU_SCHED)\n"
               "  --ncpu C          StarPU CPU workers beside the CUDA worker (default 0; -1: exstar's default,\n"
               "                    every core but the CUDA worker's and one for this thread)\n"
               "  --csv FILE        also write the CSV to FILE\n",
               prog);
}

Options parse(int argc, char **argv)
{
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", a.c_str()); std::exit(2); }
      return argv[++i];
    };
    if (a == "--ops") o.ops = next();
    else if (a == "--min-log") o.min_log = std::atoi(next());
    else if (a == "--max-log") o.max_log = std::atoi(next());
    else if (a == "--lu-min-log") o.lu_min_log = std::atoi(next());
    else if (a == "--lu-max-log") o.lu_max_log = std::atoi(next());
    else if (a == "--reps") o.reps = std::atoi(next());
    else if (a == "--lu-reps") o.lu_reps = std::atoi(next());
    else if (a == "--lu-limit") o.lu_limit = std::atof(next());
    else if (a == "--trsv-nb") o.trsv_nb = std::atoll(next());
    else if (a == "--sched") o.sched = next();
    else if (a == "--ncpu") o.ncpu = std::atoi(next());
    else if (a == "--csv") o.csv = next();
    else if (a == "--lu-sizes") o.lu_sizes = next();
    else if (a == "--lu-nbs") o.lu_nbs = next();
    else if (a == "--lu-home") o.lu_home = next();
    else if (a == "--potrf-runs") o.potrf_runs = next();
    else if (a == "--lu-runs") o.lu_runs = next();
    else if (a == "--ncuda") o.ncuda = std::atoi(next());
    else if (a == "--nopencl") o.nopencl = std::atoi(next());
    else if (a == "--gemm-n") o.gemm_n = std::atoll(next());
    else if (a == "--gemm-nb") o.gemm_nb = std::atoll(next());
    else if (a == "--gemm-runs") o.gemm_runs = next();
    else if (a == "--batch") {
      long long c = 0, n = 0;
      if (std::sscanf(next(), "%lldx%lld", &c, &n) != 2 || c < 1 || n < 1) { usage(argv[0]); std::exit(2); }
      o.batch_count = c, o.batch_n = n;
    }
    else { usage(argv[0]); std::exit(a == "--help" || a == "-h" ? 0 : 2); }
  }
  if (o.min_log < 0 || o.max_log > 15 || o.min_log > o.max_log || o.lu_min_log < 0 || o.lu_max_log > 15 ||
      o.lu_min_log > o.lu_max_log || o.reps < 1 || o.lu_reps < 1 || o.trsv_nb < 1 || o.ncpu < -1 ||
      (o.lu_home != "host" && o.lu_home != "device" && o.lu_home != "both") || o.ncuda == 0 || o.ncuda < -1 ||
      o.nopencl < 0 || o.gemm_n < 1 || o.gemm_nb < 1) {
    usage(argv[0]);
    std::exit(2);
  }
  return o;
}

bool has_op(const Options &o, const char *op) { return ("," + o.ops + ",").find(std::string(",") + op + ",") != std::string::npos; }

// ---- CSV ---------------------------------------------------------------------------------------
class Csv {
public:
  explicit Csv(const std::string &path)
  {
    if (!path.empty() && !(f_ = std::fopen(path.c_str(), "w"))) { std::perror(path.c_str()); std::exit(1); }
    line("op,n,backend,implementation,seconds,GBps\n");
  }
  ~Csv() { if (f_) std::fclose(f_); }
  void add(const char *op, int64_t n, const char *backend, const char *impl, double sec, double bytes)
  {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s,%lld,%s,%s,%.9e,%.3f\n", op, (long long)n, backend, impl, sec,
                  bytes / sec * 1e-9);
    line(buf);
    t_[key(op, n, backend, impl)] = sec;
  }
  double get(const char *op, int64_t n, const char *backend, const char *impl) const
  {
    auto it = t_.find(key(op, n, backend, impl));
    return it == t_.end() ? NAN : it->second;
  }

private:
  static std::string key(const char *op, int64_t n, const char *b, const char *i)
  {
    return std::string(op) + "/" + std::to_string(n) + "/" + b + "/" + i;
  }
  void line(const char *s)
  {
    std::fputs(s, stdout);
    std::fflush(stdout);
    if (f_) { std::fputs(s, f_); std::fflush(f_); }
  }
  std::FILE *f_ = nullptr;
  std::map<std::string, double> t_;
};

void ratio(const char *label, double a, double b, double target)
{
  if (std::isnan(a) || std::isnan(b)) { std::fprintf(stderr, "%s: not measured\n", label); return; }
  std::fprintf(stderr, "%s: %.4f ms / %.4f ms = %.2fx", label, a * 1e3, b * 1e3, a / b);
  if (target > 0) std::fprintf(stderr, " (target <= %.1fx: %s)", target, a / b <= target ? "met" : "NOT met");
  std::fprintf(stderr, "\n");
}

// ---- timing (stream work: time_stream of bench_cuda.hpp) ------------------------------------------

double wall(const std::function<void()> &f)
{
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// StarPU work: prepare (untimed, host), then op = submission + starpu_task_wait_for_all, host
// clock. One warm-up. A run over limit seconds (limit > 0) ends the series: *slow is set.
double time_starpu(int reps, double limit, const std::function<void()> &prepare, const std::function<void()> &op,
                   const std::function<void()> &after, bool *slow)
{
  std::vector<double> t;
  for (int r = -1; r < reps; ++r) {
    if (prepare) prepare();
    double s = wall(op);
    if (after) after();
    if (r >= 0) t.push_back(s);
    if (limit > 0 && s > limit) {
      if (slow) *slow = true;
      if (r >= 0) break;
      // the warm-up alone was too slow: time exactly one more run
      prepare();
      t.push_back(wall(op));
      if (after) after();
      break;
    }
  }
  return median(t);
}

// FNV-1a of the bytes: a fingerprint of results, to compare separate runs (one GPU, several).
uint64_t fnv1a(const void *p, size_t bytes, uint64_t h = 1469598103934665603ULL)
{
  const unsigned char *c = (const unsigned char *)p;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ULL;
  return h;
}

// ---- data ----------------------------------------------------------------------------------------
uint64_t mix(uint64_t z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
// Uniform in [-1, 1), deterministic.
void fill(double *v, int64_t n, uint64_t seed)
{
  for (int64_t i = 0; i < n; ++i) v[i] = 2.0 * ((double)(mix(seed * 0x100000001b3ULL + (uint64_t)i) >> 11) * 0x1p-53) - 1.0;
}
// Lower triangle of a diagonally dominant matrix (off-diagonal u/n, diagonal 2 + |u|), lda = n, as
// bench_trsv.cpp: the substitution stays well inside the double range.
void make_lower(double *T, int64_t n)
{
  fill(T, n * n, 5);
  const double scale = 1.0 / (double)n;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      double &t = T[i + j * n];
      t = i > j ? t * scale : i == j ? 2.0 + std::fabs(t) : 0.0;
    }
}

// "4.4x cusolver", or "cusolver not run" where --lu-runs left it out of this call (not "nanx").
std::string vs_cusolver(double t, double tc)
{
  char b[48];
  if (std::isnan(tc) || tc <= 0) std::snprintf(b, sizeof b, "cusolver not run");
  else std::snprintf(b, sizeof b, "%.1fx cusolver", t / tc);
  return b;
}

double max_rel(const double *a, const double *ref, int64_t n)
{
  double m = 0;
  for (int64_t i = 0; i < n; ++i)
    if (ref[i] != 0) m = std::max(m, std::fabs(a[i] - ref[i]) / std::fabs(ref[i]));
  return m;
}

struct Gpu {
  cudaStream_t s;
  exstar_cuda_stream es;
  cublasHandle_t blas;
  cusolverDnHandle_t solver;
};

// ---- gemv ------------------------------------------------------------------------------------------
void bench_gemv(const Options &o, Gpu &g, Csv &csv)
{
  const int64_t nmax = int64_t(1) << o.max_log;
  std::vector<double> hA(nmax * nmax), hx(nmax), y1(nmax), y2(nmax);
  fill(hA.data(), nmax * nmax, 3);
  fill(hx.data(), nmax, 4);
  double *A, *x, *y, *yc;
  long long *acc;
  CHECK_CUDA(cudaMalloc(&A, nmax * nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&x, nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&y, nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&yc, nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&acc, nmax * EXSTAR_ACC_WORDS * sizeof(long long)));
  CHECK_CUDA(cudaMemcpy(A, hA.data(), nmax * nmax * sizeof(double), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(x, hx.data(), nmax * sizeof(double), cudaMemcpyHostToDevice));
  const double one = 1.0, zero = 0.0;
  for (int k = o.min_log; k <= o.max_log; ++k) {
    const int64_t n = int64_t(1) << k; // A: the first n² entries, lda = n
    for (char tr : {'N', 'T'}) {
      const char *op = tr == 'N' ? "gemv_n" : "gemv_t";
      double t = time_stream(g.s, o.reps, nullptr, [&] {
        CHECK_EXSTAR(exstar_cuda_acc_zero(acc, n, g.es));
        CHECK_EXSTAR(exstar_cuda_gemv_acc(tr, n, n, 1.0, A, 0, n, x, 0, 1, acc, 0, g.es));
        CHECK_EXSTAR(exstar_cuda_gemv_finish(n, 0.0, y, 0, 1, acc, 0, g.es));
      });
      csv.add(op, n, "cuda", "exstar-kernels", t, 8.0 * n * n);
      t = time_stream(g.s, o.reps, nullptr, [&] {
        CHECK_CUBLAS(cublasDgemv(g.blas, tr == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T, (int)n, (int)n, &one, A, (int)n, x,
                                 1, &zero, yc, 1));
      });
      csv.add(op, n, "cuda", "cublas", t, 8.0 * n * n);
      CHECK_CUDA(cudaMemcpy(y1.data(), y, n * sizeof(double), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(y2.data(), yc, n * sizeof(double), cudaMemcpyDeviceToHost));
      std::fprintf(stderr, "# %s n=%lld: max |cublas - exact| / |exact| = %.3g\n", op, (long long)n,
                   max_rel(y2.data(), y1.data(), n));
    }
  }
  cudaFree(A), cudaFree(x), cudaFree(y), cudaFree(yc), cudaFree(acc);
}

// ---- trsv ------------------------------------------------------------------------------------------
// exstar_dtrsv('L', 'N', 'N') in its blocked order, issued on one stream.
void exact_trsv_kernels(Gpu &g, int64_t n, int64_t nb, const double *T, double *x, long long *accs)
{
  for (int64_t I0 = 0; I0 < n; I0 += nb) {
    const int64_t len = std::min(nb, n - I0);
    CHECK_EXSTAR(exstar_cuda_acc_zero(accs, len, g.es));
    if (I0 > 0) CHECK_EXSTAR(exstar_cuda_gemv_acc('N', len, I0, -1.0, T, I0, n, x, 0, 1, accs, 0, g.es));
    exstar_trsv_shape sh;
    sh.forward = 1, sh.trans = 0, sh.unit = 0;
    sh.nb = len;
    sh.ldt = n;
    sh.t0 = I0 + I0 * n;
    CHECK_EXSTAR(exstar_cuda_trsv_solve(&sh, T, accs, x, I0, 1, g.es));
  }
}

int bench_trsv(const Options &o, Gpu &g, Csv &csv, unsigned cuda_node)
{
  const int64_t nmax = int64_t(1) << o.max_log;
  double *hT = nullptr, *hx = nullptr;
  // Host buffers of the StarPU handles: starpu_malloc pins them (CUDA workers are up).
  if (starpu_malloc((void **)&hT, nmax * nmax * sizeof(double)) || starpu_malloc((void **)&hx, nmax * sizeof(double))) {
    std::fprintf(stderr, "starpu_malloc failed\n");
    std::exit(1);
  }
  std::vector<double> hb(nmax), x1(nmax), x2(nmax);
  fill(hb.data(), nmax, 6);
  double *T, *b, *x, *xc;
  long long *accs;
  CHECK_CUDA(cudaMalloc(&T, nmax * nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&b, nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&x, nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&xc, nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&accs, o.trsv_nb * EXSTAR_ACC_WORDS * sizeof(long long)));
  CHECK_CUDA(cudaMemcpy(b, hb.data(), nmax * sizeof(double), cudaMemcpyHostToDevice));
  int bad = 0;
  for (int k = o.min_log; k <= o.max_log; ++k) {
    const int64_t n = int64_t(1) << k;
    const int64_t nb = std::min(o.trsv_nb, n);
    make_lower(hT, n);
    CHECK_CUDA(cudaMemcpy(T, hT, n * n * sizeof(double), cudaMemcpyHostToDevice));
    auto reset = [&](double *v) {
      CHECK_CUDA(cudaMemcpyAsync(v, b, n * sizeof(double), cudaMemcpyDeviceToDevice, g.s));
    };
    double t = time_stream(g.s, o.reps, [&] { reset(x); }, [&] { exact_trsv_kernels(g, n, nb, T, x, accs); });
    csv.add("trsv", n, "cuda", "exstar-kernels", t, 4.0 * n * n);
    t = time_stream(g.s, o.reps, [&] { reset(xc); }, [&] {
      CHECK_CUBLAS(cublasDtrsv(g.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, (int)n, T, (int)n,
                               xc, 1));
    });
    csv.add("trsv", n, "cuda", "cublas", t, 4.0 * n * n);

    // The same solve through StarPU, on handles whose data are on the GPU before the clock starts.
    starpu_data_handle_t hTh, hxh;
    starpu_matrix_data_register(&hTh, STARPU_MAIN_RAM, (uintptr_t)hT, (uint32_t)n, (uint32_t)n, (uint32_t)n,
                                sizeof(double));
    starpu_vector_data_register(&hxh, STARPU_MAIN_RAM, (uintptr_t)hx, (uint32_t)n, sizeof(double));
    starpu_data_prefetch_on_node(hTh, cuda_node, 0);
    auto prepare = [&] {
      starpu_data_acquire(hxh, STARPU_W);
      std::copy(hb.begin(), hb.begin() + n, hx);
      starpu_data_release(hxh);
      starpu_data_prefetch_on_node(hxh, cuda_node, 0);
      starpu_task_wait_for_all();
    };
    auto run = [&] {
      int s = exstar_dtrsv_insert('L', 'N', 'N', n, hTh, 0, 0, hxh, 0, 1, o.trsv_nb);
      if (s != EXSTAR_SUCCESS) { std::fprintf(stderr, "exstar_dtrsv_insert: %s\n", exstar_last_error()); std::exit(1); }
      starpu_task_wait_for_all();
    };
    t = time_starpu(o.reps, 0, prepare, run, nullptr, nullptr);
    csv.add("trsv", n, "starpu-cuda", "exstar", t, 4.0 * n * n);
    starpu_data_unregister(hxh); // brings x home
    starpu_data_unregister(hTh);

    CHECK_CUDA(cudaMemcpy(x1.data(), x, n * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(x2.data(), xc, n * sizeof(double), cudaMemcpyDeviceToHost));
    const bool same = std::memcmp(x1.data(), hx, n * sizeof(double)) == 0;
    bad += !same;
    std::fprintf(stderr, "# trsv n=%lld: kernels vs StarPU %s; max |cublas - exact| / |exact| = %.3g\n",
                 (long long)n, same ? "bit-identical" : "DIFFER", max_rel(x2.data(), x1.data(), n));
  }
  cudaFree(T), cudaFree(b), cudaFree(x), cudaFree(xc), cudaFree(accs);
  starpu_free(hT);
  starpu_free(hx);
  return bad;
}

// ---- LU ----------------------------------------------------------------------------------------------
int bench_lu(const Options &o, Gpu &g, Csv &csv, unsigned cuda_node)
{
  const int64_t nmax = int64_t(1) << o.lu_max_log;
  double *hA = nullptr;
  int32_t *hp = nullptr;
  if (starpu_malloc((void **)&hA, nmax * nmax * sizeof(double)) || starpu_malloc((void **)&hp, nmax * sizeof(int32_t))) {
    std::fprintf(stderr, "starpu_malloc failed\n");
    std::exit(1);
  }
  std::vector<double> A0(nmax * nmax), first, plainA, cus(nmax * nmax);
  double *dA0, *dA, *work;
  int *dipiv, *dinfo;
  CHECK_CUDA(cudaMalloc(&dA0, nmax * nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dA, nmax * nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dipiv, nmax * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dinfo, sizeof(int)));
  bool slow_exact = false, slow_plain = false;
  int bad = 0;
  for (int k = o.lu_min_log; k <= o.lu_max_log; ++k) {
    const int64_t n = int64_t(1) << k;
    const int ni = (int)n;
    fill(A0.data(), n * n, 7 + k);
    CHECK_CUDA(cudaMemcpy(dA0, A0.data(), n * n * sizeof(double), cudaMemcpyHostToDevice));
    int lwork = 0;
    CHECK_CUSOLVER(cusolverDnDgetrf_bufferSize(g.solver, ni, ni, dA, ni, &lwork));
    CHECK_CUDA(cudaMalloc(&work, (size_t)std::max(lwork, 1) * sizeof(double)));
    double t = time_stream(g.s, o.lu_reps, [&] {
      CHECK_CUDA(cudaMemcpyAsync(dA, dA0, n * n * sizeof(double), cudaMemcpyDeviceToDevice, g.s));
    }, [&] { CHECK_CUSOLVER(cusolverDnDgetrf(g.solver, ni, ni, dA, ni, work, dipiv, dinfo)); });
    csv.add("getrf", n, "cuda", "cusolver", t, 8.0 * n * n);
    CHECK_CUDA(cudaMemcpy(cus.data(), dA, n * n * sizeof(double), cudaMemcpyDeviceToHost));
    cudaFree(work);

    starpu_data_handle_t hAh, hph;
    starpu_matrix_data_register(&hAh, STARPU_MAIN_RAM, (uintptr_t)hA, (uint32_t)n, (uint32_t)n, (uint32_t)n,
                                sizeof(double));
    starpu_vector_data_register(&hph, STARPU_MAIN_RAM, (uintptr_t)hp, (uint32_t)n, sizeof(int32_t));
    auto prepare = [&] {
      starpu_data_acquire(hAh, STARPU_W);
      std::copy(A0.begin(), A0.begin() + n * n, hA);
      starpu_data_release(hAh);
      starpu_data_prefetch_on_node(hAh, cuda_node, 0);
      starpu_data_prefetch_on_node(hph, cuda_node, 0);
      starpu_task_wait_for_all();
    };
    auto run_graph = [&](bool plain) {
      int s = plain ? exstar_dgetrf_plain_insert(n, n, hAh, hph) : exstar_dgetrf_insert(n, n, hAh, hph, 0);
      if (s != EXSTAR_SUCCESS) { std::fprintf(stderr, "getrf insert: %s\n", exstar_last_error()); std::exit(1); }
      starpu_task_wait_for_all();
    };
    // After each exact run (untimed): the factors must be the first run's, bit for bit.
    first.clear();
    bool repro = true;
    auto after_exact = [&] {
      starpu_data_acquire(hAh, STARPU_R);
      if (first.empty()) first.assign(hA, hA + n * n);
      else if (!std::equal(first.begin(), first.end(), hA)) repro = false;
      starpu_data_release(hAh);
    };
    if (!slow_exact) {
      t = time_starpu(o.lu_reps, o.lu_limit, prepare, [&] { run_graph(false); }, after_exact, &slow_exact);
      csv.add("getrf", n, "starpu-cuda", "exstar", t, 8.0 * n * n);
      if (slow_exact) std::fprintf(stderr, "# getrf n=%lld: exact LU over %g s: larger sizes skipped\n", (long long)n, o.lu_limit);
    }
    if (!slow_plain) {
      auto after_plain = [&] {
        starpu_data_acquire(hAh, STARPU_R);
        plainA.assign(hA, hA + n * n);
        starpu_data_release(hAh);
      };
      t = time_starpu(o.lu_reps, o.lu_limit, prepare, [&] { run_graph(true); }, after_plain, &slow_plain);
      csv.add("getrf", n, "starpu-cuda", "exstar-plain", t, 8.0 * n * n);
      if (slow_plain) std::fprintf(stderr, "# getrf n=%lld: plain LU over %g s: larger sizes skipped\n", (long long)n, o.lu_limit);
    }
    starpu_data_unregister(hph);
    starpu_data_unregister(hAh);
    bad += !repro;
    if (!first.empty())
      std::fprintf(stderr, "# getrf n=%lld: exact factors %s over runs; max rel. diff. to exact: cusolver %.3g, plain graph %.3g\n",
                   (long long)n, repro ? "bit-identical" : "DIFFER", max_rel(cus.data(), first.data(), n * n),
                   plainA.empty() ? NAN : max_rel(plainA.data(), first.data(), n * n));
    plainA.clear();
  }
  cudaFree(dA0), cudaFree(dA), cudaFree(dipiv), cudaFree(dinfo);
  starpu_free(hA);
  starpu_free(hp);
  return bad;
}

std::vector<int64_t> int_list(const std::string &s)
{
  std::vector<int64_t> v;
  size_t p = 0;
  while (p < s.size()) {
    size_t q = s.find(',', p);
    if (q == std::string::npos) q = s.size();
    v.push_back(std::atoll(s.substr(p, q - p).c_str()));
    p = q + 1;
  }
  return v;
}

// The CUDA devices of StarPU's workers and their memory nodes, in the order of their first
// worker (exstar's order of the GPUs).
void starpu_gpus(std::vector<int> &devs, std::vector<unsigned> &nodes)
{
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w)
    if (starpu_worker_get_type((int)w) == STARPU_CUDA_WORKER &&
        std::find(devs.begin(), devs.end(), starpu_worker_get_devid((int)w)) == devs.end())
      devs.push_back(starpu_worker_get_devid((int)w)), nodes.push_back(starpu_worker_get_memory_node((int)w));
}

// The tiled exact LU through the public call exstar_dgetrf_tiled on a host array (pinned):
// StarPU moves the tiles to the GPU and back, inside the time. cusolverDnDgetrf on the same
// matrix already on the device, for reference (uniform [-1, 1)). Every exact run's factors must
// be the first's, bit for bit, and the same for every tile edge.
// The same factorization on tiles whose home is the GPU (registered over device arrays, as an
// application keeping its matrix there would, through exstar_desc_create_tiles): nothing crosses
// PCIe inside the time, as for cuSOLVER. On several GPUs block column J lives on the J mod g-th
// (GPUs in the order of their first StarPU worker, exstar's owner of that block column), its
// tiles one n x nb column-major strip there. The factors must be want's bits (taken from the
// first run when want is empty). chol: the exact Cholesky instead (exstar_dpotrf_desc_insert);
// plain: the plain-double graph on the same tiles (exstar_dgetrf_plain_desc_insert: cuSOLVER on
// each panel, in place in the strip, cuBLAS for U's rows and a block column's update), whose
// factors are not compared.
double factor_device_resident(int64_t n, int64_t nb, const std::vector<double> &A0, int reps, double limit,
                              std::vector<double> &want, std::vector<int32_t> &wantp, bool *same, bool chol = false,
                              bool plain = false)
{
  std::vector<int> devs;
  std::vector<unsigned> nodes;
  starpu_gpus(devs, nodes);
  if (devs.empty()) return -1;
  if (nb <= 0) nb = exstar_default_tile(n, n);
  const int64_t mt = (n + nb - 1) / nb, g = (int64_t)devs.size();
  int prev = 0;
  CHECK_CUDA(cudaGetDevice(&prev));
  std::vector<double *> dA((size_t)g, nullptr);
  for (int64_t d = 0; d < g; ++d) { // block columns d, d + g, ... one after the other
    CHECK_CUDA(cudaSetDevice(devs[(size_t)d]));
    CHECK_CUDA(cudaMalloc(&dA[(size_t)d], (size_t)((mt - d + g - 1) / g) * n * nb * sizeof(double)));
  }
  CHECK_CUDA(cudaSetDevice(prev));
  auto strip = [&](int64_t J) { return dA[(size_t)(J % g)] + (J / g) * n * nb; };
  std::vector<starpu_data_handle_t> tiles((size_t)(mt * mt));
  std::vector<int32_t> ipiv((size_t)n);
  std::vector<double> got((size_t)(n * n));
  exstar_desc desc = nullptr;
  int64_t info = 0;
  auto prepare = [&] {
    for (int64_t J = 0; J < mt; ++J) {
      const int64_t w = std::min(nb, n - J * nb);
      CHECK_CUDA(cudaMemcpy(strip(J), A0.data() + J * nb * n, (size_t)(n * w) * sizeof(double), cudaMemcpyHostToDevice));
      for (int64_t I = 0; I < mt; ++I)
        starpu_matrix_data_register(&tiles[(size_t)(I + J * mt)], nodes[(size_t)(J % g)], (uintptr_t)(strip(J) + I * nb),
                                    (uint32_t)n, (uint32_t)std::min(nb, n - I * nb), (uint32_t)w, sizeof(double));
    }
  };
  double phase[3] = {0, 0, 0}; // the last run's: descriptor, submission, wait for the status
  double clock[2] = {0, 0};     // and its start and end on StarPU's clock (EXSTAR_TRACE's times), us
  auto run = [&] {
    int s = EXSTAR_SUCCESS;
    clock[0] = starpu_timing_now();
    phase[0] = wall([&] { s = exstar_desc_create_tiles(&desc, n, n, nb, tiles.data()); });
    if (s == EXSTAR_SUCCESS)
      phase[1] = wall([&] {
        s = chol    ? exstar_dpotrf_desc_insert(desc)
            : plain ? exstar_dgetrf_plain_desc_insert(desc, ipiv.data())
                    : exstar_dgetrf_desc_insert(desc, ipiv.data());
      });
    if (s == EXSTAR_SUCCESS)
      phase[2] = wall([&] { s = chol ? exstar_dpotrf_desc_info(desc, &info) : exstar_dgetrf_desc_info(desc, &info); });
    clock[1] = starpu_timing_now();
    if (s != EXSTAR_SUCCESS && info == 0) {
      std::fprintf(stderr, "exstar_d%s_desc_insert: %s\n", chol ? "potrf" : "getrf", exstar_last_error());
      std::exit(1);
    }
  };
  auto after = [&] {
    exstar_desc_destroy(desc);
    for (starpu_data_handle_t h : tiles) starpu_data_unregister(h);
    for (int64_t J = 0; J < mt; ++J)
      CHECK_CUDA(cudaMemcpy(got.data() + J * nb * n, strip(J), (size_t)(n * std::min(nb, n - J * nb)) * sizeof(double),
                            cudaMemcpyDeviceToHost));
    if (plain) return; // not reproducible: nothing to compare
    if (want.empty()) want = got, wantp = ipiv;
    else *same = *same && got == want && (chol || ipiv == wantp);
  };
  const double t = time_starpu(reps, limit, prepare, run, after, nullptr);
  std::fprintf(stderr,
               "#   (n=%lld nb=%lld %s%s, the last run: descriptor %.4f s, submission %.4f s, then the wait %.4f s;"
               " StarPU's clock %.0f to %.0f us)\n",
               (long long)n, (long long)nb, chol ? "potrf" : "getrf", plain ? " plain" : "", phase[0], phase[1], phase[2],
               clock[0], clock[1]);
  for (double *p : dA) cudaFree(p);
  return t;
}

int bench_lu_tiled(const Options &o, Gpu &g, Csv &csv)
{
  int bad = 0;
  for (int64_t n : int_list(o.lu_sizes)) {
    const int ni = (int)n;
    std::vector<double> A0((size_t)(n * n)), first;
    std::vector<int32_t> firstp;
    fill(A0.data(), n * n, 7 + n);
    double *dA, *work, *hA;
    int *dipiv, *dinfo, lwork = 0;
    int32_t *hp;
    auto runs = [&](const char *what) { return o.lu_runs.find(what) != std::string::npos; };
    double t = 0;
    if (runs("cusolver")) {
      CHECK_CUDA(cudaMalloc(&dA, n * n * sizeof(double)));
      CHECK_CUDA(cudaMalloc(&dipiv, n * sizeof(int)));
      CHECK_CUDA(cudaMalloc(&dinfo, sizeof(int)));
      CHECK_CUSOLVER(cusolverDnDgetrf_bufferSize(g.solver, ni, ni, dA, ni, &lwork));
      CHECK_CUDA(cudaMalloc(&work, (size_t)std::max(lwork, 1) * sizeof(double)));
      t = time_stream(g.s, o.lu_reps, [&] {
        CHECK_CUDA(cudaMemcpyAsync(dA, A0.data(), n * n * sizeof(double), cudaMemcpyHostToDevice, g.s));
      }, [&] { CHECK_CUSOLVER(cusolverDnDgetrf(g.solver, ni, ni, dA, ni, work, dipiv, dinfo)); });
      csv.add("getrf", n, "cuda", "cusolver", t, 8.0 * n * n);
      std::fprintf(stderr, "# getrf n=%lld: cusolverDnDgetrf %.4f s\n", (long long)n, t);
      cudaFree(work), cudaFree(dA), cudaFree(dipiv), cudaFree(dinfo);
    }
    if (starpu_malloc((void **)&hA, n * n * sizeof(double)) || starpu_malloc((void **)&hp, n * sizeof(int32_t))) {
      std::fprintf(stderr, "starpu_malloc failed\n");
      std::exit(1);
    }
    for (int64_t nb : int_list(o.lu_nbs)) {
      char impl[64];
      const long long nbd = (long long)(nb > 0 ? nb : exstar_default_tile(n, n));
      if (o.lu_home != "device") {
        int64_t info = 0;
        bool slow = false;
        auto prepare = [&] { std::copy(A0.begin(), A0.end(), hA); };
        auto run = [&] {
          if (exstar_dgetrf_tiled(n, n, hA, n, hp, &info, nb) != EXSTAR_SUCCESS && info == 0) {
            std::fprintf(stderr, "exstar_dgetrf_tiled: %s\n", exstar_last_error());
            std::exit(1);
          }
        };
        bool repro = true;
        auto after = [&] {
          if (first.empty()) first.assign(hA, hA + n * n), firstp.assign(hp, hp + n);
          else if (!std::equal(first.begin(), first.end(), hA) || !std::equal(firstp.begin(), firstp.end(), hp))
            repro = false;
        };
        t = time_starpu(o.lu_reps, o.lu_limit, prepare, run, after, &slow);
        std::snprintf(impl, sizeof impl, "exstar-tiled-nb%lld", nbd);
        csv.add("getrf", n, "starpu-cuda", impl, t, 8.0 * n * n);
        bad += !repro;
        std::fprintf(stderr, "# getrf n=%lld nb=%lld: exstar_dgetrf_tiled %.4f s (%s), factors %s\n",
                     (long long)n, nbd, t, vs_cusolver(t, csv.get("getrf", n, "cuda", "cusolver")).c_str(),
                     repro ? "bit-identical over runs and tile edges" : "DIFFER");
        // the same tiled graph in plain double (cuSOLVER's dgetrf on the panels, cuBLAS dtrsm and
        // dgemm on CUDA workers; LAPACK/BLAS on CPU workers): the price of exactness on one graph
        const double exact = t;
        t = time_starpu(o.lu_reps, o.lu_limit, prepare, [&] {
          if (exstar_dgetrf_plain_tiled(n, n, hA, n, hp, &info, nb) != EXSTAR_SUCCESS) {
            std::fprintf(stderr, "exstar_dgetrf_plain_tiled: %s\n", exstar_last_error());
            std::exit(1);
          }
        }, [] {}, &slow);
        std::snprintf(impl, sizeof impl, "exstar-plain-tiled-nb%lld", nbd);
        csv.add("getrf", n, "starpu-cuda", impl, t, 8.0 * n * n);
        std::fprintf(stderr, "# getrf n=%lld nb=%lld: exstar_dgetrf_plain_tiled %.4f s (%s; exact / plain-tiled "
                     "%.1fx)\n", (long long)n, nbd, t, vs_cusolver(t, csv.get("getrf", n, "cuda", "cusolver")).c_str(),
                     exact / t);
      }
      if (o.lu_home != "host") {
        bool same = true;
        const double td = runs("exact") ? factor_device_resident(n, nb, A0, o.lu_reps, o.lu_limit, first, firstp, &same) : 0;
        if (td > 0) {
          std::snprintf(impl, sizeof impl, "exstar-tiled-nb%lld-device-home", nbd);
          csv.add("getrf", n, "starpu-cuda", impl, td, 8.0 * n * n);
          bad += !same;
          std::fprintf(stderr, "# getrf n=%lld nb=%lld: the same on tiles at home on the GPU %.4f s (%s), "
                       "factors %s\n", (long long)n, nbd, td, vs_cusolver(td, csv.get("getrf", n, "cuda", "cusolver")).c_str(),
                       same ? "bit-identical over runs and tile edges" : "DIFFER");
        }
        // the plain-double graph on the same tiles at home (the honest baseline of the graph)
        std::vector<double> none;
        std::vector<int32_t> nonep;
        const double tp =
            runs("plain") ? factor_device_resident(n, nb, A0, o.lu_reps, o.lu_limit, none, nonep, &same, false, true) : 0;
        if (tp > 0) {
          std::snprintf(impl, sizeof impl, "exstar-plain-tiled-nb%lld-device-home", nbd);
          csv.add("getrf", n, "starpu-cuda", impl, tp, 8.0 * n * n);
          std::fprintf(stderr, "# getrf n=%lld nb=%lld: plain-tiled graph on tiles at home on the GPU %.4f s (%s; "
                       "exact / plain-tiled %.1fx)\n", (long long)n, nbd, tp,
                       vs_cusolver(tp, csv.get("getrf", n, "cuda", "cusolver")).c_str(), td / tp);
        }
      }
    }
    if (!first.empty())
      std::fprintf(stderr, "# getrf n=%lld: factors fnv1a %016llx\n", (long long)n,
                   (unsigned long long)fnv1a(firstp.data(), firstp.size() * sizeof(int32_t),
                                             fnv1a(first.data(), first.size() * sizeof(double))));
    starpu_free(hA), starpu_free(hp);
  }
  return bad;
}


// The exact Cholesky (exstar_dpotrf_tiled, lower, from a pinned host array: the tiles' way to the
// GPU and back inside the time; tile edge --lu-nbs' first) against cusolverDnDpotrf on the same
// matrix already on the device, and the same tiled graph in plain double (exstar_dpotrf_plain),
// n = 2^lu-min-log .. 2^lu-max-log. A: symmetric, uniform in [-1, 1) off the diagonal, n on it.
int bench_potrf(const Options &o, Gpu &g, Csv &csv)
{
  const int64_t nmax = int64_t(1) << o.lu_max_log;
  double *hA = nullptr, *dA0, *dA, *work;
  int *dinfo;
  if (starpu_malloc((void **)&hA, nmax * nmax * sizeof(double))) {
    std::fprintf(stderr, "starpu_malloc failed\n");
    std::exit(1);
  }
  std::vector<double> A0(nmax * nmax), first;
  CHECK_CUDA(cudaMalloc(&dA0, nmax * nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dA, nmax * nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dinfo, sizeof(int)));
  int bad = 0;
  const int64_t nb = int_list(o.lu_nbs).empty() ? 0 : int_list(o.lu_nbs)[0];
  for (int k = o.lu_min_log; k <= o.lu_max_log; ++k) {
    const int64_t n = int64_t(1) << k;
    const int ni = (int)n;
    fill(A0.data(), n * n, 70 + k);
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t i = 0; i < j; ++i) A0[(size_t)(i + j * n)] = A0[(size_t)(j + i * n)];
      A0[(size_t)(j + j * n)] = (double)n;
    }
    CHECK_CUDA(cudaMemcpy(dA0, A0.data(), n * n * sizeof(double), cudaMemcpyHostToDevice));
    int lwork = 0;
    CHECK_CUSOLVER(cusolverDnDpotrf_bufferSize(g.solver, CUBLAS_FILL_MODE_LOWER, ni, dA, ni, &lwork));
    CHECK_CUDA(cudaMalloc(&work, (size_t)std::max(lwork, 1) * sizeof(double)));
    const double tc = time_stream(g.s, o.lu_reps, [&] {
      CHECK_CUDA(cudaMemcpyAsync(dA, dA0, n * n * sizeof(double), cudaMemcpyDeviceToDevice, g.s));
    }, [&] { CHECK_CUSOLVER(cusolverDnDpotrf(g.solver, CUBLAS_FILL_MODE_LOWER, ni, dA, ni, work, lwork, dinfo)); });
    cudaFree(work);
    csv.add("potrf", n, "cuda", "cusolver", tc, 4.0 * n * n);
    int64_t info = 0;
    bool slow = false, repro = true;
    first.clear();
    auto runs = [&](const char *what) { return o.potrf_runs.find(what) != std::string::npos; };
    auto prepare = [&] { std::copy(A0.begin(), A0.begin() + n * n, hA); };
    double te = std::nan(""), tp = std::nan("");
    if (runs("host")) {
      te = time_starpu(o.lu_reps, o.lu_limit, prepare, [&] {
        if (exstar_dpotrf_tiled('L', n, hA, n, &info, nb) != EXSTAR_SUCCESS) {
          std::fprintf(stderr, "exstar_dpotrf_tiled: %s\n", exstar_last_error());
          std::exit(1);
        }
      }, [&] {
        if (first.empty()) first.assign(hA, hA + n * n);
        else if (!std::equal(first.begin(), first.end(), hA)) repro = false;
      }, &slow);
      csv.add("potrf", n, "starpu-cuda", "exstar-tiled", te, 4.0 * n * n);
      bad += !repro;
    }
    // the same on tiles at home on the GPU (nothing crosses PCIe inside the time, as for cuSOLVER)
    if (runs("home")) {
      bool same = true;
      std::vector<int32_t> nopiv;
      const std::vector<double> A0n(A0.begin(), A0.begin() + n * n);
      const double td = factor_device_resident(n, nb, A0n, o.lu_reps, o.lu_limit, first, nopiv, &same, true);
      if (td > 0) {
        csv.add("potrf", n, "starpu-cuda", "exstar-tiled-device-home", td, 4.0 * n * n);
        bad += !same;
        std::fprintf(stderr, "# potrf n=%lld: exstar_dpotrf_desc_insert on tiles at home on the GPU %.4f s (%.1fx "
                     "cusolver), factor %s\n", (long long)n, td, td / tc, same ? "the same bits" : "DIFFERS");
      }
    }
    if (runs("plain")) {
      tp = time_starpu(o.lu_reps, o.lu_limit, prepare, [&] {
        if (exstar_dpotrf_plain('L', n, hA, n, &info) != EXSTAR_SUCCESS) {
          std::fprintf(stderr, "exstar_dpotrf_plain: %s\n", exstar_last_error());
          std::exit(1);
        }
      }, [] {}, &slow);
      csv.add("potrf", n, "starpu-cuda", "exstar-plain-tiled", tp, 4.0 * n * n);
    }
    auto timed = [&](bool ran, double t) { // a run left out by --potrf-runs says so, not "nan s"
      char b[64];
      if (ran) std::snprintf(b, sizeof b, "%.4f s (%.1fx cusolver)", t, t / tc);
      else std::snprintf(b, sizeof b, "not run");
      return std::string(b);
    };
    std::fprintf(stderr, "# potrf n=%lld: cusolverDnDpotrf %.4f s; exstar_dpotrf_tiled %s, factor %s, fnv1a %016llx; "
                 "plain-tiled %s\n", (long long)n, tc, timed(runs("host"), te).c_str(),
                 repro ? "bit-identical over runs" : "DIFFERS", (unsigned long long)fnv1a(first.data(), first.size() * sizeof(double)),
                 timed(runs("plain"), tp).c_str());
  }
  cudaFree(dA0), cudaFree(dA), cudaFree(dinfo);
  starpu_free(hA);
  return bad;
}

// A batch of LUs (exstar_dgetrf_batch: every matrix's tiled graph submitted, then the waits)
// against cublasDgetrfBatched on the matrices already on the device.
int bench_lu_batch(const Options &o, Gpu &g, Csv &csv)
{
  const int64_t count = o.batch_count, n = o.batch_n, nn = n * n;
  std::vector<double> A0((size_t)(count * nn)), A((size_t)(count * nn)), first;
  std::vector<int32_t> P((size_t)(count * n)), firstp;
  std::vector<int64_t> info((size_t)count);
  for (int64_t b = 0; b < count; ++b) fill(&A0[(size_t)(b * nn)], nn, 1000 + b);
  double *dA;
  int *dpiv, *dinfo;
  double **dptr;
  CHECK_CUDA(cudaMalloc(&dA, count * nn * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dpiv, count * n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dinfo, count * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dptr, count * sizeof(double *)));
  std::vector<double *> hptr((size_t)count);
  for (int64_t b = 0; b < count; ++b) hptr[(size_t)b] = dA + b * nn;
  CHECK_CUDA(cudaMemcpy(dptr, hptr.data(), count * sizeof(double *), cudaMemcpyHostToDevice));
  double t = time_stream(g.s, o.lu_reps, [&] {
    CHECK_CUDA(cudaMemcpyAsync(dA, A0.data(), count * nn * sizeof(double), cudaMemcpyHostToDevice, g.s));
  }, [&] { CHECK_CUBLAS(cublasDgetrfBatched(g.blas, (int)n, dptr, (int)n, dpiv, dinfo, (int)count)); });
  csv.add("getrf_batch", n, "cuda", "cublas-batched", t, 8.0 * count * nn);
  std::fprintf(stderr, "# getrf batch %lldx%lld: cublasDgetrfBatched %.4f s\n", (long long)count, (long long)n, t);
  cudaFree(dA), cudaFree(dpiv), cudaFree(dinfo), cudaFree(dptr);
  std::vector<double *> ap((size_t)count);
  std::vector<int32_t *> pp((size_t)count);
  for (int64_t b = 0; b < count; ++b) ap[(size_t)b] = &A[(size_t)(b * nn)], pp[(size_t)b] = &P[(size_t)(b * n)];
  bool repro = true;
  auto prepare = [&] { A = A0; };
  auto run = [&] {
    if (exstar_dgetrf_batch(count, n, n, ap.data(), n, pp.data(), info.data()) != EXSTAR_SUCCESS) {
      std::fprintf(stderr, "exstar_dgetrf_batch: %s\n", exstar_last_error());
      std::exit(1);
    }
  };
  auto after = [&] {
    if (first.empty()) first = A, firstp = P;
    else repro = repro && first == A && firstp == P;
  };
  t = time_starpu(o.lu_reps, o.lu_limit, prepare, run, after, nullptr);
  csv.add("getrf_batch", n, "starpu-cuda", "exstar", t, 8.0 * count * nn);
  std::fprintf(stderr, "# getrf batch %lldx%lld: exstar_dgetrf_batch %.4f s (%.1fx cublas), factors %s, fnv1a %016llx\n",
               (long long)count, (long long)n, t, t / csv.get("getrf_batch", n, "cuda", "cublas-batched"),
               repro ? "bit-identical over runs" : "DIFFER",
               (unsigned long long)fnv1a(firstp.data(), firstp.size() * sizeof(int32_t),
                                         fnv1a(first.data(), first.size() * sizeof(double))));
  return !repro;
}

// exstar_dgemm_desc_insert on n x n matrices of gemm_nb tiles whose home is the GPUs: tile
// (I, J) of A, B and C on GPU (I mod P)·Q + J mod Q of the library's grid (P the largest divisor
// of the GPU count at most its square root), where the library computes C(I, J). Times the
// insertion and the wait; C comes back to the host afterwards (got). -1 without a CUDA worker.
double gemm_device_resident(const Options &o, int64_t n, const double *A, const double *B, std::vector<double> &got)
{
  std::vector<int> devs;
  std::vector<unsigned> nodes;
  starpu_gpus(devs, nodes);
  if (devs.empty()) return -1;
  const int64_t g = (int64_t)devs.size(), nb = o.gemm_nb, mt = (n + nb - 1) / nb;
  int64_t P = 1;
  for (int64_t d = 1; d * d <= g; ++d)
    if (g % d == 0) P = d;
  const int64_t Q = g / P;
  auto owner = [&](int64_t I, int64_t J) { return (size_t)((I % P) * Q + J % Q); };
  int prev = 0;
  CHECK_CUDA(cudaGetDevice(&prev));
  struct tiled {
    std::vector<double *> mem;
    std::vector<starpu_data_handle_t> h;
    exstar_desc desc = nullptr;
  } mats[3];
  const double *src[3] = {A, B, nullptr};
  for (int x = 0; x < 3; ++x) {
    mats[x].mem.assign((size_t)(mt * mt), nullptr);
    mats[x].h.assign((size_t)(mt * mt), nullptr);
    for (int64_t J = 0; J < mt; ++J)
      for (int64_t I = 0; I < mt; ++I) {
        const int64_t r = std::min(nb, n - I * nb), c = std::min(nb, n - J * nb);
        double *&p = mats[x].mem[(size_t)(I + J * mt)];
        CHECK_CUDA(cudaSetDevice(devs[owner(I, J)]));
        CHECK_CUDA(cudaMalloc(&p, (size_t)(r * c) * sizeof(double)));
        if (src[x])
          CHECK_CUDA(cudaMemcpy2D(p, (size_t)r * sizeof(double), src[x] + I * nb + J * nb * n, (size_t)n * sizeof(double),
                                  (size_t)r * sizeof(double), (size_t)c, cudaMemcpyHostToDevice));
      }
  }
  CHECK_CUDA(cudaSetDevice(prev));
  auto prepare = [&] {
    for (tiled &m : mats) {
      for (int64_t J = 0; J < mt; ++J)
        for (int64_t I = 0; I < mt; ++I)
          starpu_matrix_data_register(&m.h[(size_t)(I + J * mt)], nodes[owner(I, J)], (uintptr_t)m.mem[(size_t)(I + J * mt)],
                                      (uint32_t)std::min(nb, n - I * nb), (uint32_t)std::min(nb, n - I * nb),
                                      (uint32_t)std::min(nb, n - J * nb), sizeof(double));
      if (exstar_desc_create_tiles(&m.desc, n, n, nb, m.h.data()) != EXSTAR_SUCCESS) {
        std::fprintf(stderr, "exstar_desc_create_tiles: %s\n", exstar_last_error());
        std::exit(1);
      }
    }
  };
  auto run = [&] {
    if (exstar_dgemm_desc_insert('N', 'N', 1.0, mats[0].desc, mats[1].desc, 0.0, mats[2].desc) != EXSTAR_SUCCESS) {
      std::fprintf(stderr, "exstar_dgemm_desc_insert: %s\n", exstar_last_error());
      std::exit(1);
    }
    if (exstar_desc_wait(mats[2].desc) != EXSTAR_SUCCESS) { // C's tiles stay where they are
      std::fprintf(stderr, "exstar_desc_wait: %s\n", exstar_last_error());
      std::exit(1);
    }
  };
  auto after = [&] {
    for (tiled &m : mats) {
      exstar_desc_destroy(m.desc);
      for (starpu_data_handle_t h : m.h) starpu_data_unregister(h);
    }
  };
  const double t = time_starpu(o.lu_reps, o.lu_limit, prepare, run, after, nullptr);
  got.assign((size_t)(n * n), 0.0);
  for (int64_t J = 0; J < mt; ++J)
    for (int64_t I = 0; I < mt; ++I) {
      const int64_t r = std::min(nb, n - I * nb), c = std::min(nb, n - J * nb);
      CHECK_CUDA(cudaMemcpy2D(got.data() + I * nb + J * nb * n, (size_t)n * sizeof(double), mats[2].mem[(size_t)(I + J * mt)],
                              (size_t)r * sizeof(double), (size_t)r * sizeof(double), (size_t)c, cudaMemcpyDeviceToHost));
    }
  for (tiled &m : mats)
    for (double *p : m.mem) cudaFree(p);
  return t;
}

// The exact dgemm through StarPU (exstar_dgemm on pinned host arrays: C's tiles spread over the
// workers) against cublasDgemm on the matrices already on the device.
int bench_gemm_starpu(const Options &o, Gpu &g, Csv &csv)
{
  const int64_t n = o.gemm_n, nn = n * n;
  double *A, *B, *C;
  if (starpu_malloc((void **)&A, nn * sizeof(double)) || starpu_malloc((void **)&B, nn * sizeof(double)) ||
      starpu_malloc((void **)&C, nn * sizeof(double))) {
    std::fprintf(stderr, "starpu_malloc failed\n");
    std::exit(1);
  }
  fill(A, nn, 21), fill(B, nn, 22);
  double *dA, *dB, *dC;
  CHECK_CUDA(cudaMalloc(&dA, nn * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dB, nn * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dC, nn * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(dA, A, nn * sizeof(double), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, B, nn * sizeof(double), cudaMemcpyHostToDevice));
  const double one = 1.0, zero = 0.0;
  double t = time_stream(g.s, o.lu_reps, nullptr, [&] {
    CHECK_CUBLAS(cublasDgemm(g.blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, dA, (int)n, dB, (int)n,
                             &zero, dC, (int)n));
  });
  csv.add("gemm", n, "cuda", "cublas", t, 2.0 * n * nn);
  std::fprintf(stderr, "# gemm n=%lld: cublasDgemm %.4f s\n", (long long)n, t);
  cudaFree(dA), cudaFree(dB), cudaFree(dC);
  std::vector<double> first;
  bool repro = true;
  auto run = [&] {
    if (exstar_dgemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n) != EXSTAR_SUCCESS) {
      std::fprintf(stderr, "exstar_dgemm: %s\n", exstar_last_error());
      std::exit(1);
    }
  };
  auto after = [&] {
    if (first.empty()) first.assign(C, C + nn);
    else repro = repro && std::equal(first.begin(), first.end(), C);
  };
  if (o.gemm_runs.find("host") != std::string::npos) {
    t = time_starpu(o.lu_reps, o.lu_limit, nullptr, run, after, nullptr);
    csv.add("gemm", n, "starpu-cuda", "exstar", t, 2.0 * n * nn);
    std::fprintf(stderr, "# gemm n=%lld: exstar_dgemm %.4f s (%.1fx cublas), C %s, fnv1a %016llx\n", (long long)n, t,
                 t / csv.get("gemm", n, "cuda", "cublas"), repro ? "bit-identical over runs" : "DIFFER",
                 (unsigned long long)fnv1a(first.data(), first.size() * sizeof(double)));
  }
  // the same product on tiles at home on the GPUs: the library's grid, nothing over PCIe inside the time
  std::vector<double> home;
  const double th = o.gemm_runs.find("home") != std::string::npos ? gemm_device_resident(o, n, A, B, home) : -1;
  if (th > 0) {
    const bool same = first.empty() || std::equal(home.begin(), home.end(), first.begin());
    csv.add("gemm", n, "starpu-cuda", "exstar-device-home", th, 2.0 * n * nn);
    std::fprintf(stderr, "# gemm n=%lld nb=%lld: exstar_dgemm_desc_insert on tiles at home on the GPUs %.4f s (%.1fx "
                         "cublas, %.1f TFLOP/s), C %s the blocking call's, fnv1a %016llx\n",
                 (long long)n, (long long)o.gemm_nb, th, th / csv.get("gemm", n, "cuda", "cublas"),
                 2.0 * n * nn / th / 1e12, first.empty() ? "(not compared with)" : same ? "bit-identical to" : "DIFFERS from",
                 (unsigned long long)fnv1a(home.data(), home.size() * sizeof(double)));
    repro = repro && same;
  }
  starpu_free(A), starpu_free(B), starpu_free(C);
  return !repro;
}

} // namespace

int main(int argc, char **argv)
{
  Options o = parse(argc, argv);
  setenv("STARPU_SILENT", "1", 0);
  // StarPU first: its CUDA worker sets up the device; this program's streams share the context.
  exstar_config cfg;
  exstar_config_default(&cfg);
  cfg.backends = EXSTAR_BACKEND_CUDA | (o.ncpu != 0 ? EXSTAR_BACKEND_CPU : 0u) |
                 (o.nopencl > 0 ? EXSTAR_BACKEND_OPENCL : 0u);
  cfg.ncpus = o.ncpu;
  cfg.nopencl = o.nopencl;
  cfg.ncuda = o.ncuda;
  cfg.sched = o.sched == "default" ? nullptr : o.sched.c_str(); // default: StarPU's own choice
  cfg.require = 1;
  if (exstar_init(&cfg) != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "exstar_init (CUDA worker): %s\n", exstar_last_error());
    return 1;
  }
  int cuda_worker = -1;
  if (starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, &cuda_worker, 1) < 1) {
    std::fprintf(stderr, "no StarPU CUDA worker\n");
    return 1;
  }
  const unsigned cuda_node = starpu_worker_get_memory_node(cuda_worker);
  int dev = starpu_worker_get_devid(cuda_worker);
  CHECK_CUDA(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
  std::fprintf(stderr, "# device %d: %s, %d SMs; StarPU: %d CUDA worker(s), %d OpenCL worker(s), %d CPU worker(s), "
               "scheduler %s\n", dev, prop.name, prop.multiProcessorCount, exstar_worker_count(EXSTAR_BACKEND_CUDA),
               exstar_worker_count(EXSTAR_BACKEND_OPENCL), exstar_worker_count(EXSTAR_BACKEND_CPU), o.sched.c_str());

  Gpu g;
  CHECK_CUDA(cudaStreamCreateWithFlags(&g.s, cudaStreamNonBlocking));
  g.es = reinterpret_cast<exstar_cuda_stream>(g.s);
  CHECK_CUBLAS(cublasCreate(&g.blas));
  CHECK_CUBLAS(cublasSetStream(g.blas, g.s));
  CHECK_CUSOLVER(cusolverDnCreate(&g.solver));
  CHECK_CUSOLVER(cusolverDnSetStream(g.solver, g.s));

  Csv csv(o.csv);
  int bad = 0;
  if (has_op(o, "gemv")) bench_gemv(o, g, csv);
  if (has_op(o, "trsv")) bad += bench_trsv(o, g, csv, cuda_node);
  if (has_op(o, "lu")) bad += bench_lu(o, g, csv, cuda_node);
  if (has_op(o, "lutiled")) bad += bench_lu_tiled(o, g, csv);
  if (has_op(o, "lubatch")) bad += bench_lu_batch(o, g, csv);
  if (has_op(o, "gemm")) bad += bench_gemm_starpu(o, g, csv);
  if (has_op(o, "potrf")) bad += bench_potrf(o, g, csv);

  std::fprintf(stderr, "# summary:\n");
  const int64_t n = int64_t(1) << o.max_log, nl = int64_t(1) << o.lu_max_log;
  char label[160];
  if (has_op(o, "gemv")) {
    std::snprintf(label, sizeof label, "#   gemv N, n = %lld: exact kernels / cublasDgemv", (long long)n);
    ratio(label, csv.get("gemv_n", n, "cuda", "exstar-kernels"), csv.get("gemv_n", n, "cuda", "cublas"), 1.5);
    std::snprintf(label, sizeof label, "#   gemv T, n = %lld: exact kernels / cublasDgemv", (long long)n);
    ratio(label, csv.get("gemv_t", n, "cuda", "exstar-kernels"), csv.get("gemv_t", n, "cuda", "cublas"), 1.5);
  }
  if (has_op(o, "trsv")) {
    std::snprintf(label, sizeof label, "#   trsv, n = %lld: exact kernels (blocked order) / cublasDtrsv", (long long)n);
    ratio(label, csv.get("trsv", n, "cuda", "exstar-kernels"), csv.get("trsv", n, "cuda", "cublas"), 2.0);
    std::snprintf(label, sizeof label, "#   trsv, n = %lld: exact, StarPU graph / cublasDtrsv", (long long)n);
    ratio(label, csv.get("trsv", n, "starpu-cuda", "exstar"), csv.get("trsv", n, "cuda", "cublas"), 2.0);
  }
  if (has_op(o, "lu"))
    for (int64_t m = int64_t(1) << o.lu_min_log; m <= nl; m *= 2) {
      std::snprintf(label, sizeof label, "#   getrf, n = %lld: exact / plain graph", (long long)m);
      ratio(label, csv.get("getrf", m, "starpu-cuda", "exstar"), csv.get("getrf", m, "starpu-cuda", "exstar-plain"), 2.0);
      std::snprintf(label, sizeof label, "#   getrf, n = %lld: exact / cusolverDnDgetrf", (long long)m);
      ratio(label, csv.get("getrf", m, "starpu-cuda", "exstar"), csv.get("getrf", m, "cuda", "cusolver"), 0);
    }
  if (bad) std::fprintf(stderr, "# %d bit check(s) FAILED\n", bad);

  cusolverDnDestroy(g.solver);
  cublasDestroy(g.blas);
  cudaStreamDestroy(g.s);
  if (exstar_shutdown() != EXSTAR_SUCCESS) std::fprintf(stderr, "exstar_shutdown: %s\n", exstar_last_error());
  return bad ? 1 : 0;
}
