/// @file
/// exstar C++ API, LAPACK-style drivers (getrf, getrs, gesv, batches; potrf, potrs, posv): a thin layer over
/// lapack.h, whose definitions apply. Errors become exstar::error; a singular matrix (info > 0)
/// and non-finite factors are results, not errors: they come back in lu_status.
#ifndef EXSTAR_LAPACK_HPP
#define EXSTAR_LAPACK_HPP

#include <exstar/exstar.hpp>

namespace exstar {

/// What a factorization met: info (0, or j+1 for the first zero u(j,j)) and whether L and U
/// hold NaN or ±inf.
struct lu_status {
  std::int64_t info = 0;   ///< 0, or j+1 for the first zero u(j,j)
  bool nonfinite = false;  ///< L or U holds NaN or ±inf
  /// Neither singular nor non-finite.
  bool ok() const { return info == 0 && !nonfinite; }
};

namespace detail {
// Throws for real errors; singular / non-finite are recorded in st.
inline lu_status lu_check(int status, std::int64_t info)
{
  lu_status st;
  st.info = info;
  st.nonfinite = status == EXSTAR_ERR_NONFINITE;
  if (status != EXSTAR_ERR_SINGULAR && status != EXSTAR_ERR_NONFINITE) check(status);
  return st;
}
} // namespace detail

/// LU with partial pivoting, exact left-looking definition (exstar_dgetrf); ipiv: min(m,n) entries.
inline lu_status getrf(std::int64_t m, std::int64_t n, double *A, std::int64_t lda, std::int32_t *ipiv)
{
  std::int64_t info = 0;
  int s = exstar_dgetrf(m, n, A, lda, ipiv, &info);
  return detail::lu_check(s, info);
}
/// A column-major n x n (lda = n) held in a vector; ipiv resized to n.
inline lu_status getrf(std::int64_t n, std::vector<double> &A, std::vector<std::int32_t> &ipiv)
{
  if ((std::int64_t)A.size() < n * n) throw error(EXSTAR_ERR_ARG, "exstar::getrf: A has fewer than n*n entries");
  ipiv.resize((std::size_t)n);
  return getrf(n, n, A.data(), n > 1 ? n : 1, ipiv.data());
}
/// The plain-double baseline (exstar_dgetrf_plain: not exact, not reproducible).
inline lu_status getrf_plain(std::int64_t m, std::int64_t n, double *A, std::int64_t lda, std::int32_t *ipiv)
{
  std::int64_t info = 0;
  int s = exstar_dgetrf_plain(m, n, A, lda, ipiv, &info);
  return detail::lu_check(s, info);
}

/// Task form on StarPU handles (exstar_dgetrf_insert); returns after submission.
inline void getrf_insert(std::int64_t m, std::int64_t n, starpu_data_handle_t A, starpu_data_handle_t ipiv,
                         std::int64_t nb = 0)
{
  check(exstar_dgetrf_insert(m, n, A, ipiv, nb));
}

/// op(A)·X = B with the factors of getrf (exstar_dgetrs).
inline void getrs(char trans, std::int64_t n, std::int64_t nrhs, const double *LU, std::int64_t lda,
                  const std::int32_t *ipiv, double *B, std::int64_t ldb)
{
  check(exstar_dgetrs(trans, n, nrhs, LU, lda, ipiv, B, ldb));
}

/// A·X = B: getrf, getrs and refine_steps steps of iterative refinement (exstar_dgesv).
inline lu_status gesv(std::int64_t n, std::int64_t nrhs, double *A, std::int64_t lda, std::int32_t *ipiv, double *B,
                      std::int64_t ldb, int refine_steps = 0)
{
  std::int64_t info = 0;
  int s = exstar_dgesv(n, nrhs, A, lda, ipiv, B, ldb, refine_steps, &info);
  return detail::lu_check(s, info);
}
/// One right-hand side b (solution returned in b); A (n x n, lda = n) is overwritten by its factors.
inline lu_status gesv(std::int64_t n, std::vector<double> &A, std::vector<double> &b, int refine_steps = 0)
{
  if ((std::int64_t)A.size() < n * n || (std::int64_t)b.size() != n)
    throw error(EXSTAR_ERR_ARG, "exstar::gesv: A or b does not match n");
  std::vector<std::int32_t> ipiv((std::size_t)(n > 0 ? n : 1));
  return gesv(n, 1, A.data(), n > 1 ? n : 1, ipiv.data(), b.data(), n > 1 ? n : 1, refine_steps);
}

/// A batch of independent m x n factorizations, all submitted before any wait (exstar_dgetrf_batch).
inline std::vector<lu_status> getrf_batch(std::int64_t m, std::int64_t n, std::vector<double *> &A, std::int64_t lda,
                                          std::vector<std::int32_t *> &ipiv)
{
  if (A.size() != ipiv.size()) throw error(EXSTAR_ERR_ARG, "exstar::getrf_batch: A and ipiv differ in count");
  std::vector<std::int64_t> info(A.size());
  int s = exstar_dgetrf_batch((std::int64_t)A.size(), m, n, A.data(), lda, ipiv.data(), info.data());
  detail::lu_check(s, 0);
  std::vector<lu_status> out(A.size());
  for (std::size_t b = 0; b < A.size(); ++b) {
    out[b].info = info[b];
    for (std::int64_t j = 0; j < n && !out[b].nonfinite; ++j)
      for (std::int64_t i = 0; i < m; ++i)
        if (!(A[b][i + j * lda] - A[b][i + j * lda] == 0.0)) out[b].nonfinite = true; // NaN or inf
  }
  return out;
}

/// What a Cholesky factorization met: info (0, or j+1 for the first column whose exact value
/// under the root is <= 0, NaN, or so small its root rounds to zero) and whether the factor
/// holds NaN or ±inf.
struct chol_status {
  std::int64_t info = 0;   ///< 0: positive definite by the exact test; else the 1-based column
  bool nonfinite = false;  ///< the factor holds NaN or ±inf (info == 0)
  /// Positive definite and finite.
  bool ok() const { return info == 0 && !nonfinite; }
};

namespace detail {
// Throws for real errors; not positive definite / non-finite are recorded in st.
inline chol_status chol_check(int status, std::int64_t info)
{
  chol_status st;
  st.info = status == EXSTAR_ERR_NOT_POSDEF ? info : 0;
  st.nonfinite = status == EXSTAR_ERR_NONFINITE;
  if (status != EXSTAR_ERR_NOT_POSDEF && status != EXSTAR_ERR_NONFINITE) check(status);
  return st;
}
} // namespace detail

/// Cholesky factorization of the uplo triangle, exact definition (exstar_dpotrf).
inline chol_status potrf(char uplo, std::int64_t n, double *A, std::int64_t lda)
{
  std::int64_t info = 0;
  const int s = exstar_dpotrf(uplo, n, A, lda, &info); // before info is read
  return detail::chol_check(s, info);
}
/// A·X = B with the factor of potrf (exstar_dpotrs).
inline void potrs(char uplo, std::int64_t n, std::int64_t nrhs, const double *A, std::int64_t lda, double *B,
                  std::int64_t ldb)
{
  check(exstar_dpotrs(uplo, n, nrhs, A, lda, B, ldb));
}
/// A·X = B for symmetric positive definite A: potrf, potrs and refine_steps steps of refinement
/// (exstar_dposv); B is unchanged when info > 0.
inline chol_status posv(char uplo, std::int64_t n, std::int64_t nrhs, double *A, std::int64_t lda, double *B,
                        std::int64_t ldb, int refine_steps = 0)
{
  std::int64_t info = 0;
  const int s = exstar_dposv(uplo, n, nrhs, A, lda, B, ldb, refine_steps, &info); // before info is read
  return detail::chol_check(s, info);
}

} // namespace exstar
#endif
