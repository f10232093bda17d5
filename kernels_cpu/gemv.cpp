// Exact gemv on the CPU: per-row (or per-column) exact accumulation of α·a_ij·x_j, and the
// finish y_i := RN(acc_i + β·y_i).
#include "kernels_cpu/gemv.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/gemv.h"
#include <vector>

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _cpu
#include "core/gemv.inc"

namespace {

// Rows of a block kept in flight for 'N': their FPEs stay in L1 while columns stream by.
constexpr int64_t kRowBlock = 64;

exstar_i64 *acc_at(exstar_i64 *acc, int64_t k) { return acc + k * EXSTAR_ACC_WORDS; }

// The end of one accumulator's share of a call: FPE, flags, canonical form.
void close_acc(exstar_i64 *acc, double fpe[EXSTAR_FPE_N], int flags)
{
  exstar_acc_flush_fpe_cpu(acc, fpe);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}

// 'N', column-major: columns stream through a block of rows, each row with its own FPE, so A
// is read once in storage order. α·x_j is split once per column (exstar_gemv_scale_x): in the
// common case (t == 0, e.g. α a power of two) each term is exactly one dot term.
void gemv_n(int64_t m, int64_t n, double alpha, const double *A, int64_t offa, int64_t lda, const double *x,
            int64_t fx, int64_t incx, exstar_i64 *acc)
{
  for (int64_t i0 = 0; i0 < m; i0 += kRowBlock) {
    const int64_t rb = m - i0 < kRowBlock ? m - i0 : kRowBlock;
    double fpe[kRowBlock][EXSTAR_FPE_N] = {};
    int flags[kRowBlock] = {};
    exstar_i64 *rows = acc_at(acc, i0);
    for (int64_t j = 0; j < n; ++j) {
      const double xj = x[fx + j * incx];
      double t;
      const double s = exstar_gemv_scale_x(alpha, xj, &t);
      const double *col = A + offa + j * lda + i0;
      if (s != 0.0 && t == 0.0) {
        for (int64_t r = 0; r < rb; ++r) flags[r] |= exstar_dot_step_cpu(acc_at(rows, r), fpe[r], col[r], s);
      } else {
        for (int64_t r = 0; r < rb; ++r)
          flags[r] |= exstar_gemv_term_cpu(acc_at(rows, r), fpe[r], alpha, col[r], xj, s, t);
      }
    }
    for (int64_t r = 0; r < rb; ++r) close_acc(acc_at(rows, r), fpe[r], flags[r]);
  }
}

// 'T': column j is a dot of a(:, j) with α·x, the split of α·x_i done once for all columns;
// independent FPE lanes hide the TwoSum latency as in dot.cpp.
void gemv_t(int64_t m, int64_t n, double alpha, const double *A, int64_t offa, int64_t lda, const double *x,
            int64_t fx, int64_t incx, exstar_i64 *acc)
{
  std::vector<double> xs((size_t)m), s((size_t)m), t((size_t)m);
  for (int64_t i = 0; i < m; ++i) {
    xs[i] = x[fx + i * incx];
    s[i] = exstar_gemv_scale_x(alpha, xs[i], &t[i]);
  }
  for (int64_t j = 0; j < n; ++j) {
    const double *col = A + offa + j * lda;
    exstar_i64 *aj = acc_at(acc, j);
    double fpe[EXSTAR_CPU_LANES][EXSTAR_FPE_N] = {};
    int flags = 0;
    int64_t i = 0;
    for (; i + EXSTAR_CPU_LANES <= m; i += EXSTAR_CPU_LANES)
      for (int l = 0; l < EXSTAR_CPU_LANES; ++l)
        flags |= exstar_gemv_term_cpu(aj, fpe[l], alpha, col[i + l], xs[i + l], s[i + l], t[i + l]);
    for (; i < m; ++i) flags |= exstar_gemv_term_cpu(aj, fpe[0], alpha, col[i], xs[i], s[i], t[i]);
    for (int l = 1; l < EXSTAR_CPU_LANES; ++l) exstar_acc_flush_fpe_cpu(aj, fpe[l]);
    close_acc(aj, fpe[0], flags);
  }
}

} // namespace

void exstar_cpu_gemv_acc(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa,
                         int64_t lda, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc,
                         int64_t offacc)
{
  const bool notrans = trans == 'N' || trans == 'n';
  const int64_t lenx = notrans ? n : m;
  const int64_t fx = exstar_first_index(lenx, offx, incx);
  if (notrans)
    gemv_n(m, n, alpha, A, offa, lda, x, fx, incx, acc_at(acc, offacc));
  else
    gemv_t(m, n, alpha, A, offa, lda, x, fx, incx, acc_at(acc, offacc));
}

void exstar_cpu_gemv_acc_ref(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa,
                             int64_t lda, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc,
                             int64_t offacc)
{
  const bool notrans = trans == 'N' || trans == 'n';
  const int64_t leny = notrans ? m : n, lenx = notrans ? n : m;
  const int64_t fx = exstar_first_index(lenx, offx, incx);
  for (int64_t i = 0; i < leny; ++i) {
    exstar_i64 *ai = acc_at(acc, offacc + i);
    double fpe[EXSTAR_FPE_N] = {};
    int flags = 0;
    for (int64_t j = 0; j < lenx; ++j) {
      const double a = notrans ? A[offa + i + j * lda] : A[offa + j + i * lda];
      flags |= exstar_gemv_step_cpu(ai, fpe, alpha, a, x[fx + j * incx]);
    }
    close_acc(ai, fpe, flags);
  }
}

void exstar_cpu_gemv_finish(int64_t n, double beta, double *y, int64_t offy, int64_t incy, const exstar_i64 *acc,
                            int64_t offacc)
{
  const int64_t fy = exstar_first_index(n, offy, incy);
  for (int64_t i = 0; i < n; ++i) {
    exstar_i64 copy[EXSTAR_ACC_WORDS];
    const exstar_i64 *src = acc + (offacc + i) * EXSTAR_ACC_WORDS;
    for (int k = 0; k < EXSTAR_ACC_WORDS; ++k) copy[k] = src[k];
    double *yi = y + fy + i * incy;
    exstar_acc_add_beta_y_cpu(copy, beta, beta != 0.0 ? *yi : 0.0);
    *yi = exstar_acc_round_private(copy);
  }
}
