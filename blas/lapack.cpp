// libexstar_blas, LAPACK: dgetrf_, dgetrs_, dgesv_, dlaswp_, dpotrf_, dpotrs_, dposv_ on
// exstar's drivers, and their LAPACKE forms. Argument checks and quick returns as LAPACK (xerbla_ with −INFO's position).
#include "blas/internal.h"
#include "kernels_cpu/lu_tiled.h"
#include "kernels_cpu/potrf_tiled.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace exstar_blas;

namespace {

// Whether exstar ran the call: it refuses (memory, workers) before submitting anything, and the
// calling thread then computes the same bits.
bool ran(int status)
{
  return status == EXSTAR_SUCCESS || status == EXSTAR_ERR_SINGULAR || status == EXSTAR_ERR_NONFINITE;
}

// Small factorizations on the calling thread: the tiled LU's panel kernel on ONE tile holding
// the whole matrix, its GEMM-accumulate state initialized to A, exactly what a CPU worker runs
// for exstar_dgetrf of a one-tile matrix (every entry is the definition's value, so the bits are
// exstar_dgetrf's for any tiling; tests/blas proves it). *info: the first zero pivot.
void getrf_here(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info)
{
  std::vector<exstar_gemm_state_entry> st((size_t)(m * n));
  exstar_cpu_gemm_state_init(m, n, A, 0, lda, st.data(), 0, m);
  double *a[1] = {A};
  int64_t ld[1] = {lda}, ldst[1] = {m}, ldlc[1] = {0};
  exstar_gemm_state_entry *s[1] = {st.data()};
  const exstar_tile_view v{m, n, std::max(m, n), 1, 1, a, ld, s, ldst, nullptr, ldlc, nullptr};
  exstar_cpu_lu_panel(&v, 0, ipiv, info, 0);
}

// Rows k and ipiv[k]-1 of B interchanged, k = 0..n-1 (forward) or n-1..0 (backward).
void swap_rows(int64_t n, int64_t nrhs, const int32_t *ipiv, double *B, int64_t ldb, bool forward)
{
  for (int64_t q = 0; q < n; ++q) {
    const int64_t k = forward ? q : n - 1 - q, p = ipiv[k] - 1;
    if (p != k)
      for (int64_t c = 0; c < nrhs; ++c) std::swap(B[k + c * ldb], B[p + c * ldb]);
  }
}

// exstar_dgetrs's definition (laswp, then exstar_dtrsv's substitutions, which exstar_dtrsm
// with α = 1 gives column by column) by exstar's trsm kernel on the calling thread.
void getrs_here(char t, int64_t n, int64_t nrhs, const double *LU, int64_t lda, const int32_t *ipiv, double *B,
                int64_t ldb)
{
  if (t == 'N') {
    swap_rows(n, nrhs, ipiv, B, ldb, true);
    exstar_cpu_dtrsm('L', 'L', 'N', 'U', n, nrhs, 1.0, LU, 0, lda, B, 0, ldb, 0);
    exstar_cpu_dtrsm('L', 'U', 'N', 'N', n, nrhs, 1.0, LU, 0, lda, B, 0, ldb, 0);
  } else {
    exstar_cpu_dtrsm('L', 'U', 'T', 'N', n, nrhs, 1.0, LU, 0, lda, B, 0, ldb, 0);
    exstar_cpu_dtrsm('L', 'L', 'T', 'U', n, nrhs, 1.0, LU, 0, lda, B, 0, ldb, 0);
    swap_rows(n, nrhs, ipiv, B, ldb, false);
  }
}

// Whether exstar ran a Cholesky call (as ran()).
bool ran_chol(int status)
{
  return status == EXSTAR_SUCCESS || status == EXSTAR_ERR_NOT_POSDEF || status == EXSTAR_ERR_NONFINITE;
}

// Small Cholesky factorizations on the calling thread: the tiled Cholesky's panel kernel on ONE
// tile holding the whole lower triangle (uplo 'U': its transposed copy), its state initialized
// to A, what a CPU worker runs for exstar_dpotrf of a one-tile matrix. *info: the first column
// whose exact value under the root is not positive.
void potrf_here(char u, int64_t n, double *A, int64_t lda, int64_t *info)
{
  std::vector<double> T;
  double *a = A;
  int64_t ld = lda;
  if (u == 'U') {
    T.assign((size_t)(n * n), 0.0);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = j; i < n; ++i) T[(size_t)(i + j * n)] = A[j + i * lda];
    a = T.data(), ld = n;
  }
  std::vector<exstar_gemm_state_entry> st((size_t)(n * n));
  exstar_cpu_gemm_state_init(n, n, a, 0, ld, st.data(), 0, n);
  std::vector<int32_t> fail((size_t)n, 0);
  double *t[1] = {a};
  int64_t lds[1] = {ld}, ldst[1] = {n}, ldlc[1] = {0};
  exstar_gemm_state_entry *s[1] = {st.data()};
  const exstar_tile_view v{n, n, n, 1, 1, t, lds, s, ldst, nullptr, ldlc, nullptr};
  exstar_cpu_potrf_panel(&v, 0, 0, 1, fail.data(), 0);
  *info = 0;
  for (int64_t j = 0; j < n && *info == 0; ++j)
    if (fail[(size_t)j]) *info = j + 1;
  if (u == 'U')
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = j; i < n; ++i) A[j + i * lda] = T[(size_t)(i + j * n)];
}

