// Exact gemv on the CPU: per-row (or per-column) exact accumulation of α·a_ij·x_j, and the
// finish y_i := RN(acc_i + β·y_i).
// The fast paths run SIMD lanes of short FPEs (kernels_cpu/lanes.h, as the dot does); every
// term that does not fit them takes the scalar core steps, so the result never depends on the
// path (the accumulator is exact and canonical once normalized).
#define EXSTAR_FPE_N 2
#include "kernels_cpu/gemv.h"
#include "kernels_cpu/acc_cpu.h"
#include "kernels_cpu/lanes.h"
#include "kernels_cpu/wide.h"
#include "core/gemv.h"
#include <vector>

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _cpu
#include "core/gemv.inc"

namespace {

using namespace exstar_lanes;

constexpr int64_t W = EXSTAR_ACC_WORDS;
// Lane batches of a row block for 'N': 2048 rows, whose lanes (64 KiB, twice that with a·t)
// stay in L2 while the columns stream by, each read as 16 KiB of consecutive memory. Measured
// with AVX-512 on the 2-core VM, n = 8192, one core: 512 rows 137 ms, 1024 rows 114 ms,
// 2048 rows 99 ms (with AVX2 earlier: 128 rows 2x slower than 512, 1024 no faster).
#ifndef EXSTAR_CPU_GEMV_BATCHES
#define EXSTAR_CPU_GEMV_BATCHES 64
#endif
constexpr int kBatches = EXSTAR_CPU_GEMV_BATCHES;
// Columns ahead whose segment is prefetched: the columns lie lda apart, too far for the
// hardware prefetcher (measured 1.1-1.3x faster).
constexpr int64_t kPrefetchCols = 2;
constexpr int64_t kRowBlock = kBatches * L;
#ifndef EXSTAR_CPU_GEMV_GROUP
#define EXSTAR_CPU_GEMV_GROUP 4
#endif
constexpr int64_t kGroupCols = EXSTAR_CPU_GEMV_GROUP;

exstar_i64 *acc_at(exstar_i64 *acc, int64_t k) { return acc + k * W; }

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// The end of one accumulator's share of a call of `terms` terms: flags, then the canonical form
// when due (core/accumulator.h: exstar_acc_due_normalize, every fourth short call).
void close_acc(exstar_i64 *acc, int flags, int64_t terms)
{
  exstar_acc_add_flags_cpu(acc, flags);
  if (terms >= EXSTAR_ACC_SHORT_CALL_TERMS || exstar_acc_due_normalize(acc)) exstar_acc_normalize_cpu(acc);
}

// x and its split α·x_k = s_k + t_k (exstar_gemv_scale_x; s_k == 0: no exact split), padded
// with zeros to whole lane batches.
struct scaled_x {
  std::vector<double> x, s, t;
  bool any_t = false;
};

scaled_x scale_all(int64_t len, double alpha, const double *x, int64_t fx, int64_t incx)
{
  scaled_x X;
  const size_t padded = (size_t)((len + L - 1) / L * L);
  X.x.assign(padded, 0.0), X.s.assign(padded, 0.0), X.t.assign(padded, 0.0);
  for (int64_t k = 0; k < len; ++k) {
    X.x[k] = x[fx + k * incx];
    X.s[k] = exstar_gemv_scale_x(alpha, X.x[k], &X.t[k]);
    X.any_t |= X.t[k] != 0.0;
  }
  return X;
}

// α·x is an exact zero times finite factors (α == 0 or x == 0, the other finite): every
// term α·a·x is a signed zero, or NaN for a non-finite a. The flags of exstar_product3_flags.
bool zero_scale(double alpha, double x)
{
  return (alpha == 0.0 && fabs(x) <= EXSTAR_DBL_MAX) || (x == 0.0 && fabs(alpha) <= EXSTAR_DBL_MAX);
}

int zero_term_flags(double alpha, double a, double x)
{
  if (!(fabs(a) <= EXSTAR_DBL_MAX)) return EXSTAR_FLAG_NAN | kNonzero;
  return (exstar_signbit(alpha) ^ exstar_signbit(a) ^ exstar_signbit(x)) ? EXSTAR_FLAG_ANY : kNonzero;
}

// Any term α·a·x by the general core step alone (its own FPE, flushed at once): for the rare
// terms whose α·x has no exact split (α or x non-finite, α·x outside the TwoProd window).
int general_term(exstar_i64 *acc, double alpha, double a, double x)
{
  if (zero_scale(alpha, x)) return zero_term_flags(alpha, a, x);
  double fpe[EXSTAR_FPE_N] = {};
  int flags = exstar_gemv_step_cpu(acc, fpe, alpha, a, x);
  exstar_acc_flush_fpe_cpu(acc, fpe);
  return flags;
}

// 'N': the terms α·a_l·x_j of one column j for the rows l < cnt of a batch (row l adds into
// acc + l*W, its flags into flags[l]). With the split α·x_j = s + t each term is a_l·s + a_l·t,
// dot terms (exstar_gemv_term); the a·t go to their own lanes Ft (another scale: in F they
// would spill at almost every step). Returns kNonzero when every lane was fast: the flags common
// to the batch, OR'ed in once at the end instead of per row.
EXSTAR_LANES_INLINE int column_batch(lanes &F, lanes &Ft, const double *a, int cnt, double alpha, double xj, double s,
                                     double t, exstar_i64 *acc, int *flags)
{
  if (s == 0.0) {
    for (int l = 0; l < cnt; ++l) flags[l] |= general_term(acc + l * W, alpha, a[l], xj);
    return 0;
  }
  batch b;
  add_batch<true>(F, a, &s, cnt, acc, W, b);
  int common = kNonzero;
  if (b.any_slow) {
    common = 0;
    for (int l = 0; l < cnt; ++l) {
      if (lane_fast(a[l], s)) { flags[l] |= kNonzero; continue; }
      int deposit;
      flags[l] |= exstar_product_flags(a[l], s, &deposit);
      if (deposit) exstar_acc_add_product_cpu(acc + l * W, a[l], s);
    }
  }
  if (t != 0.0) { // a·t adds digits only, for finite nonzero a (its flags are a·s's)
    add_batch<true>(Ft, a, &t, cnt, acc, W, b);
    if (b.any_slow)
      for (int l = 0; l < cnt; ++l)
        if (exstar_is_finite_nonzero(a[l]) && !lane_fast(a[l], t)) exstar_acc_add_product_cpu(acc + l * W, a[l], t);
  }
  return common;
}

// 'N', column-major: the columns stream through a block of rows, one FPE lane per row, so A
// is read once in storage order.
void gemv_n(int64_t m, int64_t n, double alpha, const double *A, int64_t offa, int64_t lda, const double *x,
            int64_t fx, int64_t incx, exstar_i64 *acc)
{
  const scaled_x X = scale_all(n, alpha, x, fx, incx);
  for (int64_t i0 = 0; i0 < m; i0 += kRowBlock) {
    const int64_t rb = min64(m - i0, kRowBlock);
    const int nbat = (int)((rb + L - 1) / L);
    std::vector<lanes> F((size_t)nbat), Ft((size_t)nbat); // zeroed: only the batches a block uses
    int flags[kRowBlock] = {}, common[kBatches] = {};
    double pad[L] = {}; // a short last batch, zero-padded (zeros are never fast)
    exstar_i64 *rows = acc_at(acc, i0);
    // kGroupCols columns at a time through each batch: its lanes stay in L1 across them (the
    // lanes of a whole row block do not fit there)
    for (int64_t j0 = 0; j0 < n; j0 += kGroupCols)
      for (int b = 0; b < nbat; ++b) {
        const int cnt = (int)min64(L, rb - b * L);
        for (int64_t j = j0; j < min64(n, j0 + kGroupCols); ++j) {
          const double *a = A + offa + i0 + j * lda + b * L;
          if (j + kPrefetchCols < n)
            for (int l = 0; l < cnt; l += 8) __builtin_prefetch(a + kPrefetchCols * lda + l);
          if (cnt < L) {
            for (int l = 0; l < cnt; ++l) pad[l] = a[l];
            a = pad;
          }
          common[b] |= column_batch(F[b], Ft[b], a, cnt, alpha, X.x[j], X.s[j], X.t[j], acc_at(rows, b * L),
                                    flags + b * L);
        }
      }
    for (int b = 0; b < nbat; ++b) {
      const int cnt = (int)min64(L, rb - b * L);
      flush(F[b], acc_at(rows, b * L), W, cnt);
      if (X.any_t) flush(Ft[b], acc_at(rows, b * L), W, cnt);
    }
    for (int64_t r = 0; r < rb; ++r) close_acc(acc_at(rows, r), flags[r] | common[r / L], n);
  }
}

// 'T': the terms α·a_l·x_l of one batch of column j's dot (lanes l < cnt, all into acc);
// s, t, x: the batch's part of scaled_x. Returns the flags.
EXSTAR_LANES_INLINE int dot_batch(lanes &F, lanes &Ft, const double *a, const double *x, const double *s, const double *t,
                                  int cnt, double alpha, bool any_t, exstar_i64 *acc)
{
  batch b;
  add_batch<false>(F, a, s, cnt, acc, 0, b);
  int flags = kNonzero;
  if (b.any_slow) {
    flags = 0;
    for (int l = 0; l < cnt; ++l) {
      if (lane_fast(a[l], s[l])) { flags |= kNonzero; continue; }
      if (s[l] == 0.0) { flags |= general_term(acc, alpha, a[l], x[l]); continue; }
      int deposit;
      flags |= exstar_product_flags(a[l], s[l], &deposit);
      if (deposit) exstar_acc_add_product_cpu(acc, a[l], s[l]);
    }
  }
  if (any_t) {
    add_batch<false>(Ft, a, t, cnt, acc, 0, b);
    if (b.any_slow)
      for (int l = 0; l < cnt; ++l)
        if (t[l] != 0.0 && exstar_is_finite_nonzero(a[l]) && !lane_fast(a[l], t[l]))
          exstar_acc_add_product_cpu(acc, a[l], t[l]);
  }
  return flags;
}

// 'T': column j is a dot of a(:, j) with α·x, the split of α·x_i done once for all columns.
void gemv_t(int64_t m, int64_t n, double alpha, const double *A, int64_t offa, int64_t lda, const double *x,
            int64_t fx, int64_t incx, exstar_i64 *acc)
{
  const scaled_x X = scale_all(m, alpha, x, fx, incx);
  double pad[L] = {};
  for (int64_t j = 0; j < n; ++j) {
    const double *col = A + offa + j * lda;
    exstar_i64 *aj = acc_at(acc, j);
    lanes F, Ft;
    int flags = 0;
    for (int64_t i = 0; i < m; i += L) {
      const int cnt = (int)min64(L, m - i);
      const double *a = col + i;
      if (cnt < L) {
        for (int l = 0; l < cnt; ++l) pad[l] = a[l];
        a = pad;
      }
      flags |= dot_batch(F, Ft, a, &X.x[i], &X.s[i], &X.t[i], cnt, alpha, X.any_t, aj);
    }
    flush(F, aj, 0, L);
    if (X.any_t) flush(Ft, aj, 0, L);
    close_acc(aj, flags, m);
  }
}

} // namespace

void EXSTAR_CPU_ENTRY(exstar_cpu_gemv_acc)(char trans, int64_t m, int64_t n, double alpha, const double *A,
                                           int64_t offa, int64_t lda, const double *x, int64_t offx,
                                           int64_t incx, exstar_i64 *acc, int64_t offacc)
{
  EXSTAR_CPU_TRY_WIDE(exstar_cpu_gemv_acc_wide(trans, m, n, alpha, A, offa, lda, x, offx, incx, acc, offacc));
  const bool notrans = trans == 'N' || trans == 'n';
  const int64_t lenx = notrans ? n : m;
  const int64_t fx = exstar_first_index(lenx, offx, incx);
  if (notrans)
    gemv_n(m, n, alpha, A, offa, lda, x, fx, incx, acc_at(acc, offacc));
  else
    gemv_t(m, n, alpha, A, offa, lda, x, fx, incx, acc_at(acc, offacc));
}

#ifndef EXSTAR_CPU_WIDE
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
    exstar_acc_flush_fpe_cpu(ai, fpe);
    close_acc(ai, flags, lenx);
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
#endif
