/* exstar CPU kernel of the tiled exact Cholesky factorization (runtime/potrf.cpp): a plain
 * function on the view of the tiles a task was given (kernels_cpu/lu_tiled.h), no StarPU inside.
 * The lower triangle of the n x n matrix is factored, A = L·Lᵀ, entry by entry as the definition
 * in include/exstar/lapack.h says. */
#ifndef EXSTAR_KERNELS_CPU_POTRF_TILED_H
#define EXSTAR_KERNELS_CPU_POTRF_TILED_H
#include "kernels_cpu/lu_tiled.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Block column K of L, rows of the tiles [I0, I1) (I0 >= K): for each column j of the panel, in
 * order,
 *   l(j,j) := RN(sqrt(a(j,j) − Σ_{k<j} l(j,k)²))           (I0 == K: always the exact value's root)
 *   l(i,j) := RN(RN(a(i,j) − Σ_{k<j} l(i,k)·l(j,k)) / l(j,j))  for i > j in those rows,
 * the sum rounded from the entry's state plus the panel's own terms when the bound proves it,
 * else from the exact sum of all its terms. I0 > K: the diagonal tile (K, K) is already final
 * and only read (the rows below it are independent of each other: tasks of row tiles run
 * concurrently). Needs the tiles (I, K) for I in [I0, I1) and (K, K), the states of those tiles
 * (a state per tile or per block column), and L left of the panel for the exact path: the column
 * copies lc[0..K-1] (rows [L nb, n) of block column L, row r at r − L nb) when the view has them,
 * else the tiles (I, 0..K-1) and (K, 0..K-1). With I0 == K: fail[j − K nb] := 1 where l(j,j) is
 * not a positive number (the exact value under the root is <= 0 or NaN, or its root rounds to
 * zero), 2 where it is +inf, else 0, and lc[K] is written when the view has it. (With no 1 in
 * any panel, L holds NaN or ±inf exactly when some flag is 2: a nonfinite l(i,j), i > j, puts
 * −inf or NaN under the root of row i.) Only the lower triangle of the
 * diagonal tile is written. Returns the number of entries computed by the exact path. */
int64_t exstar_cpu_potrf_panel(const struct exstar_tile_view *v, int64_t K, int64_t I0, int64_t I1, int32_t *fail,
                               int exact_only);

/* The plain-double baseline on the same tiles (kernels_cpu/potrf_plain_tiled.cpp, when the build
 * found LAPACK: EXSTAR_HAVE_LAPACK): LAPACK dpotrf on the diagonal tile (I == K; fail[j] := 1 from
 * the first column it failed on), dtrsm for tile (I, K) below it; C −= A·Bᵀ by dgemm, or by
 * dsyrk on C's lower triangle when diagonal. NOT exact. */
void exstar_cpu_potrf_plain_panel(const struct exstar_tile_view *v, int64_t K, int64_t I, int32_t *fail);
void exstar_cpu_potrf_plain_update(int64_t m, int64_t n, int64_t k, const double *A, int64_t lda, const double *B,
                                   int64_t ldb, double *C, int64_t ldc, int diagonal);

#ifdef __cplusplus
}
#endif
#endif