// exstar_dpotrs's definition (two exact triangular solves) by exstar's trsm kernel here.
void potrs_here(char u, int64_t n, int64_t nrhs, const double *A, int64_t lda, double *B, int64_t ldb)
{
  exstar_cpu_dtrsm('L', u, u == 'L' ? 'N' : 'T', 'N', n, nrhs, 1.0, A, 0, lda, B, 0, ldb, 0);
  exstar_cpu_dtrsm('L', u, u == 'L' ? 'T' : 'N', 'N', n, nrhs, 1.0, A, 0, lda, B, 0, ldb, 0);
}

// LAPACK's checks of uplo, n, nrhs (when given), lda and ldb (when given): the INFO position.
fint check_chol(const char *uplo, fint n, const fint *nrhs, fint lda, const fint *ldb)
{
  if (bad_uplo(*uplo)) return -1;
  if (n < 0) return -2;
  if (nrhs && *nrhs < 0) return -3;
  if (lda < imax(1, n)) return nrhs ? -5 : -4;
  if (ldb && *ldb < imax(1, n)) return -7;
  return 0;
}

} // namespace

extern "C" {

void dpotrf_(const char *uplo, const fint *n, double *A, const fint *lda, fint *info, size_t)
{
  if ((*info = check_chol(uplo, *n, nullptr, *lda, nullptr))) return error("DPOTRF", -*info);
  if (*n == 0) return;
  const char u = lsame(*uplo, 'U') ? 'U' : 'L';
  int64_t i = 0;
  if (small((double)*n * *n * *n / 3) || ready() != 0 || !ran_chol(exstar_dpotrf(u, *n, A, *lda, &i)))
    potrf_here(u, *n, A, *lda, &i);
  *info = (fint)i;
}

void dpotrs_(const char *uplo, const fint *n, const fint *nrhs, const double *A, const fint *lda, double *B,
             const fint *ldb, fint *info, size_t)
{
  if ((*info = check_chol(uplo, *n, nrhs, *lda, ldb))) return error("DPOTRS", -*info);
  if (*n == 0 || *nrhs == 0) return;
  const char u = lsame(*uplo, 'U') ? 'U' : 'L';
  if (small((double)*n * *n * *nrhs) || ready() != 0 ||
      exstar_dpotrs(u, *n, *nrhs, A, *lda, B, *ldb) != EXSTAR_SUCCESS)
    potrs_here(u, *n, *nrhs, A, *lda, B, *ldb);
}

void dposv_(const char *uplo, const fint *n, const fint *nrhs, double *A, const fint *lda, double *B, const fint *ldb,
            fint *info, size_t)
{
  if ((*info = check_chol(uplo, *n, nrhs, *lda, ldb))) return error("DPOSV ", -*info);
  if (*n == 0) return;
  // LAPACK's dposv: potrf, then potrs unless the factorization failed (no refinement)
  dpotrf_(uplo, n, A, lda, info, 1);
  if (*info == 0 && *nrhs > 0) dpotrs_(uplo, n, nrhs, A, lda, B, ldb, info, 1);
}

void dgetrf_(const fint *m, const fint *n, double *A, const fint *lda, fint *ipiv, fint *info)
{
  *info = 0;
  if (*m < 0) *info = -1;
  else if (*n < 0) *info = -2;
  else if (*lda < imax(1, *m)) *info = -4;
  if (*info) return error("DGETRF", -*info);
  if (*m == 0 || *n == 0) return;
  int64_t i = 0;
  if (small((double)*m * *n * std::min(*m, *n)) || ready() != 0) {
    getrf_here(*m, *n, A, *lda, ipiv, &i);
    *info = (fint)i;
    return;
  }
  if (!ran(exstar_dgetrf(*m, *n, A, *lda, ipiv, &i))) getrf_here(*m, *n, A, *lda, ipiv, &i);
  *info = (fint)i;
}

void dgetrs_(const char *trans, const fint *n, const fint *nrhs, const double *A, const fint *lda, const fint *ipiv,
             double *B, const fint *ldb, fint *info, size_t)
{
  *info = 0;
  if (!lsame(*trans, 'N') && !lsame(*trans, 'T') && !lsame(*trans, 'C')) *info = -1;
  else if (*n < 0) *info = -2;
  else if (*nrhs < 0) *info = -3;
  else if (*lda < imax(1, *n)) *info = -5;
  else if (*ldb < imax(1, *n)) *info = -8;
  if (*info) return error("DGETRS", -*info);
  if (*n == 0 || *nrhs == 0) return;
  const char t = lsame(*trans, 'N') ? 'N' : 'T';
  if (small((double)*n * *n * *nrhs) || ready() != 0) return getrs_here(t, *n, *nrhs, A, *lda, ipiv, B, *ldb);
  if (!ran(exstar_dgetrs(t, *n, *nrhs, A, *lda, ipiv, B, *ldb))) getrs_here(t, *n, *nrhs, A, *lda, ipiv, B, *ldb);
}

void dgesv_(const fint *n, const fint *nrhs, double *A, const fint *lda, fint *ipiv, double *B, const fint *ldb,
            fint *info)
{
  *info = 0;
  if (*n < 0) *info = -1;
  else if (*nrhs < 0) *info = -2;
  else if (*lda < imax(1, *n)) *info = -4;
  else if (*ldb < imax(1, *n)) *info = -7;
  if (*info) return error("DGESV ", -*info);
  if (*n == 0) return;
  int64_t i = 0;
  if (small((double)*n * *n * (*n + *nrhs)) || ready() != 0) { // getrf, then getrs unless singular
    getrf_here(*n, *n, A, *lda, ipiv, &i);
    *info = (fint)i;
    if (i == 0 && *nrhs > 0) getrs_here('N', *n, *nrhs, A, *lda, ipiv, B, *ldb);
    return;
  }
  // LAPACK's dgesv has no refinement: exstar_dgesv with 0 steps (getrf, then getrs unless singular)
  if (!ran(exstar_dgesv(*n, *nrhs, A, *lda, ipiv, B, *ldb, 0, &i))) {
    getrf_here(*n, *n, A, *lda, ipiv, &i);
    if (i == 0 && *nrhs > 0) getrs_here('N', *n, *nrhs, A, *lda, ipiv, B, *ldb);
  }
  *info = (fint)i;
}

void dlaswp_(const fint *n, double *A, const fint *lda, const fint *k1, const fint *k2, const fint *ipiv,
             const fint *incx)
{
  // LAPACK checks nothing here; no interchange when incx == 0 or the range is empty
  if (*n <= 0 || *incx == 0 || *k2 < *k1) return;
  if (!small((double)*n * (*k2 - *k1 + 1)) && ready() == 0 &&
      exstar_dlaswp(*n, A, *lda, *k1, *k2, ipiv, *incx) == EXSTAR_SUCCESS)
    return;
  // small, or exstar refused (e.g. a pivot beyond lda, which LAPACK does not check): LAPACK's
  // loop (interchanges only: the same bits whoever does them)
  const int64_t inc = *incx, ld = *lda;
  int64_t ix = inc > 0 ? *k1 : *k1 + (int64_t)(*k1 - *k2) * inc;
  const int64_t i1 = inc > 0 ? *k1 : *k2, i2 = inc > 0 ? *k2 : *k1, step = inc > 0 ? 1 : -1;
  for (int64_t i = i1;; i += step) {
    const int64_t ip = ipiv[ix - 1];
    if (ip != i)
      for (int64_t c = 0; c < *n; ++c) std::swap(A[(i - 1) + c * ld], A[(ip - 1) + c * ld]);
    ix += inc;
    if (i == i2) break;
  }
}

// ---- LAPACKE --------------------------------------------------------------------------------
enum { row_major = 101, col_major = 102 };

__attribute__((weak)) void LAPACKE_xerbla(const char *name, fint info)
{
  if (info == -1010) std::fprintf(stderr, "Not enough memory to allocate work array in %s\n", name);
  else if (info < 0) std::fprintf(stderr, "Wrong parameter %d in %s\n", (int)-info, name);
}

} // extern "C"

