/// @file
/// exstar C++ API for trsv and refined trsv (definitions in exstar/level2.h). Errors, including
/// a zero diagonal (EXSTAR_ERR_SINGULAR, message naming the index), become exstar::error.
#ifndef EXSTAR_TRSV_HPP
#define EXSTAR_TRSV_HPP
#include <exstar/exstar.hpp>

namespace exstar {

/// x := op(T)^-1 x by exact substitution (exstar_dtrsv); x holds b on entry.
inline void trsv(char uplo, char trans, char diag, std::int64_t n, const double *T, std::int64_t ldt, double *x,
                 std::int64_t incx = 1)
{
  std::int64_t info = 0;
  check(exstar_dtrsv(uplo, trans, diag, n, T, ldt, x, incx, &info));
}

/// trsv followed by `steps` steps of exact-residual refinement (exstar_dtrsv_refined).
inline void trsv_refined(char uplo, char trans, char diag, std::int64_t n, const double *T, std::int64_t ldt,
                         double *x, std::int64_t incx = 1, int steps = 2)
{
  std::int64_t info = 0;
  check(exstar_dtrsv_refined(uplo, trans, diag, n, T, ldt, x, incx, steps, &info));
}

/// Task form on StarPU handles (exstar_dtrsv_insert; only submitted, the caller waits on x).
inline void trsv_insert(char uplo, char trans, char diag, std::int64_t n, starpu_data_handle_t T, std::int64_t it,
                        std::int64_t jt, starpu_data_handle_t x, std::int64_t offx, std::int64_t incx,
                        std::int64_t nb = 0)
{
  check(exstar_dtrsv_insert(uplo, trans, diag, n, T, it, jt, x, offx, incx, nb));
}
/// Task form of trsv_refined (exstar_dtrsv_refined_insert; only submitted, the caller waits on x).
inline void trsv_refined_insert(char uplo, char trans, char diag, std::int64_t n, starpu_data_handle_t T,
                                std::int64_t it, std::int64_t jt, starpu_data_handle_t x, std::int64_t offx,
                                std::int64_t incx, int steps, std::int64_t nb = 0)
{
  check(exstar_dtrsv_refined_insert(uplo, trans, diag, n, T, it, jt, x, offx, incx, steps, nb));
}

} // namespace exstar
#endif
