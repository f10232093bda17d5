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

/* The panel of block column K: for each column j of it, in order,
 *   l(j,j) := RN(sqrt(a(j,j) − Σ_{k<j} l(j,k)²))           (always from the exact value),
 *   l(i,j) := RN(RN(a(i,j) − Σ_{k<j} l(i,k)·l(j,k)) / l(j,j))  for i > j,
 * the sum rounded from the entry's state plus the panel's own terms when the bound proves it,
 * else from the exact sum of all its terms. Needs the tiles (I >= K, K) and their states, the
 * column copies lc[0..K-1] (block column L of the factors, rows [L nb, n), row r at r − L nb),
 * and writes lc[K]. fail[j − K nb] := 1 where l(j,j) is not a positive number (the exact value
 * under the root is <= 0 or NaN, or its root rounds to zero), else 0. Only the lower triangle of
 * the diagonal tile is written. Returns the number of entries computed by the exact path. */
int64_t exstar_cpu_potrf_panel(const struct exstar_tile_view *v, int64_t K, int32_t *fail, int exact_only);

#ifdef __cplusplus
}
#endif
#endif
