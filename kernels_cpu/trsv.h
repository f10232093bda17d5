/* exstar CPU kernels of trsv: the diagonal-block solve (and the residual of refinement) and
 * the refinement update. Plain functions on raw pointers, no StarPU inside; vectors follow
 * BLAS (n, x, offx, incx) as in kernels_cpu.h, the block of T is given by the offset t0 of
 * its element (0,0) in the column-major array t of leading dimension ldt. */
#ifndef EXSTAR_KERNELS_CPU_TRSV_H
#define EXSTAR_KERNELS_CPU_TRSV_H
#include <stdint.h>
#include "core/accumulator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shape of a diagonal block of op(T) (op(T) = T, or T^T when trans). forward: rows are
 * solved from first to last (a lower op(T)); otherwise from last to first. */
typedef struct exstar_trsv_shape {
  int forward, trans, unit;
  int64_t nb;              /* rows (and columns) of the block */
  int64_t t0, ldt;         /* element (0,0) of the block and leading dimension of T */
} exstar_trsv_shape;

/* Solve (src == y, in place; y holds b on entry), for r in substitution order:
 *   y_r := RN(RN(acc_r + b_r - sum_{k solved before r} op(T)_rk y_k) / op(T)_rr)
 * (no division when unit). acc_r: accumulator r of accs (count nb), read only: it holds the
 * exact contribution of the other blocks of the row (already negated). */
void exstar_cpu_trsv_solve(const exstar_trsv_shape *s, const double *t, const exstar_i64 *accs,
                           double *y, int64_t offy, int64_t incy);
/* Residual of refinement, every row independently:
 *   r_i := RN(acc_i + b_i - sum_{k in the block's triangle, diagonal included} op(T)_ik x_k)
 * (the unit diagonal's term is x_i). */
void exstar_cpu_trsv_resid(const exstar_trsv_shape *s, const double *t, const exstar_i64 *accs,
                           const double *x, int64_t offx, int64_t incx, const double *b,
                           int64_t offb, int64_t incb, double *r, int64_t offr, int64_t incr);
/* Refinement update: x_i := RN(x_i + d_i) (add), or the copy x_i := d_i (!add). */
void exstar_cpu_trsv_update(int64_t n, int add, const double *d, int64_t offd, int64_t incd,
                            double *x, int64_t offx, int64_t incx);

#ifdef __cplusplus
}
#endif
#endif
