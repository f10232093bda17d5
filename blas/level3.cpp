// libexstar_blas, Level 3: the Fortran symbols. dgemm and dtrsm are exstar's; dsymm, dsyrk,
// dsyr2k and dtrmm are exstar's gemm on the entries their definitions sum (exstar_blas.h).
// Argument checks (xerbla_ parameter numbers) and quick returns are the reference BLAS's.
#include "blas/internal.h"
#include <algorithm>

using namespace exstar_blas;

namespace {

char tr(char t) { return lsame(t, 'N') ? 'N' : 'T'; }

// The argument checks of dtrsm and dtrmm (xerbla_'s parameter numbers).
fint tri_info(char side, char uplo, char transa, char diag, fint m, fint n, fint lda, fint ldb)
{
  const bool left = lsame(side, 'L');
  if (!left && !lsame(side, 'R')) return 1;
  if (bad_uplo(uplo)) return 2;
  if (bad_trans(transa)) return 3;
  if (bad_diag(diag)) return 4;
  if (m < 0) return 5;
  if (n < 0) return 6;
  if (lda < imax(1, left ? m : n)) return 9;
  return ldb < imax(1, m) ? 11 : 0;
}

// Column j of C's stored triangle: rows [r0, r1).
void tri_rows(bool up, int64_t n, int64_t j, int64_t *r0, int64_t *r1)
{
  *r0 = up ? 0 : j, *r1 = up ? j + 1 : n;
}

} // namespace

extern "C" {

void dgemm_(const char *transa, const char *transb, const fint *m, const fint *n, const fint *k, const double *alpha,
            const double *A, const fint *lda, const double *B, const fint *ldb, const double *beta, double *C,
            const fint *ldc, size_t, size_t)
{
  const bool na = lsame(*transa, 'N'), nb = lsame(*transb, 'N');
  const fint nrowa = na ? *m : *k, nrowb = nb ? *k : *n;
  fint info = 0;
  if (bad_trans(*transa)) info = 1;
  else if (bad_trans(*transb)) info = 2;
  else if (*m < 0) info = 3;
  else if (*n < 0) info = 4;
  else if (*k < 0) info = 5;
  else if (*lda < imax(1, nrowa)) info = 8;
  else if (*ldb < imax(1, nrowb)) info = 10;
  else if (*ldc < imax(1, *m)) info = 13;
  if (info) return error("DGEMM", info);
  if (*m == 0 || *n == 0 || ((*alpha == 0.0 || *k == 0) && *beta == 1.0)) return;
  if (*alpha == 0.0) return scale_mat(*m, *n, *beta, C, *ldc); // A and B not read (reference)
  gemm(tr(*transa), tr(*transb), *m, *n, *k, *alpha, A, *lda, B, *ldb, *beta, C, *ldc);
}

void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const fint *m, const fint *n,
            const double *alpha, const double *A, const fint *lda, double *B, const fint *ldb, size_t, size_t, size_t,
            size_t)
{
  const bool left = lsame(*side, 'L');
  const fint nrowa = left ? *m : *n;
  const fint info = tri_info(*side, *uplo, *transa, *diag, *m, *n, *lda, *ldb);
  if (info) return error("DTRSM", info);
  if (*m == 0 || *n == 0) return;
  if (*alpha == 0.0) return scale_mat(*m, *n, 0.0, B, *ldb);
  const char s = upper(*side), u = upper(*uplo), t = tr(*transa), d = upper(*diag);
  if (!small((double)nrowa * nrowa * (left ? *n : *m)) && ready() == 0 &&
      exstar_dtrsm(s, u, t, d, *m, *n, *alpha, A, *lda, B, *ldb) == EXSTAR_SUCCESS)
    return;
  // small, or a zero diagonal (exstar refuses; the reference divides by it): the same kernel here
  exstar_cpu_dtrsm(s, u, t, d, *m, *n, *alpha, A, 0, *lda, B, 0, *ldb, 0);
}