namespace {

// LAPACKE checks its inputs for NaN unless LAPACKE_NANCHECK=0 (its default is on).
bool nancheck_on()
{
  const char *e = std::getenv("LAPACKE_NANCHECK");
  return !(e && *e == '0');
}
bool has_nan(int layout, int64_t m, int64_t n, const double *a, int64_t ld)
{
  if (!nancheck_on()) return false;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (std::isnan(layout == col_major ? a[i + j * ld] : a[i * ld + j])) return true;
  return false;
}
// Column-major copy (ld max(1, m)) of the row-major m x n matrix a (ld), and back.
std::vector<double> to_col(int64_t m, int64_t n, const double *a, int64_t ld)
{
  std::vector<double> t((size_t)(std::max<int64_t>(1, m) * std::max<int64_t>(1, n)));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) t[(size_t)(i + j * std::max<int64_t>(1, m))] = a[i * ld + j];
  return t;
}
void from_col(int64_t m, int64_t n, const std::vector<double> &t, double *a, int64_t ld)
{
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) a[i * ld + j] = t[(size_t)(i + j * std::max<int64_t>(1, m))];
}

} // namespace

extern "C" {

fint LAPACKE_dgetrf(int layout, fint m, fint n, double *a, fint lda, fint *ipiv)
{
  if (layout != row_major && layout != col_major) return LAPACKE_xerbla("LAPACKE_dgetrf", -1), -1;
  if (has_nan(layout, m, n, a, lda)) return -4;
  fint info = 0;
  if (layout == col_major) return dgetrf_(&m, &n, a, &lda, ipiv, &info), info;
  if (lda < n) return LAPACKE_xerbla("LAPACKE_dgetrf_work", -5), -5;
  std::vector<double> t = to_col(m, n, a, lda);
  const fint ldt = imax(1, m);
  dgetrf_(&m, &n, t.data(), &ldt, ipiv, &info);
  from_col(m, n, t, a, lda);
  return info;
}

fint LAPACKE_dgetrs(int layout, char trans, fint n, fint nrhs, const double *a, fint lda, const fint *ipiv, double *b,
                    fint ldb)
{
  if (layout != row_major && layout != col_major) return LAPACKE_xerbla("LAPACKE_dgetrs", -1), -1;
  if (has_nan(layout, n, n, a, lda)) return -5;
  if (has_nan(layout, n, nrhs, b, ldb)) return -8;
  fint info = 0;
  if (layout == col_major) return dgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1), info;
  if (lda < n) return LAPACKE_xerbla("LAPACKE_dgetrs_work", -6), -6;
  if (ldb < nrhs) return LAPACKE_xerbla("LAPACKE_dgetrs_work", -9), -9;
  const std::vector<double> at = to_col(n, n, a, lda);
  std::vector<double> bt = to_col(n, nrhs, b, ldb);
  const fint ld = imax(1, n);
  dgetrs_(&trans, &n, &nrhs, at.data(), &ld, ipiv, bt.data(), &ld, &info, 1);
  from_col(n, nrhs, bt, b, ldb);
  return info;
}

