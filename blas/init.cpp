// libexstar_blas: starting exstar on the first call, xerbla, and the helpers every family uses.
#include "blas/internal.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/gemv.h"
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <pthread.h>

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _cpu
#include "core/gemv.inc"

namespace exstar_blas {
namespace {

std::mutex start_mutex;
std::once_flag exit_once;
bool owns_exstar = false;
std::atomic<double> small_work{-1.0};

// A child of fork() has none of StarPU's threads: a task submitted there would wait forever.
// There every call takes the calling-thread path (the same bits), and nothing is stopped at exit.
std::atomic<bool> forked_child{false};
struct fork_watch {
  fork_watch() { pthread_atfork(nullptr, nullptr, [] { forked_child.store(true); }); }
} watch_forks;

// At exit: stop what this library started (StarPU included); a StarPU the program runs is
// the program's to stop.
void stop_at_exit()
{
  if (forked_child.load()) return;
  std::lock_guard<std::mutex> lock(start_mutex);
  if (owns_exstar && exstar_worker_count(EXSTAR_BACKEND_ALL) > 0) exstar_shutdown();
  owns_exstar = false;
}

} // namespace

int ready()
{
  if (forked_child.load(std::memory_order_relaxed)) return EXSTAR_ERR_NOT_INIT;
  // exstar started (by us or by the program) and StarPU alive: the common case, no lock.
  if (exstar_worker_count(EXSTAR_BACKEND_ALL) > 0) return 0;
  std::lock_guard<std::mutex> lock(start_mutex);
  if (exstar_worker_count(EXSTAR_BACKEND_ALL) > 0) return 0;
  const bool attach = starpu_is_initialized() != 0; // the program runs StarPU: reuse it
  // NULL config: StarPU reads the user's STARPU_* variables; with a running StarPU exstar only
  // loads its programs and never stops it.
  int s = exstar_init(nullptr);
  if (s != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "libexstar_blas: exstar_init failed: %s\n", exstar_last_error());
    return s;
  }
  if (!attach) {
    owns_exstar = true;
    std::call_once(exit_once, [] { std::atexit(stop_at_exit); });
  }
  return 0;
}

bool small(double work)
{
  if (forked_child.load(std::memory_order_relaxed)) return true;
  double w = small_work.load(std::memory_order_relaxed);
  if (w < 0) {
    const char *env = std::getenv("EXSTAR_BLAS_SMALL");
    w = env && *env ? std::atof(env) : 2097152.0; // 2^21: dgemm n = 128 (bench/bench_blas.cpp)
    small_work.store(w, std::memory_order_relaxed);
  }
  return work < w;
}

void error(const char *name, fint info)
{
  char buf[7] = "      "; // six characters, blank padded, as Fortran's SRNAME
  for (size_t i = 0; i < 6 && name[i]; ++i) buf[i] = name[i];
  if (CBLAS_CallFromC) {
    char rout[16] = "cblas_";
    for (size_t i = 0; i < 6 && name[i]; ++i) rout[6 + i] = (char)(name[i] | 0x20);
    return cblas_xerbla(info + 1, rout, "");
  }
  if (xerbla_) return xerbla_(buf, &info, 6);
  // the reference XERBLA's message; the reference then STOPs, a library must not
  std::fprintf(stderr, " ** On entry to %s parameter number %2d had an illegal value\n", name, (int)info);
}

std::vector<double> gather(int64_t n, const double *x, int64_t inc)
{
  std::vector<double> v((size_t)(n > 0 ? n : 0));
  const int64_t f = first(n, inc);
  for (int64_t i = 0; i < n; ++i) v[(size_t)i] = x[f + i * inc];
  return v;
}