void dsymm_(const char *side, const char *uplo, const fint *m, const fint *n, const double *alpha, const double *A,
            const fint *lda, const double *B, const fint *ldb, const double *beta, double *C, const fint *ldc, size_t,
            size_t)
{
  const bool left = lsame(*side, 'L');
  const fint nrowa = left ? *m : *n;
  fint info = 0;
  if (!left && !lsame(*side, 'R')) info = 1;
  else if (bad_uplo(*uplo)) info = 2;
  else if (*m < 0) info = 3;
  else if (*n < 0) info = 4;
  else if (*lda < imax(1, nrowa)) info = 7;
  else if (*ldb < imax(1, *m)) info = 9;
  else if (*ldc < imax(1, *m)) info = 12;
  if (info) return error("DSYMM", info);
  if (*m == 0 || *n == 0 || (*alpha == 0.0 && *beta == 1.0)) return;
  if (*alpha == 0.0) return scale_mat(*m, *n, *beta, C, *ldc);
  // the full symmetric matrix from the stored triangle, then exstar's gemm
  const int64_t na = nrowa, ld = *lda;
  const bool up = lsame(*uplo, 'U');
  std::vector<double> f((size_t)(na * na));
  for (int64_t j = 0; j < na; ++j)
    for (int64_t i = 0; i < na; ++i) f[(size_t)(i + j * na)] = (up ? i <= j : i >= j) ? A[i + j * ld] : A[j + i * ld];
  if (left) gemm('N', 'N', *m, *n, *m, *alpha, f.data(), na, B, *ldb, *beta, C, *ldc);
  else gemm('N', 'N', *m, *n, *n, *alpha, B, *ldb, f.data(), na, *beta, C, *ldc);
}

void dsyrk_(const char *uplo, const char *trans, const fint *n, const fint *k, const double *alpha, const double *A,
            const fint *lda, const double *beta, double *C, const fint *ldc, size_t, size_t)
{
  const bool nt = lsame(*trans, 'N');
  const fint nrowa = nt ? *n : *k;
  fint info = 0;
  if (bad_uplo(*uplo)) info = 1;
  else if (bad_trans(*trans)) info = 2;
  else if (*n < 0) info = 3;
  else if (*k < 0) info = 4;
  else if (*lda < imax(1, nrowa)) info = 7;
  else if (*ldc < imax(1, *n)) info = 10;
  if (info) return error("DSYRK", info);
  const bool up = lsame(*uplo, 'U');
  if (*n == 0 || ((*alpha == 0.0 || *k == 0) && *beta == 1.0)) return;
  if (*alpha == 0.0) return scale_tri(up, *n, *beta, C, *ldc);
  const int64_t ld = *lda, lc = *ldc;
  for (int64_t j = 0; j < *n; ++j) { // column j of the triangle: rows i, Σ_l α·op(A)_il·op(A)_jl
    int64_t r0, r1;
    tri_rows(up, *n, j, &r0, &r1);
    if (nt) gemm('N', 'T', r1 - r0, 1, *k, *alpha, A + r0, ld, A + j, ld, *beta, C + r0 + j * lc, lc);
    else gemm('T', 'N', r1 - r0, 1, *k, *alpha, A + r0 * ld, ld, A + j * ld, ld, *beta, C + r0 + j * lc, lc);
  }
}

