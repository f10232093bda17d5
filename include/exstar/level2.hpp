/// @file
/// exstar C++ API, Level 2 (gemv): a thin layer over level2.h; errors become exstar::error.
/// The exact definitions are the ones written in level2.h.
#ifndef EXSTAR_LEVEL2_HPP
#define EXSTAR_LEVEL2_HPP

#include <exstar/exstar.hpp>

namespace exstar {

/// y := RN(α·op(A)·x + β·y) per entry, one rounding of the exact value (exstar_dgemv).
inline void gemv(char trans, std::int64_t m, std::int64_t n, double alpha, const double *A, std::int64_t lda,
                 const double *x, std::int64_t incx, double beta, double *y, std::int64_t incy)
{
  check(exstar_dgemv(trans, m, n, alpha, A, lda, x, incx, beta, y, incy));
}

/// Column-major A (m x n, lda = m) held in a vector; x and y contiguous and sized to op(A).
inline void gemv(char trans, std::int64_t m, std::int64_t n, double alpha, const std::vector<double> &A,
                 const std::vector<double> &x, double beta, std::vector<double> &y)
{
  const bool notrans = trans == 'N' || trans == 'n';
  const std::int64_t lenx = notrans ? n : m, leny = notrans ? m : n;
  if ((std::int64_t)A.size() < m * n || (std::int64_t)x.size() != lenx || (std::int64_t)y.size() != leny)
    throw error(EXSTAR_ERR_ARG, "exstar::gemv: A, x or y does not match m, n and trans");
  gemv(trans, m, n, alpha, A.data(), m > 1 ? m : 1, x.data(), 1, beta, y.data(), 1);
}

} // namespace exstar
#endif