fint LAPACKE_dgesv(int layout, fint n, fint nrhs, double *a, fint lda, fint *ipiv, double *b, fint ldb)
{
  if (layout != row_major && layout != col_major) return LAPACKE_xerbla("LAPACKE_dgesv", -1), -1;
  if (has_nan(layout, n, n, a, lda)) return -4;
  if (has_nan(layout, n, nrhs, b, ldb)) return -7; // LAPACKE 3.11 says -7 (b is argument 7)
  fint info = 0;
  if (layout == col_major) return dgesv_(&n, &nrhs, a, &lda, ipiv, b, &ldb, &info), info;
  if (lda < n) return LAPACKE_xerbla("LAPACKE_dgesv_work", -5), -5;
  if (ldb < nrhs) return LAPACKE_xerbla("LAPACKE_dgesv_work", -8), -8;
  std::vector<double> at = to_col(n, n, a, lda), bt = to_col(n, nrhs, b, ldb);
  const fint ld = imax(1, n);
  dgesv_(&n, &nrhs, at.data(), &ld, ipiv, bt.data(), &ld, &info);
  from_col(n, n, at, a, lda);
  from_col(n, nrhs, bt, b, ldb);
  return info;
}

} // extern "C"

namespace {

// LAPACKE's NaN check of a symmetric matrix: the uplo triangle only (LAPACKE_dpo_nancheck).
bool has_nan_triangle(int layout, char uplo, int64_t n, const double *a, int64_t ld)
{
  if (!nancheck_on()) return false;
  const bool lower = (uplo == 'L' || uplo == 'l') == (layout == col_major); // in column-major terms
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = lower ? j : 0; i < (lower ? n : j + 1); ++i)
      if (std::isnan(a[i + j * ld])) return true;
  return false;
}

} // namespace