void dsyr2k_(const char *uplo, const char *trans, const fint *n, const fint *k, const double *alpha, const double *A,
             const fint *lda, const double *B, const fint *ldb, const double *beta, double *C, const fint *ldc, size_t,
             size_t)
{
  const bool nt = lsame(*trans, 'N');
  const fint nrowa = nt ? *n : *k;
  fint info = 0;
  if (bad_uplo(*uplo)) info = 1;
  else if (bad_trans(*trans)) info = 2;
  else if (*n < 0) info = 3;
  else if (*k < 0) info = 4;
  else if (*lda < imax(1, nrowa)) info = 7;
  else if (*ldb < imax(1, nrowa)) info = 9;
  else if (*ldc < imax(1, *n)) info = 12;
  if (info) return error("DSYR2K", info);
  const bool up = lsame(*uplo, 'U');
  if (*n == 0 || ((*alpha == 0.0 || *k == 0) && *beta == 1.0)) return;
  if (*alpha == 0.0) return scale_tri(up, *n, *beta, C, *ldc);
  // P = [op(A) | op(B)] and Q = [op(B) | op(A)], n x 2k: c_ij gets Σ_l α·P_il·Q_jl
  const int64_t N = *n, K = *k, la = *lda, lb = *ldb, lc = *ldc;
  std::vector<double> P((size_t)(N * 2 * K)), Q((size_t)(N * 2 * K));
  for (int64_t l = 0; l < K; ++l)
    for (int64_t i = 0; i < N; ++i) {
      const double a = nt ? A[i + l * la] : A[l + i * la], b = nt ? B[i + l * lb] : B[l + i * lb];
      P[(size_t)(i + l * N)] = a, P[(size_t)(i + (K + l) * N)] = b;
      Q[(size_t)(i + l * N)] = b, Q[(size_t)(i + (K + l) * N)] = a;
    }
  for (int64_t j = 0; j < N; ++j) {
    int64_t r0, r1;
    tri_rows(up, N, j, &r0, &r1);
    gemm('N', 'T', r1 - r0, 1, 2 * K, *alpha, P.data() + r0, N, Q.data() + j, N, *beta, C + r0 + j * lc, lc);
  }
}

// dtrmm: each entry one rounding of Σ over the triangle (exstar_blas.h), row by row (side L) or
// column by column (side R) through exstar's gemm into a copy, then copied back into B.
void dtrmm_(const char *side, const char *uplo, const char *transa, const char *diag, const fint *m, const fint *n,
            const double *alpha, const double *A, const fint *lda, double *B, const fint *ldb, size_t, size_t, size_t,
            size_t)
{
  const bool left = lsame(*side, 'L');
  const fint info = tri_info(*side, *uplo, *transa, *diag, *m, *n, *lda, *ldb);
  if (info) return error("DTRMM", info);
  if (*m == 0 || *n == 0) return;
  if (*alpha == 0.0) return scale_mat(*m, *n, 0.0, B, *ldb);
  const int64_t M = *m, N = *n, la = *lda, lb = *ldb;
  const bool nt = lsame(*transa, 'N'), unit = lsame(*diag, 'U');
  const bool lower = lsame(*uplo, 'L') == nt; // op(A) lower
  const double beta = unit ? *alpha : 0.0;    // the unit diagonal's term α·b as gemm's β·c
  std::vector<double> R((size_t)(M * N));     // the result, ld M
  if (left) {
    for (int64_t i = 0; i < M; ++i) { // row i: Σ_l α·op(A)_il·b_lj, l in the triangle of row i
      int64_t l0 = lower ? 0 : i, l1 = lower ? i + 1 : M;
      if (unit) lower ? --l1 : ++l0;
      for (int64_t j = 0; j < N; ++j) R[(size_t)(i + j * M)] = B[i + j * lb];
      const double *a = nt ? A + i + l0 * la : A + l0 + i * la; // op(A)(i, l0)
      gemm(nt ? 'N' : 'T', 'N', 1, N, l1 - l0, *alpha, a, la, B + l0, lb, beta, R.data() + i, M);
    }
  } else {
    for (int64_t j = 0; j < N; ++j) { // column j: Σ_l α·b_il·op(A)_lj, l in the triangle of column j
      int64_t l0 = lower ? j : 0, l1 = lower ? N : j + 1;
      if (unit) lower ? ++l0 : --l1;
      for (int64_t i = 0; i < M; ++i) R[(size_t)(i + j * M)] = B[i + j * lb];
      const double *a = nt ? A + l0 + j * la : A + j + l0 * la; // op(A)(l0, j)
      gemm('N', nt ? 'N' : 'T', M, 1, l1 - l0, *alpha, B + l0 * lb, lb, a, la, beta, R.data() + j * M, M);
    }
  }
  for (int64_t j = 0; j < N; ++j)
    for (int64_t i = 0; i < M; ++i) B[i + j * lb] = R[(size_t)(i + j * M)];
}

} // extern "C"
