/* exstar CPU kernels of Level 1 (scal, invscal, axpy, swap, laswp, iamax): plain functions on
 * raw pointers, no StarPU inside. Vectors follow BLAS (n, x, offx, incx), element i at
 * x[exstar_first_index(n, offx, incx) + i*incx]. Each element is ONE IEEE operation, so the
 * bits are those of every other back end (the build forbids contraction and flush-to-zero). */
#ifndef EXSTAR_KERNELS_CPU_LEVEL1_H
#define EXSTAR_KERNELS_CPU_LEVEL1_H
#include <stdint.h>
#include "core/iamax.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x_i := RN(alpha * x_i). */
void exstar_cpu_scal(int64_t n, double alpha, double *x, int64_t offx, int64_t incx);
/* x_i := RN(x_i / alpha), one division. */
void exstar_cpu_invscal(int64_t n, double alpha, double *x, int64_t offx, int64_t incx);
/* y_i := RN(alpha * x_i + y_i), one rounding (fma). */
void exstar_cpu_axpy(int64_t n, double alpha, const double *x, int64_t offx, int64_t incx, double *y,
                     int64_t offy, int64_t incy);
/* x_i <-> y_i. */
void exstar_cpu_swap(int64_t n, double *x, int64_t offx, int64_t incx, double *y, int64_t offy,
                     int64_t incy);
/* LAPACK dlaswp on the column-major matrix a (element (r, c), 0-based, at a[offa + r + c*lda]),
 * columns [0, n): for k = k1..k2 (1-based; incx < 0: k2 down to k1) swap rows k and ipiv[ix]
 * (1-based), ix running as LAPACK's IX. ipiv[offipiv + ix - 1] is LAPACK's IPIV(IX). Rows outside
 * [1, nrows] are skipped (callers check them first when they can). */
void exstar_cpu_laswp(int64_t n, double *a, int64_t offa, int64_t lda, int64_t nrows, int64_t k1,
                      int64_t k2, const int32_t *ipiv, int64_t offipiv, int64_t incx);
/* state (EXSTAR_IAMAX_WORDS words) := the winner of state and every (key(x_i), base + i). */
void exstar_cpu_iamax(int64_t n, const double *x, int64_t offx, int64_t incx, int64_t base,
                      exstar_i64 *state);
void exstar_cpu_iamax_init(exstar_i64 *state);                       /* the empty pair */
void exstar_cpu_iamax_merge(exstar_i64 *dst, const exstar_i64 *src); /* dst := winner */

#ifdef __cplusplus
}
#endif
#endif