exact_sum::exact_sum()
{
  std::memset(acc_, 0, sizeof acc_);
  exstar_fpe_zero(fpe_);
}
// The core steps write fewer than 2^32 into a digit per term; normalizing every 2^27 terms
// keeps every word far from overflow (core/accumulator.h's EXSTAR_ACC_SHORT_CALL_TERMS).
void exact_sum::count()
{
  if (++terms_ % (((int64_t)1) << 27) == 0) {
    exstar_acc_flush_fpe_cpu(acc_, fpe_);
    exstar_acc_normalize_cpu(acc_);
  }
}
void exact_sum::add(double x) { flags_ |= exstar_sum_step_cpu(acc_, fpe_, x); count(); }
void exact_sum::add(double a, double b) { flags_ |= exstar_dot_step_cpu(acc_, fpe_, a, b); count(); }
void exact_sum::add(double a, double b, double c) { flags_ |= exstar_gemv_step_cpu(acc_, fpe_, a, b, c); count(); }
double exact_sum::round()
{
  exstar_acc_flush_fpe_cpu(acc_, fpe_);
  exstar_acc_add_flags_cpu(acc_, flags_);
  return exstar_acc_round_private(acc_);
}

void gemm(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double *A, int64_t lda,
          const double *B, int64_t ldb, double beta, double *C, int64_t ldc)
{
  if (m <= 0 || n <= 0) return;
  if (small((double)m * n * (k + 1)) || ready() != 0) {
    exstar_cpu_dgemm(ta, tb, m, n, k, alpha, A, 0, lda, B, 0, ldb, beta, C, 0, ldc, 0);
    return;
  }
  // exstar checks its resources before submitting anything (memory, workers): when it refuses,
  // the calling thread computes the same bits
  if (exstar_dgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc) != EXSTAR_SUCCESS)
    exstar_cpu_dgemm(ta, tb, m, n, k, alpha, A, 0, lda, B, 0, ldb, beta, C, 0, ldc, 0);
}

void gemv(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t lda, const double *x,
          int64_t incx, double beta, double *y, int64_t incy)
{
  const int64_t leny = lsame(trans, 'N') ? m : n;
  if (leny <= 0) return;
  if (small((double)(m + 1) * (n + 1)) || ready() != 0) {
    // offsets 0: the kernel finds the first element of a negative stride itself
    exstar_cpu_dgemv(trans, m, n, alpha, A, 0, lda, x, 0, incx, beta, y, 0, incy, 0);
    return;
  }
  if (exstar_dgemv(trans, m, n, alpha, A, lda, x, incx, beta, y, incy) != EXSTAR_SUCCESS) // refused: here
    exstar_cpu_dgemv(trans, m, n, alpha, A, 0, lda, x, 0, incx, beta, y, 0, incy, 0);
}

void scale_vec(int64_t n, double beta, double *y, int64_t incy)
{
  if (beta == 1.0) return;
  const int64_t f = first(n, incy);
  for (int64_t i = 0; i < n; ++i) y[f + i * incy] = beta == 0.0 ? 0.0 : beta * y[f + i * incy];
}

void scale_mat(int64_t m, int64_t n, double beta, double *C, int64_t ldc)
{
  if (beta == 1.0) return;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) C[i + j * ldc] = beta == 0.0 ? 0.0 : beta * C[i + j * ldc];
}

void scale_tri(bool upper, int64_t n, double beta, double *C, int64_t ldc)
{
  if (beta == 1.0) return;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = upper ? 0 : j; i < (upper ? j + 1 : n); ++i)
      C[i + j * ldc] = beta == 0.0 ? 0.0 : beta * C[i + j * ldc];
}

} // namespace exstar_blas

using namespace exstar_blas;

extern "C" {

// Reference CBLAS's globals: its testers read them in their own cblas_xerbla.
int RowMajorStrg = 0;
int CBLAS_CallFromC = 0;

int exstar_blas_init(void) { return ready(); }
void exstar_blas_set_small(double work) { small_work.store(work < 0 ? -1.0 : work); }

__attribute__((weak)) void cblas_xerbla(fint info, const char *rout, const char *form, ...)
{
  std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", (int)info, rout);
  va_list args;
  va_start(args, form);
  std::vfprintf(stderr, form, args);
  va_end(args);
}

} // extern "C"
