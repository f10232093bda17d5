/* exstar CPU kernels of the tiled exact LU (runtime/getrf_tiled.cpp): plain functions on a view
 * of the tiles a task was given, no StarPU inside.
 *
 * The matrix (m x n, column-major tiles of nb x nb, tile (I, J) covering rows [I nb, ..) and
 * columns [J nb, ..)) is seen through exstar_tile_view: a pointer and a leading dimension per
 * tile, NULL for the tiles the task was not given (a kernel touches only what it was given).
 * st: the GEMM-accumulate state of each tile (exstar_gemm_state_entry, core/gemm.h), holding
 * a(i,j) − Σ l(i,k)·u(k,j) over the panels already applied, within its bound.
 *
 * Every entry of L and U is the definition's value (include/exstar/lapack.h): the state's
 * bounded sum plus the panel's own terms, when the bound proves its rounding; otherwise the
 * exact sum of all its terms, read from the tiles (the row of L, the column of U, the original
 * a(i,j), which every tile keeps until its entry is final). */
#ifndef EXSTAR_KERNELS_CPU_LU_TILED_H
#define EXSTAR_KERNELS_CPU_LU_TILED_H
#include <stdint.h>
#include "kernels_cpu/gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

struct exstar_tile_view {
  int64_t m, n, nb, mt, nt;            /* matrix, tile edge, tile grid (mt x nt) */
  double *const *a;                    /* tile (I, J) at a[I + J*mt] (NULL: not given) */
  const int64_t *lda;                  /* its leading dimension */
  struct exstar_gemm_state_entry *const *st; /* its state (NULL: not given) */
  const int64_t *ldst;
  /* The column copies of L (NULL: none; then L left of a panel is read from the tiles, which
   * must hold it in the current row order). lc[K]: block column K of the factors as panel K
   * left it, rows [K nb, m) in the order after panel K's interchanges, never interchanged again
   * (leading dimension ldlc[K]); perm[K]: 2m int32, the row order after panel K: perm[K][r] is
   * the original row at position r, perm[K][m + o] the position of original row o. A row's
   * entries of L left of a panel are found through them. Arrays of nt entries, NULL where not
   * given. */
  double *const *lc;
  const int64_t *ldlc;
  int32_t *const *perm;
};

/* The panel of block column K: for each column j of it, in order, u(i,j) for the rows of block
 * row K above j, v(i) for the rows i >= j, the pivot, the interchange within the panel's tiles
 * and states (the columns left of the panel are NOT interchanged here: exstar_cpu_lu_laswp does
 * that afterwards; the panel reads them through its own record of the interchanges), l(i,j).
 * Needs the panel tiles and states (I >= K, K) and the tiles above it (I < K, K); L left of it
 * from the column copies lc[0..K-1] through perm[0..K-1] when the view has them, else from the
 * tiles (I >= K, J < K). With lc[K] / perm[K] given it writes them (the column as it leaves
 * the panel, the row order after it). ipiv[j - K nb] := p + 1 (global 1-based row). *info :=
 * the first j+1 whose pivot is zero (0: none). Returns the number of entries computed by the
 * exact path. */
int64_t exstar_cpu_lu_panel(const struct exstar_tile_view *v, int64_t K, int32_t *ipiv, int64_t *info,
                            int exact_only);
/* Block row K of U in block column J > K: u(i,j) := RN(st(i,j) − Σ_{K nb <= k < i} l(i,k)·u(k,j)),
 * i increasing (unit lower L(K,K)). Needs tiles (0..K, J), the state of (K, J), and L's block
 * row K: lc[0..K] with perm[0..K] when the view has them, else the tiles (K, 0..K).
 * Returns the number of entries computed by the exact path. */
int64_t exstar_cpu_lu_urow(const struct exstar_tile_view *v, int64_t K, int64_t J, int exact_only);
/* The interchanges of panel K (ipiv as written by the panel) applied to block column J, rows
 * >= K nb, in the tiles and (when given) the states. */
void exstar_cpu_lu_laswp(const struct exstar_tile_view *v, int64_t K, int64_t J, const int32_t *ipiv);

/* The status of a finished m x n tile of the factors, added into status (kernels_cpu/lu_check.cpp):
 * status[0] := 1 if an entry is NaN or ±inf (else unchanged); status[1] := min(status[1],
 * diag0 + the first d < ndiag with A(d, d) == 0) (ndiag: the tile's diagonal entries, 0 off the
 * diagonal; diag0: the global index of its first). Start from {0, UINT64_MAX}. */
void exstar_cpu_lu_check(int64_t m, int64_t n, const double *A, int64_t lda, int64_t ndiag, int64_t diag0,
                         uint64_t status[2]);

/* The plain-double baseline on the same tiles (kernels_cpu/lu_plain_tiled.cpp, when the build
 * found LAPACK: EXSTAR_HAVE_LAPACK): LAPACK dgetrf on the gathered panel (returns its info),
 * dtrsm for block row K of U in block column J, C −= L·U by dgemm. NOT exact. */
int exstar_cpu_lu_plain_panel(const struct exstar_tile_view *v, int64_t K, int32_t *ipiv);
void exstar_cpu_lu_plain_urow(const struct exstar_tile_view *v, int64_t K, int64_t J);
void exstar_cpu_lu_plain_gemm(int64_t m, int64_t n, int64_t k, const double *L, int64_t ldl, const double *U,
                              int64_t ldu, double *C, int64_t ldc);

#ifdef __cplusplus
}
#endif
#endif
