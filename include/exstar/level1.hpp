/// @file
/// exstar C++ API, Level 1: thin wrappers over level1.h (definitions there); errors become
/// exstar::error. Meant to be included at the END of exstar.hpp (it uses exstar::check).
#ifndef EXSTAR_LEVEL1_HPP
#define EXSTAR_LEVEL1_HPP

#include <exstar/exstar.hpp>
#include <cstdint>
#include <vector>

namespace exstar {

/// x_i := RN(alpha·x_i).
inline void scal(std::int64_t n, double alpha, double *x, std::int64_t incx = 1)
{
  check(exstar_dscal(n, alpha, x, incx));
}
/// The same on a whole std::vector (stride 1).
inline void scal(double alpha, std::vector<double> &x) { scal((std::int64_t)x.size(), alpha, x.data()); }

/// x_i := RN(x_i / alpha), one division.
inline void invscal(std::int64_t n, double alpha, double *x, std::int64_t incx = 1)
{
  check(exstar_dinvscal(n, alpha, x, incx));
}
/// The same on a whole std::vector (stride 1).
inline void invscal(double alpha, std::vector<double> &x) { invscal((std::int64_t)x.size(), alpha, x.data()); }

/// y_i := RN(alpha·x_i + y_i), one rounding.
inline void axpy(std::int64_t n, double alpha, const double *x, std::int64_t incx, double *y, std::int64_t incy)
{
  check(exstar_daxpy(n, alpha, x, incx, y, incy));
}
/// The same on two whole std::vectors of equal length (stride 1).
inline void axpy(double alpha, const std::vector<double> &x, std::vector<double> &y)
{
  if (x.size() != y.size()) throw error(EXSTAR_ERR_ARG, "exstar::axpy: x and y differ in length");
  axpy((std::int64_t)x.size(), alpha, x.data(), 1, y.data(), 1);
}

/// x_i <-> y_i.
inline void swap(std::int64_t n, double *x, std::int64_t incx, double *y, std::int64_t incy)
{
  check(exstar_dswap(n, x, incx, y, incy));
}
/// The same on two whole std::vectors of equal length (stride 1).
inline void swap(std::vector<double> &x, std::vector<double> &y)
{
  if (x.size() != y.size()) throw error(EXSTAR_ERR_ARG, "exstar::swap: x and y differ in length");
  swap((std::int64_t)x.size(), x.data(), 1, y.data(), 1);
}

/// LAPACK dlaswp (1-based k1, k2 and int32 ipiv).
inline void laswp(std::int64_t n, double *A, std::int64_t lda, std::int64_t k1, std::int64_t k2,
                  const std::int32_t *ipiv, std::int64_t incx = 1)
{
  check(exstar_dlaswp(n, A, lda, k1, k2, ipiv, incx));
}

/// Smallest 0-based index of the largest |x_i| (first NaN wins); -1 when n == 0.
inline std::int64_t iamax(std::int64_t n, const double *x, std::int64_t incx = 1)
{
  std::int64_t i;
  check(exstar_idamax(n, x, incx, &i));
  return i;
}
/// The same on a whole std::vector (stride 1).
inline std::int64_t iamax(const std::vector<double> &x) { return iamax((std::int64_t)x.size(), x.data()); }

} // namespace exstar
#endif