extern "C" {

fint LAPACKE_dpotrf(int layout, char uplo, fint n, double *a, fint lda)
{
  if (layout != row_major && layout != col_major) return LAPACKE_xerbla("LAPACKE_dpotrf", -1), -1;
  if (has_nan_triangle(layout, uplo, n, a, lda)) return -4;
  fint info = 0;
  if (layout == col_major) return dpotrf_(&uplo, &n, a, &lda, &info, 1), info;
  if (lda < n) return LAPACKE_xerbla("LAPACKE_dpotrf_work", -5), -5;
  std::vector<double> t = to_col(n, n, a, lda);
  const fint ldt = imax(1, n);
  dpotrf_(&uplo, &n, t.data(), &ldt, &info, 1);
  from_col(n, n, t, a, lda);
  return info;
}

fint LAPACKE_dpotrs(int layout, char uplo, fint n, fint nrhs, const double *a, fint lda, double *b, fint ldb)
{
  if (layout != row_major && layout != col_major) return LAPACKE_xerbla("LAPACKE_dpotrs", -1), -1;
  if (has_nan_triangle(layout, uplo, n, a, lda)) return -5;
  if (has_nan(layout, n, nrhs, b, ldb)) return -7;
  fint info = 0;
  if (layout == col_major) return dpotrs_(&uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1), info;
  if (lda < n) return LAPACKE_xerbla("LAPACKE_dpotrs_work", -6), -6;
  if (ldb < nrhs) return LAPACKE_xerbla("LAPACKE_dpotrs_work", -8), -8;
  const std::vector<double> at = to_col(n, n, a, lda);
  std::vector<double> bt = to_col(n, nrhs, b, ldb);
  const fint ld = imax(1, n);
  dpotrs_(&uplo, &n, &nrhs, at.data(), &ld, bt.data(), &ld, &info, 1);
  from_col(n, nrhs, bt, b, ldb);
  return info;
}

fint LAPACKE_dposv(int layout, char uplo, fint n, fint nrhs, double *a, fint lda, double *b, fint ldb)
{
  if (layout != row_major && layout != col_major) return LAPACKE_xerbla("LAPACKE_dposv", -1), -1;
  if (has_nan_triangle(layout, uplo, n, a, lda)) return -5;
  if (has_nan(layout, n, nrhs, b, ldb)) return -7;
  fint info = 0;
  if (layout == col_major) return dposv_(&uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1), info;
  if (lda < n) return LAPACKE_xerbla("LAPACKE_dposv_work", -6), -6;
  if (ldb < nrhs) return LAPACKE_xerbla("LAPACKE_dposv_work", -8), -8;
  std::vector<double> at = to_col(n, n, a, lda), bt = to_col(n, nrhs, b, ldb);
  const fint ld = imax(1, n);
  dposv_(&uplo, &n, &nrhs, at.data(), &ld, bt.data(), &ld, &info, 1);
  from_col(n, n, at, a, lda);
  from_col(n, nrhs, bt, b, ldb);
  return info;
}

fint LAPACKE_dlaswp(int layout, fint n, double *a, fint lda, fint k1, fint k2, const fint *ipiv, fint incx)
{
  if (layout != row_major && layout != col_major) return LAPACKE_xerbla("LAPACKE_dlaswp", -1), -1;
  if (layout == col_major) return dlaswp_(&n, a, &lda, &k1, &k2, ipiv, &incx), 0;
  if (lda < n) return LAPACKE_xerbla("LAPACKE_dlaswp_work", -4), -4;
  // the rows the interchanges touch: k2 and every pivot used
  int64_t rows = k2;
  for (int64_t k = k1; k <= k2 && incx != 0; ++k) rows = std::max<int64_t>(rows, ipiv[(k - k1) * std::abs(incx) + k1 - 1]);
  std::vector<double> t = to_col(rows, n, a, lda);
  const fint ld = imax(1, (fint)rows);
  dlaswp_(&n, t.data(), &ld, &k1, &k2, ipiv, &incx);
  from_col(rows, n, t, a, lda);
  return 0;
}

} // extern "C"
