/// @file
/// exstar C++ API, Level 3 (gemm, trsm): a thin layer over level3.h; errors become exstar::error.
/// The exact definitions are the ones written in level3.h.
#ifndef EXSTAR_LEVEL3_HPP
#define EXSTAR_LEVEL3_HPP

#include <exstar/exstar.hpp>

namespace exstar {

/// C := RN(α·op(A)·op(B) + β·C) per entry, one rounding of the exact value (exstar_dgemm).
inline void gemm(char transa, char transb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                 const double *A, std::int64_t lda, const double *B, std::int64_t ldb, double beta, double *C,
                 std::int64_t ldc)
{
  check(exstar_dgemm(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
}

/// Column-major A, B, C in vectors with leading dimensions their row counts; C is m x n.
inline void gemm(char transa, char transb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
                 const std::vector<double> &A, const std::vector<double> &B, double beta, std::vector<double> &C)
{
  const bool ta = !(transa == 'N' || transa == 'n'), tb = !(transb == 'N' || transb == 'n');
  const std::int64_t ar = ta ? k : m, br = tb ? n : k;
  if ((std::int64_t)A.size() < m * k || (std::int64_t)B.size() < k * n || (std::int64_t)C.size() != m * n)
    throw error(EXSTAR_ERR_ARG, "exstar::gemm: A, B or C does not match m, n, k");
  gemm(transa, transb, m, n, k, alpha, A.data(), ar > 1 ? ar : 1, B.data(), br > 1 ? br : 1, beta, C.data(),
       m > 1 ? m : 1);
}

/// op(T)·X = α·B (side 'L') or X·op(T) = α·B (side 'R'); X overwrites B (exstar_dtrsm): every
/// column (row) of X is exstar_dtrsv's.
inline void trsm(char side, char uplo, char transa, char diag, std::int64_t m, std::int64_t n, double alpha,
                 const double *T, std::int64_t ldt, double *B, std::int64_t ldb)
{
  check(exstar_dtrsm(side, uplo, transa, diag, m, n, alpha, T, ldt, B, ldb));
}

/// T and B in vectors (column-major, leading dimensions their row counts); B is m x n.
inline void trsm(char side, char uplo, char transa, char diag, std::int64_t m, std::int64_t n, double alpha,
                 const std::vector<double> &T, std::vector<double> &B)
{
  const std::int64_t nt = (side == 'L' || side == 'l') ? m : n;
  if ((std::int64_t)T.size() < nt * nt || (std::int64_t)B.size() != m * n)
    throw error(EXSTAR_ERR_ARG, "exstar::trsm: T or B does not match m, n and side");
  trsm(side, uplo, transa, diag, m, n, alpha, T.data(), nt > 1 ? nt : 1, B.data(), m > 1 ? m : 1);
}

} // namespace exstar
#endif
