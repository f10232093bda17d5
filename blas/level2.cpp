// libexstar_blas, Level 2: the Fortran symbols. dgemv and dtrsv are exstar's; the others are
// computed here by their definitions in exstar_blas.h (exstar's exact kernels on symmetric
// copies, or the exact accumulator over the band, triangle or packed entries). Argument
// checks (xerbla_ parameter numbers) and quick returns are the reference BLAS's.
#include "blas/internal.h"
#include <algorithm>

using namespace exstar_blas;

namespace {

// The argument checks of the triangular routines (xerbla_'s parameter numbers): the four they
// share, then full storage (dtrmv, dtrsv), band (dtbmv, dtbsv) or packed (dtpmv, dtpsv).
fint tri_info(char uplo, char trans, char diag, fint n)
{
  return bad_uplo(uplo) ? 1 : bad_trans(trans) ? 2 : bad_diag(diag) ? 3 : n < 0 ? 4 : 0;
}
fint tr_info(char uplo, char trans, char diag, fint n, fint lda, fint incx)
{
  const fint info = tri_info(uplo, trans, diag, n);
  return info ? info : lda < imax(1, n) ? 6 : incx == 0 ? 8 : 0;
}
fint tb_info(char uplo, char trans, char diag, fint n, fint k, fint lda, fint incx)
{
  const fint info = tri_info(uplo, trans, diag, n);
  return info ? info : k < 0 ? 5 : lda < k + 1 ? 7 : incx == 0 ? 9 : 0;
}
fint tp_info(char uplo, char trans, char diag, fint n, fint incx)
{
  const fint info = tri_info(uplo, trans, diag, n);
  return info ? info : incx == 0 ? 7 : 0;
}

// The full symmetric n x n matrix of a stored triangle a(i, j) (i <= j for upper).
template <class A>
std::vector<double> symmetric(int64_t n, bool upper, const A &a)
{
  std::vector<double> f((size_t)(n * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const bool stored = upper ? i <= j : i >= j;
      f[(size_t)(i + j * n)] = stored ? a(i, j) : a(j, i);
    }
  return f;
}

// Packed triangle: element (i, j) of the stored triangle, 0-based.
inline int64_t packed(bool upper, int64_t n, int64_t i, int64_t j)
{
  return upper ? i + j * (j + 1) / 2 : (i - j) + j * (2 * n - j + 1) / 2;
}

// y := α·A·x + β·y for symmetric A (full copy f): the reference's quick returns and β scaling.
void symv_full(int64_t n, double alpha, const std::vector<double> &f, const double *x, int64_t incx, double beta,
               double *y, int64_t incy)
{
  if (alpha == 0.0) return scale_vec(n, beta, y, incy);
  gemv('N', n, n, alpha, f.data(), n, x, incx, beta, y, incy);
}

// y_i := RN(Σ_{j in [j0, j1)} α·a(i, j)·x_j + β·y_i) on the calling thread (banded products).
template <class A, class R>
void band_mv(int64_t leny, int64_t lenx, double alpha, const A &a, const R &range, const double *x, int64_t incx,
             double beta, double *y, int64_t incy)
{
  const int64_t fx = first(lenx, incx), fy = first(leny, incy);
  for (int64_t i = 0; i < leny; ++i) {
    int64_t j0, j1;
    range(i, &j0, &j1);
    exact_sum s;
    for (int64_t j = j0; j < j1; ++j) s.add(alpha, a(i, j), x[fx + j * incx]);
    if (beta != 0.0) s.add(beta, y[fy + i * incy]);
    y[fy + i * incy] = s.round();
  }
}

// x := op(T)·x, x_i := RN(Σ_{j in range(i)} op(T)_ij·x_j) (+ x_i itself when unit).
template <class T, class R>
void tri_mv(int64_t n, bool unit, const T &t, const R &range, double *x, int64_t incx)
{
  const int64_t f = first(n, incx);
  std::vector<double> out((size_t)n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t j0, j1;
    range(i, &j0, &j1); // the off-diagonal j of row i
    exact_sum s;
    for (int64_t j = j0; j < j1; ++j) s.add(t(i, j), x[f + j * incx]);
    if (unit) s.add(x[f + i * incx]);
    else s.add(t(i, i), x[f + i * incx]);
    out[(size_t)i] = s.round();
  }
  for (int64_t i = 0; i < n; ++i) x[f + i * incx] = out[(size_t)i];
}

// The off-diagonal columns j of row i of op(T) for a triangle of op(T) (lower: j < i) limited
// to a band of width k (k < 0: no band).
struct tri_range {
  bool lower;
  int64_t n, k;
  void operator()(int64_t i, int64_t *j0, int64_t *j1) const
  {
    if (lower) *j0 = k < 0 ? 0 : std::max<int64_t>(0, i - k), *j1 = i;
    else *j0 = i + 1, *j1 = k < 0 ? n : std::min<int64_t>(n, i + k + 1);
  }
};

// op(T) is lower when (uplo L, trans N) or (uplo U, trans T).
bool op_lower(char uplo, char trans) { return lsame(uplo, 'L') == lsame(trans, 'N'); }

// x := op(T)^-1 x by exstar's kernel on the calling thread (exstar_dtrsm with α = 1 gives
// exstar_dtrsv's bits; a zero diagonal gives the IEEE quotient, as the reference).
void trsv_here(char uplo, char trans, char diag, int64_t n, const double *T, int64_t ldt, double *x, int64_t incx)
{
  std::vector<double> b = gather(n, x, incx);
  exstar_cpu_dtrsm('L', upper(uplo), lsame(trans, 'N') ? 'N' : 'T', upper(diag), n, 1, 1.0, T, 0, ldt, b.data(), 0,
                   n, 0);
  const int64_t f = first(n, incx);
  for (int64_t i = 0; i < n; ++i) x[f + i * incx] = b[(size_t)i];
}

} // namespace

extern "C" {

void dgemv_(const char *trans, const fint *m, const fint *n, const double *alpha, const double *A, const fint *lda,
            const double *x, const fint *incx, const double *beta, double *y, const fint *incy, size_t)
{
  fint info = 0;
  if (bad_trans(*trans)) info = 1;
  else if (*m < 0) info = 2;
  else if (*n < 0) info = 3;
  else if (*lda < imax(1, *m)) info = 6;
  else if (*incx == 0) info = 8;
  else if (*incy == 0) info = 11;
  if (info) return error("DGEMV", info);
  if (*m == 0 || *n == 0 || (*alpha == 0.0 && *beta == 1.0)) return;
  const int64_t leny = lsame(*trans, 'N') ? *m : *n;
  if (*alpha == 0.0) return scale_vec(leny, *beta, y, *incy);
  gemv(upper(*trans) == 'N' ? 'N' : 'T', *m, *n, *alpha, A, *lda, x, *incx, *beta, y, *incy);
}

void dgbmv_(const char *trans, const fint *m, const fint *n, const fint *kl, const fint *ku, const double *alpha,
            const double *A, const fint *lda, const double *x, const fint *incx, const double *beta, double *y,
            const fint *incy, size_t)
{
  fint info = 0;
  if (bad_trans(*trans)) info = 1;
  else if (*m < 0) info = 2;
  else if (*n < 0) info = 3;
  else if (*kl < 0) info = 4;
  else if (*ku < 0) info = 5;
  else if (*lda < *kl + *ku + 1) info = 8;
  else if (*incx == 0) info = 10;
  else if (*incy == 0) info = 13;
  if (info) return error("DGBMV", info);
  if (*m == 0 || *n == 0 || (*alpha == 0.0 && *beta == 1.0)) return;
  const bool nt = lsame(*trans, 'N');
  const int64_t leny = nt ? *m : *n, lenx = nt ? *n : *m, M = *m, N = *n, KL = *kl, KU = *ku, LD = *lda;
  if (*alpha == 0.0) return scale_vec(leny, *beta, y, *incy);
  auto a = [&](int64_t i, int64_t j) { return A[(KU + i - j) + j * LD]; }; // A(i, j) in band storage
  if (nt)
    band_mv(leny, lenx, *alpha, a,
            [&](int64_t i, int64_t *j0, int64_t *j1) { *j0 = std::max<int64_t>(0, i - KL), *j1 = std::min(N, i + KU + 1); },
            x, *incx, *beta, y, *incy);
  else
    band_mv(leny, lenx, *alpha, [&](int64_t j, int64_t i) { return a(i, j); },
            [&](int64_t j, int64_t *i0, int64_t *i1) { *i0 = std::max<int64_t>(0, j - KU), *i1 = std::min(M, j + KL + 1); },
            x, *incx, *beta, y, *incy);
}

void dsymv_(const char *uplo, const fint *n, const double *alpha, const double *A, const fint *lda, const double *x,
            const fint *incx, const double *beta, double *y, const fint *incy, size_t)
{
  fint info = 0;
  if (bad_uplo(*uplo)) info = 1;
  else if (*n < 0) info = 2;
  else if (*lda < imax(1, *n)) info = 5;
  else if (*incx == 0) info = 7;
  else if (*incy == 0) info = 10;
  if (info) return error("DSYMV", info);
  if (*n == 0 || (*alpha == 0.0 && *beta == 1.0)) return;
  if (*alpha == 0.0) return scale_vec(*n, *beta, y, *incy);
  const int64_t ld = *lda;
  symv_full(*n, *alpha, symmetric(*n, lsame(*uplo, 'U'), [&](int64_t i, int64_t j) { return A[i + j * ld]; }), x,
            *incx, *beta, y, *incy);
}

void dspmv_(const char *uplo, const fint *n, const double *alpha, const double *ap, const double *x, const fint *incx,
            const double *beta, double *y, const fint *incy, size_t)
{
  fint info = 0;
  if (bad_uplo(*uplo)) info = 1;
  else if (*n < 0) info = 2;
  else if (*incx == 0) info = 6;
  else if (*incy == 0) info = 9;
  if (info) return error("DSPMV", info);
  if (*n == 0 || (*alpha == 0.0 && *beta == 1.0)) return;
  if (*alpha == 0.0) return scale_vec(*n, *beta, y, *incy);
  const bool up = lsame(*uplo, 'U');
  const int64_t N = *n;
  symv_full(N, *alpha, symmetric(N, up, [&](int64_t i, int64_t j) { return ap[packed(up, N, i, j)]; }), x, *incx,
            *beta, y, *incy);
}

void dsbmv_(const char *uplo, const fint *n, const fint *k, const double *alpha, const double *A, const fint *lda,
            const double *x, const fint *incx, const double *beta, double *y, const fint *incy, size_t)
{
  fint info = 0;
  if (bad_uplo(*uplo)) info = 1;
  else if (*n < 0) info = 2;
  else if (*k < 0) info = 3;
  else if (*lda < *k + 1) info = 6;
  else if (*incx == 0) info = 8;
  else if (*incy == 0) info = 11;
  if (info) return error("DSBMV", info);
  if (*n == 0 || (*alpha == 0.0 && *beta == 1.0)) return;
  if (*alpha == 0.0) return scale_vec(*n, *beta, y, *incy);
  const bool up = lsame(*uplo, 'U');
  const int64_t N = *n, K = *k, LD = *lda;
  auto a = [&](int64_t i, int64_t j) { // A(i, j) = A(j, i), |i - j| <= k, from the stored band
    if (up) return i <= j ? A[(K + i - j) + j * LD] : A[(K + j - i) + i * LD];
    return i >= j ? A[(i - j) + j * LD] : A[(j - i) + i * LD];
  };
  band_mv(N, N, *alpha, a,
          [&](int64_t i, int64_t *j0, int64_t *j1) { *j0 = std::max<int64_t>(0, i - K), *j1 = std::min(N, i + K + 1); },
          x, *incx, *beta, y, *incy);
}

void dtrmv_(const char *uplo, const char *trans, const char *diag, const fint *n, const double *A, const fint *lda,
            double *x, const fint *incx, size_t, size_t, size_t)
{
  const fint info = tr_info(*uplo, *trans, *diag, *n, *lda, *incx);
  if (info) return error("DTRMV", info);
  if (*n == 0) return;
  const int64_t LD = *lda;
  const bool nt = lsame(*trans, 'N');
  auto t = [&](int64_t i, int64_t j) { return nt ? A[i + j * LD] : A[j + i * LD]; };
  tri_mv(*n, lsame(*diag, 'U'), t, tri_range{op_lower(*uplo, *trans), *n, -1}, x, *incx);
}

void dtbmv_(const char *uplo, const char *trans, const char *diag, const fint *n, const fint *k, const double *A,
            const fint *lda, double *x, const fint *incx, size_t, size_t, size_t)
{
  const fint info = tb_info(*uplo, *trans, *diag, *n, *k, *lda, *incx);
  if (info) return error("DTBMV", info);
  if (*n == 0) return;
  const int64_t LD = *lda, K = *k;
  const bool nt = lsame(*trans, 'N'), up = lsame(*uplo, 'U');
  auto s = [&](int64_t i, int64_t j) { return up ? A[(K + i - j) + j * LD] : A[(i - j) + j * LD]; }; // T(i, j)
  auto t = [&](int64_t i, int64_t j) { return nt ? s(i, j) : s(j, i); };
  tri_mv(*n, lsame(*diag, 'U'), t, tri_range{op_lower(*uplo, *trans), *n, K}, x, *incx);
}

void dtpmv_(const char *uplo, const char *trans, const char *diag, const fint *n, const double *ap, double *x,
            const fint *incx, size_t, size_t, size_t)
{
  const fint info = tp_info(*uplo, *trans, *diag, *n, *incx);
  if (info) return error("DTPMV", info);
  if (*n == 0) return;
  const int64_t N = *n;
  const bool nt = lsame(*trans, 'N'), up = lsame(*uplo, 'U');
  auto t = [&](int64_t i, int64_t j) { return nt ? ap[packed(up, N, i, j)] : ap[packed(up, N, j, i)]; };
  tri_mv(N, lsame(*diag, 'U'), t, tri_range{op_lower(*uplo, *trans), N, -1}, x, *incx);
}

void dtrsv_(const char *uplo, const char *trans, const char *diag, const fint *n, const double *A, const fint *lda,
            double *x, const fint *incx, size_t, size_t, size_t)
{
  const fint info = tr_info(*uplo, *trans, *diag, *n, *lda, *incx);
  if (info) return error("DTRSV", info);
  if (*n == 0) return;
  const char u = upper(*uplo), t = lsame(*trans, 'N') ? 'N' : 'T', d = upper(*diag);
  int64_t sing = 0;
  if (!small((double)*n * *n) && ready() == 0 && exstar_dtrsv(u, t, d, *n, A, *lda, x, *incx, &sing) == EXSTAR_SUCCESS)
    return;
  // small, or a zero diagonal (exstar refuses; the reference divides by it): the same kernel here
  trsv_here(u, t, d, *n, A, *lda, x, *incx);
}

void dtbsv_(const char *uplo, const char *trans, const char *diag, const fint *n, const fint *k, const double *A,
            const fint *lda, double *x, const fint *incx, size_t, size_t, size_t)
{
  const fint info = tb_info(*uplo, *trans, *diag, *n, *k, *lda, *incx);
  if (info) return error("DTBSV", info);
  if (*n == 0) return;
  const int64_t LD = *lda, K = *k;
  const bool nt = lsame(*trans, 'N'), up = lsame(*uplo, 'U'), lo = op_lower(*uplo, *trans);
  auto s = [&](int64_t i, int64_t j) { return up ? A[(K + i - j) + j * LD] : A[(i - j) + j * LD]; };
  auto t = [&](int64_t i, int64_t j) { return nt ? s(i, j) : s(j, i); };
  solve(*n, lo, lsame(*diag, 'U'), 1.0, t, tri_range{lo, *n, K}, x, *incx);
}

void dtpsv_(const char *uplo, const char *trans, const char *diag, const fint *n, const double *ap, double *x,
            const fint *incx, size_t, size_t, size_t)
{
  const fint info = tp_info(*uplo, *trans, *diag, *n, *incx);
  if (info) return error("DTPSV", info);
  if (*n == 0) return;
  const int64_t N = *n;
  const bool nt = lsame(*trans, 'N'), up = lsame(*uplo, 'U'), lo = op_lower(*uplo, *trans);
  auto t = [&](int64_t i, int64_t j) { return nt ? ap[packed(up, N, i, j)] : ap[packed(up, N, j, i)]; };
  solve(N, lo, lsame(*diag, 'U'), 1.0, t, tri_range{lo, N, -1}, x, *incx);
}

// dger: a_ij := RN(a_ij + α·x_i·y_j) = exstar's gemm with k = 1 and β = 1.
void dger_(const fint *m, const fint *n, const double *alpha, const double *x, const fint *incx, const double *y,
           const fint *incy, double *A, const fint *lda)
{
  fint info = 0;
  if (*m < 0) info = 1;
  else if (*n < 0) info = 2;
  else if (*incx == 0) info = 5;
  else if (*incy == 0) info = 7;
  else if (*lda < imax(1, *m)) info = 9;
  if (info) return error("DGER", info);
  if (*m == 0 || *n == 0 || *alpha == 0.0) return;
  const std::vector<double> xc = gather(*m, x, *incx), yc = gather(*n, y, *incy);
  gemm('N', 'T', *m, *n, 1, *alpha, xc.data(), *m, yc.data(), *n, 1.0, A, *lda);
}

} // extern "C"

namespace {

// dsyr/dsyr2/dspr/dspr2: column j of the stored triangle (rows [r0, r1), at col[r]) gets
// a_rj := RN(a_rj + Σ_{q<k} α·u_q(r)·v_q(j)), k = 1 (syr) or 2 (syr2), by exstar's gemm
// kernel with β = 1 (u: the k vectors side by side, n x k, ld n; vj: the k values at j).
void rank_update(bool up, int64_t n, int64_t k, double alpha, const std::vector<double> &u,
                 const std::vector<double> &v, double *a, int64_t lda, bool is_packed)
{
  for (int64_t j = 0; j < n; ++j) {
    const int64_t r0 = up ? 0 : j, r1 = up ? j + 1 : n;
    double *col = is_packed ? a + packed(up, n, r0, j) : a + r0 + j * lda;
    double vj[2] = {v[(size_t)j], k > 1 ? v[(size_t)(n + j)] : 0.0};
    gemm('N', 'N', r1 - r0, 1, k, alpha, u.data() + r0, n, vj, k, 1.0, col, r1 - r0);
  }
}

} // namespace

extern "C" {

void dsyr_(const char *uplo, const fint *n, const double *alpha, const double *x, const fint *incx, double *A,
           const fint *lda, size_t)
{
  fint info = 0;
  if (bad_uplo(*uplo)) info = 1;
  else if (*n < 0) info = 2;
  else if (*incx == 0) info = 5;
  else if (*lda < imax(1, *n)) info = 7;
  if (info) return error("DSYR", info);
  if (*n == 0 || *alpha == 0.0) return;
  const std::vector<double> xc = gather(*n, x, *incx);
  rank_update(lsame(*uplo, 'U'), *n, 1, *alpha, xc, xc, A, *lda, false);
}

void dspr_(const char *uplo, const fint *n, const double *alpha, const double *x, const fint *incx, double *ap, size_t)
{
  fint info = 0;
  if (bad_uplo(*uplo)) info = 1;
  else if (*n < 0) info = 2;
  else if (*incx == 0) info = 5;
  if (info) return error("DSPR", info);
  if (*n == 0 || *alpha == 0.0) return;
  const std::vector<double> xc = gather(*n, x, *incx);
  rank_update(lsame(*uplo, 'U'), *n, 1, *alpha, xc, xc, ap, 0, true);
}

void dsyr2_(const char *uplo, const fint *n, const double *alpha, const double *x, const fint *incx, const double *y,
            const fint *incy, double *A, const fint *lda, size_t)
{
  fint info = 0;
  if (bad_uplo(*uplo)) info = 1;
  else if (*n < 0) info = 2;
  else if (*incx == 0) info = 5;
  else if (*incy == 0) info = 7;
  else if (*lda < imax(1, *n)) info = 9;
  if (info) return error("DSYR2", info);
  if (*n == 0 || *alpha == 0.0) return;
  std::vector<double> xy = gather(*n, x, *incx), yx = gather(*n, y, *incy);
  xy.insert(xy.end(), yx.begin(), yx.end()); // [x | y]
  yx.insert(yx.end(), xy.begin(), xy.begin() + *n); // [y | x]: column j gets α·x_i·y_j + α·y_i·x_j
  rank_update(lsame(*uplo, 'U'), *n, 2, *alpha, xy, yx, A, *lda, false);
}

void dspr2_(const char *uplo, const fint *n, const double *alpha, const double *x, const fint *incx, const double *y,
            const fint *incy, double *ap, size_t)
{
  fint info = 0;
  if (bad_uplo(*uplo)) info = 1;
  else if (*n < 0) info = 2;
  else if (*incx == 0) info = 5;
  else if (*incy == 0) info = 7;
  if (info) return error("DSPR2", info);
  if (*n == 0 || *alpha == 0.0) return;
  std::vector<double> xy = gather(*n, x, *incx), yx = gather(*n, y, *incy);
  xy.insert(xy.end(), yx.begin(), yx.end());
  yx.insert(yx.end(), xy.begin(), xy.begin() + *n);
  rank_update(lsame(*uplo, 'U'), *n, 2, *alpha, xy, yx, ap, 0, true);
}

} // extern "C"
