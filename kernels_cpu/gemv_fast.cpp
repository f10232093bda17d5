// Exact gemv in one call on the CPU: y := RN(α·op(A)·x + β·y) entry by entry, with core/gemm.h's
// checked fast path (a split constant σ per entry and chunk, four operations a term, the
// checked finish) and the exact path for the entries it declines. gemv is gemm with one column:
// the same fast sums, laid out for one right-hand side (op(A) streamed once from memory).
//
// Both shapes read A once, in long sequential runs (four columns at a time), and fix each
// entry's σ before its sums start: from its largest |a| over its first 16 terms, two powers of
// two above; after the pass the entry's own largest |a| checks that σ held (else the entry
// declines). 'N' keeps per-row S, R, σ, max |a| in one interleaved array ('T': registers).
// Declined entries (non-finite or extreme inputs, a σ that did not hold, cancellation beyond
// the bound, exact zeros, near-ties) go to the exact path: gemm.inc's retry and exact entry for
// a few, else the exact lane kernel (exstar_cpu_gemv_acc) over their rows and the exact finish.
// Every entry is RN of the same exact value either way.
#include "kernels_cpu/gemv.h"
#include "kernels_cpu/gemm_exact.h"
#include <vector>
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace {

// Declined rows of 'N' repaired one by one (retry, then exact: strided rows) up to this count
// (or when they are sparse); more take the exact lane kernel over the rows from the first to the
// last declined.
constexpr int64_t kRepairOneByOne = 4;

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// max |v| over v[0..len) (NaN ignored: a NaN term makes S NaN, and the entry declines).
double max_abs(const double *v, int64_t len)
{
  double m = 0.0;
  for (int64_t i = 0; i < len; ++i) {
    const double a = fabs(v[i]);
    m = a > m ? a : m;
  }
  return m;
}

// exstar_exp_above of the largest |v|, NONFINITE when some v is inf (or NaN).
int exp_of_max(const double *v, int64_t len)
{
  bool finite = true;
  double m = 0.0;
  for (int64_t i = 0; i < len; ++i) {
    const double a = fabs(v[i]);
    finite &= a <= EXSTAR_DBL_MAX;
    m = a > m ? a : m;
  }
  return finite ? exstar_exp_above(m) : EXSTAR_GEMM_EXP_NONFINITE;
}

// The exact entry RN(α·Σ_l a_l·x_l + β·y) by the exact lane kernel (one accumulator).
double exact_entry_lanes(char trans, int64_t len, double alpha, const double *A, int64_t offa, int64_t lda,
                         const double *x, double beta, double y)
{
  exstar_i64 acc[EXSTAR_ACC_WORDS] = {};
  if (trans == 'N')
    exstar_cpu_gemv_acc('N', 1, len, alpha, A, offa, lda, x, 0, 1, acc, 0);
  else
    exstar_cpu_gemv_acc('T', len, 1, alpha, A, offa, lda, x, 0, 1, acc, 0);
  exstar_acc_add_beta_y_cpu(acc, beta, y);
  return exstar_acc_round_private(acc);
}

// ---- 'N' ---------------------------------------------------------------------------------
// A's columns stream through once, four at a time over all the rows (long sequential runs:
// what the memory system serves fastest), into per-row S, R and the row's largest |a|. The
// split constant of a row must be fixed before its sums start: it comes from the row's
// largest |a| over the first kGuessCols columns, kMargin powers of two above (room for the
// later columns: the bound E grows with σ, far below the rounding's need for ordinary data).
// After the pass each row's own largest |a| checks that σ_r >= 2n·max|a·x| really held; a row
// where it did not declines (as do rows with NaN or inf: S or σ is not finite).

constexpr int64_t kGuessCols = 16;
constexpr int kMargin = 2;

// S, R, M (max |a|) of the rows [0, m) over the columns j of A (a(i, j) = A[i + j*lda]).
// The per-row state is interleaved by groups of 4 rows, st[16*g ..]: σ, S (the running sum,
// from 1.5 σ), R, M of rows 4g..4g+3 (one stream beside the four columns': separate arrays
// lda*8 bytes apart would all fall into the same L1 sets as the columns).
void rows_pass(int64_t m, int64_t n, const double *A, int64_t lda, const double *xs, double *st)
{
  const int64_t groups = (m + 3) / 4;
  int64_t j = 0;
#if defined(__AVX2__) && defined(__FMA__)
  const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
  const int64_t full = m / 4;
  for (; j + 4 <= n; j += 4) {
    const double *c0 = A + j * lda, *c1 = c0 + lda, *c2 = c1 + lda, *c3 = c2 + lda;
    const __m256d b0 = _mm256_broadcast_sd(xs + j), b1 = _mm256_broadcast_sd(xs + j + 1),
                  b2 = _mm256_broadcast_sd(xs + j + 2), b3 = _mm256_broadcast_sd(xs + j + 3);
    for (int64_t g4 = 0; g4 < full; ++g4) {
      double *e = st + 16 * g4;
      const int64_t r = 4 * g4;
      __m256d s = _mm256_loadu_pd(e + 4), q = _mm256_loadu_pd(e + 8), mx = _mm256_loadu_pd(e + 12);
#define EXSTAR_GEMV_STEP(k)                                                                     \
  {                                                                                             \
    const __m256d v = _mm256_loadu_pd(c##k + r);                                                \
    const __m256d t = _mm256_fmadd_pd(v, b##k, s);                                              \
    const __m256d p = _mm256_sub_pd(t, s);                                                      \
    s = t;                                                                                      \
    q = _mm256_add_pd(q, _mm256_fmsub_pd(v, b##k, p));                                          \
    mx = _mm256_max_pd(mx, _mm256_and_pd(v, absmask));                                          \
  }
      EXSTAR_GEMV_STEP(0)
      EXSTAR_GEMV_STEP(1)
      EXSTAR_GEMV_STEP(2)
      EXSTAR_GEMV_STEP(3)
#undef EXSTAR_GEMV_STEP
      _mm256_storeu_pd(e + 4, s), _mm256_storeu_pd(e + 8, q), _mm256_storeu_pd(e + 12, mx);
    }
    for (int64_t r = full * 4; r < m; ++r) {
      double *e = st + 16 * (r / 4) + r % 4;
      for (int k = 0; k < 4; ++k) {
        const double v = A[r + (j + k) * lda];
        exstar_gemm_term(v, xs[j + k], &e[4], &e[8]);
        e[12] = fabs(v) > e[12] ? fabs(v) : e[12];
      }
    }
  }
#endif
  (void)groups;
  for (; j < n; ++j)
    for (int64_t r = 0; r < m; ++r) {
      double *e = st + 16 * (r / 4) + r % 4;
      const double v = A[r + j * lda];
      exstar_gemm_term(v, xs[j], &e[4], &e[8]);
      e[12] = fabs(v) > e[12] ? fabs(v) : e[12];
    }
}

// The fast sums of every row: S, R and the bound E (NaN when the row's σ did not hold: the
// row declines).
struct entry_sums {
  std::vector<double> S, R, E;
};

void sums_n(int64_t m, int64_t n, const double *A, int64_t lda, const double *xs, entry_sums &out)
{
  const int ex = exp_of_max(xs, n), ep = exstar_gemm_count_exp(n);
  // st: σ, S, R, M per row, interleaved by 4 rows (rows_pass)
  std::vector<double> st((size_t)((m + 3) / 4 * 16), 0.0);
  auto at = [&](int64_t r, int k) -> double & { return st[(size_t)(16 * (r / 4) + 4 * k + r % 4)]; };
  std::vector<int> ea((size_t)m);
  // the guess of each row's scale: its first columns (a zero row start: the largest of all)
  const int64_t kg = min64(n, kGuessCols);
  for (int64_t j = 0; j < kg; ++j)
    for (int64_t r = 0; r < m; ++r) {
      const double v = fabs(A[r + j * lda]);
      at(r, 3) = v > at(r, 3) ? v : at(r, 3);
    }
  double all = 0.0;
  for (int64_t r = 0; r < m; ++r) all = at(r, 3) > all ? at(r, 3) : all;
  const int eall = exstar_exp_above(all);
  for (int64_t r = 0; r < m; ++r) {
    const int e = at(r, 3) > 0.0 ? exstar_exp_above(at(r, 3)) : eall;
    ea[(size_t)r] = e + kMargin; // inf: NONFINITE (+ margin), sigma NaN
    at(r, 0) = exstar_gemm_sigma(ea[(size_t)r], ex, ep);
    at(r, 1) = exstar_gemm_run_begin(0.0, at(r, 0));
    at(r, 3) = 0.0;
  }
  rows_pass(m, n, A, lda, xs, st.data());
  out.S.resize((size_t)m), out.R.resize((size_t)m), out.E.resize((size_t)m);
  for (int64_t r = 0; r < m; ++r) {
    // σ_r held for every term: the row's largest |a| within the guess (NaN, inf: no)
    const bool held = exstar_exp_above(at(r, 3)) <= ea[(size_t)r];
    out.S[(size_t)r] = exstar_gemm_run_end(at(r, 1), at(r, 0)), out.R[(size_t)r] = at(r, 2);
    out.E[(size_t)r] = held ? exstar_gemm_bound_unfolded(n, at(r, 0)) : exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
  }
}

int64_t gemv_n(int64_t m, int64_t n, double alpha, const double *A, int64_t lda, const std::vector<double> &xs,
               double beta, double *y, int64_t fy, int64_t incy)
{
  entry_sums f;
  sums_n(m, n, A, lda, xs.data(), f);
  std::vector<int64_t> declined;
  for (int64_t r = 0; r < m; ++r) {
    double *yi = y + fy + r * incy;
    const double c = beta != 0.0 ? *yi : 0.0;
    double v;
    if (exstar_gemm_finish_fast(f.S[(size_t)r], f.R[(size_t)r], f.E[(size_t)r], alpha, beta, c, &v))
      *yi = v;
    else
      declined.push_back(r);
  }
  const int64_t nd = (int64_t)declined.size();
  if (nd == 0) return 0;
  const int64_t r0 = declined.front(), r1 = declined.back() + 1;
  // one by one: a strided row, about a cache miss a term; the lane kernel: a few ns a term of
  // every row in [r0, r1)
  if (nd <= kRepairOneByOne || nd * 32 <= r1 - r0) {
    exstar_i64 scratch[EXSTAR_ACC_WORDS];
    for (int64_t i : declined) {
      double *yi = y + fy + i * incy;
      *yi = exstar_gemm_entry_repair_cpu(scratch, n, alpha, A, i, lda, xs.data(), 0, 1, beta, beta != 0.0 ? *yi : 0.0);
    }
    return nd;
  }
  // many: the exact lane kernel over the rows from the first declined to the last, then the
  // exact finish of the declined ones
  std::vector<exstar_i64> accs((size_t)((r1 - r0) * EXSTAR_ACC_WORDS), 0);
  exstar_cpu_gemv_acc('N', r1 - r0, n, alpha, A, r0, lda, xs.data(), 0, 1, accs.data(), 0);
  for (int64_t i : declined) exstar_cpu_gemv_finish(1, beta, y, fy + i * incy, 1, accs.data(), i - r0);
  return nd;
}

// ---- 'T' ---------------------------------------------------------------------------------
// Each entry is a contiguous column's dot. Four columns at a time, read once: σ of a column
// from its largest |a| over its first kGuessCols entries, kMargin powers of two above, and the
// same check after the pass as for 'N' (its own largest |a| within the guess).

// The sums of columns c[0..4) (m entries each) under sig[k]: S, R and max |a| per column.
void columns_pass4(const double *const c[4], const double *xs, int64_t m, const double sig[4], double S[4], double R[4],
                   double M[4])
{
  for (int k = 0; k < 4; ++k) S[k] = R[k] = M[k] = 0.0;
  int64_t i = 0;
#if defined(__AVX2__) && defined(__FMA__)
  const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
  // each lane a running sum from 1.5 σ (core/gemm.h)
  const double h[4] = {exstar_gemm_run_begin(0.0, sig[0]), exstar_gemm_run_begin(0.0, sig[1]),
                       exstar_gemm_run_begin(0.0, sig[2]), exstar_gemm_run_begin(0.0, sig[3])};
  __m256d s0 = _mm256_set1_pd(h[0]), s1 = _mm256_set1_pd(h[1]), s2 = _mm256_set1_pd(h[2]), s3 = _mm256_set1_pd(h[3]);
  __m256d r0 = _mm256_setzero_pd(), r1 = r0, r2 = r0, r3 = r0, m0 = r0, m1 = r0, m2 = r0, m3 = r0;
  const double *c0 = c[0], *c1 = c[1], *c2 = c[2], *c3 = c[3];
  for (; i + 4 <= m; i += 4) {
    const __m256d b = _mm256_loadu_pd(xs + i);
#define EXSTAR_GEMV_STEP(k)                                                                     \
  {                                                                                             \
    const __m256d v = _mm256_loadu_pd(c##k + i);                                                \
    const __m256d t = _mm256_fmadd_pd(v, b, s##k);                                              \
    const __m256d p = _mm256_sub_pd(t, s##k);                                                   \
    s##k = t;                                                                                   \
    r##k = _mm256_add_pd(r##k, _mm256_fmsub_pd(v, b, p));                                       \
    m##k = _mm256_max_pd(m##k, _mm256_and_pd(v, absmask));                                      \
  }
    EXSTAR_GEMV_STEP(0)
    EXSTAR_GEMV_STEP(1)
    EXSTAR_GEMV_STEP(2)
    EXSTAR_GEMV_STEP(3)
#undef EXSTAR_GEMV_STEP
  }
  // each lane's exact part (less 1.5 σ), then their sum: exact in any order (core/gemm.h); R: any
  // order within the bound
  const __m256d sv[4] = {s0, s1, s2, s3}, rv[4] = {r0, r1, r2, r3}, mv[4] = {m0, m1, m2, m3};
  for (int k = 0; k < 4; ++k) {
    double a[4], b[4], e[4];
    _mm256_storeu_pd(a, _mm256_sub_pd(sv[k], _mm256_set1_pd(h[k])));
    _mm256_storeu_pd(b, rv[k]), _mm256_storeu_pd(e, mv[k]);
    S[k] = (a[0] + a[1]) + (a[2] + a[3]);
    R[k] = (b[0] + b[1]) + (b[2] + b[3]);
    M[k] = fmax(fmax(e[0], e[1]), fmax(e[2], e[3]));
  }
#endif
  // the rest of the terms: a running sum of their own, its exact part added to S
  double run[4];
  for (int k = 0; k < 4; ++k) run[k] = exstar_gemm_run_begin(0.0, sig[k]);
  for (; i < m; ++i)
    for (int k = 0; k < 4; ++k) {
      const double v = c[k][i];
      exstar_gemm_term(v, xs[i], &run[k], &R[k]);
      M[k] = fabs(v) > M[k] ? fabs(v) : M[k];
    }
  for (int k = 0; k < 4; ++k) S[k] += exstar_gemm_run_end(run[k], sig[k]);
}

void sums_t(int64_t m, int64_t n, const double *A, int64_t lda, const double *xs, entry_sums &out)
{
  const int ex = exp_of_max(xs, m), ep = exstar_gemm_count_exp(m);
  const int64_t kg = min64(m, kGuessCols);
  out.S.resize((size_t)n), out.R.resize((size_t)n), out.E.resize((size_t)n);
  for (int64_t j0 = 0; j0 < n; j0 += 4) {
    const int64_t cnt = min64(4, n - j0);
    const double *c[4];
    double sig[4], S[4], R[4], M[4];
    int ea[4];
    for (int k = 0; k < 4; ++k) {
      c[k] = A + (j0 + (k < cnt ? k : 0)) * lda; // a short group repeats its first column
      const double g = max_abs(c[k], kg);
      ea[k] = (g > 0.0 ? exstar_exp_above(g) : exp_of_max(c[k], m)) + kMargin;
      sig[k] = exstar_gemm_sigma(ea[k], ex, ep);
    }
    columns_pass4(c, xs, m, sig, S, R, M);
    for (int64_t k = 0; k < cnt; ++k) {
      // NaN in M (fmax drops it; then S is NaN), inf: exp NONFINITE > ea
      const bool held = exstar_exp_above(M[k]) <= ea[k];
      out.S[(size_t)(j0 + k)] = S[k], out.R[(size_t)(j0 + k)] = R[k];
      out.E[(size_t)(j0 + k)] = held ? exstar_gemm_bound_unfolded(m, sig[k]) : exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
    }
  }
}

int64_t gemv_t(int64_t m, int64_t n, double alpha, const double *A, int64_t lda, const std::vector<double> &xs,
               double beta, double *y, int64_t fy, int64_t incy)
{
  entry_sums f;
  sums_t(m, n, A, lda, xs.data(), f);
  int64_t repaired = 0;
  for (int64_t j = 0; j < n; ++j) {
    double *yj = y + fy + j * incy;
    const double cy = beta != 0.0 ? *yj : 0.0;
    double v;
    if (exstar_gemm_finish_fast(f.S[(size_t)j], f.R[(size_t)j], f.E[(size_t)j], alpha, beta, cy, &v)) {
      *yj = v;
      continue;
    }
    ++repaired;
    if (exstar_gemm_entry_retry_cpu(m, alpha, A, j * lda, 1, xs.data(), 0, 1, beta, cy, &v))
      *yj = v;
    else
      *yj = exact_entry_lanes('T', m, alpha, A, j * lda, lda, xs.data(), beta, cy);
  }
  return repaired;
}

} // namespace

int64_t exstar_cpu_dgemv(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa, int64_t lda,
                         const double *x, int64_t offx, int64_t incx, double beta, double *y, int64_t offy,
                         int64_t incy, int exact_only)
{
  const bool notrans = trans == 'N' || trans == 'n';
  const int64_t leny = notrans ? m : n, lenx = notrans ? n : m;
  if (leny <= 0) return 0;
  const int64_t fy = exstar_first_index(leny, offy, incy);
  if (exact_only || lenx == 0) { // the exact path for every entry
    std::vector<exstar_i64> accs((size_t)(leny * EXSTAR_ACC_WORDS), 0);
    if (lenx > 0) exstar_cpu_gemv_acc(notrans ? 'N' : 'T', m, n, alpha, A, offa, lda, x, offx, incx, accs.data(), 0);
    exstar_cpu_gemv_finish(leny, beta, y, offy, incy, accs.data(), 0);
    return leny;
  }
  // x contiguous (its stride and offset resolved once)
  std::vector<double> xs((size_t)lenx);
  const int64_t fx = exstar_first_index(lenx, offx, incx);
  for (int64_t k = 0; k < lenx; ++k) xs[(size_t)k] = x[fx + k * incx];
  return notrans ? gemv_n(m, n, alpha, A + offa, lda, xs, beta, y, fy, incy)
                 : gemv_t(m, n, alpha, A + offa, lda, xs, beta, y, fy, incy);
}

void exstar_cpu_gemv_state_add(char trans, int64_t m, int64_t n, double sign, const double *A, int64_t offa,
                               int64_t lda, const double *x, int64_t offx, int64_t incx, double *st, int64_t offst,
                               int init)
{
  const bool notrans = trans == 'N' || trans == 'n';
  const int64_t leny = notrans ? m : n, lenx = notrans ? n : m;
  exstar_bdd *d = (exstar_bdd *)(st + 4 * offst);
  if (init)
    for (int64_t i = 0; i < leny; ++i) d[i] = exstar_bdd{0.0, 0.0, 0.0, 0.0};
  if (leny <= 0 || lenx <= 0) return;
  std::vector<double> xs((size_t)lenx);
  const int64_t fx = exstar_first_index(lenx, offx, incx);
  for (int64_t k = 0; k < lenx; ++k) xs[(size_t)k] = x[fx + k * incx];
  entry_sums f;
  if (notrans)
    sums_n(m, n, A + offa, lda, xs.data(), f);
  else
    sums_t(m, n, A + offa, lda, xs.data(), f);
  // a NaN bound (σ did not hold) makes the entry's err NaN: its rounding declines
  for (int64_t i = 0; i < leny; ++i) exstar_gemm_state_add(&d[i], f.S[(size_t)i], f.R[(size_t)i], f.E[(size_t)i], sign);
}
