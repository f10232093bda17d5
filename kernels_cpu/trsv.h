/* exstar CPU kernels of trsv: the diagonal-block solve (and the residual of refinement) and
 * the refinement update. Plain functions on raw pointers, no StarPU inside; vectors follow
 * BLAS (n, x, offx, incx) as in kernels_cpu.h, the block of T is given by the offset t0 of
 * its element (0,0) in the column-major array t of leading dimension ldt. */
#ifndef EXSTAR_KERNELS_CPU_TRSV_H
#define EXSTAR_KERNELS_CPU_TRSV_H
#include <stdint.h>
#include "core/accumulator.h"
#include "core/trsv.h" /* exstar_trsv_shape */

#ifdef __cplusplus
extern "C" {
#endif

/* Solve (src == y, in place; y holds b on entry), for r in substitution order:
 *   y_r := RN(RN(acc_r + b_r - sum_{k solved before r} op(T)_rk y_k) / op(T)_rr)
 * (no division when unit). acc_r: accumulator r of accs (count nb), read only: it holds the
 * exact contribution of the other blocks of the row (already negated). */
void exstar_cpu_trsv_solve(const exstar_trsv_shape *s, const double *t, const exstar_i64 *accs,
                           double *y, int64_t offy, int64_t incy);
/* The same solve from bounded double-doubles instead of accumulators (the checked fast path,
 * core/checked_round.h): st holds nb exstar_bdd (4 doubles each: the fast sums of the other
 * blocks' terms of each row, already negated; NULL: none, zeros). A row whose rounding the
 * check declines is recomputed by the exact path from ALL its terms: w is the whole system
 * (w->nb = n unknowns, w->t0 its origin), the block's row r is the system's row i0 + r, and x
 * (offx, incx) holds the system's n unknowns (those solved before the block already solved).
 * Same bits as exstar_cpu_trsv_solve with exact accumulators. *declined (may be NULL): the
 * rows recomputed. */
void exstar_cpu_trsv_solve_state(const exstar_trsv_shape *s, const exstar_trsv_shape *w, int64_t i0,
                                 const double *t, const double *st, double *x, int64_t offx, int64_t incx,
                                 int64_t *declined);
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
