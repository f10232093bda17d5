/* exstar CUDA kernels of the tiled exact LU (kernels_cuda/lu_panel.cu, lu_urow.cu and
 * lu_laswp.cu; what they share: lu_tiled_common.cuh): the panel, a block row of U and the row
 * interchanges, the same definitions and bits as kernels_cpu/lu_tiled.h.
 * Conventions of kernels_cuda.h (device pointers, asynchronous on `stream`, 0 or
 * -(cudaError_t)). */
#ifndef EXSTAR_KERNELS_CUDA_LU_TILED_H
#define EXSTAR_KERNELS_CUDA_LU_TILED_H
#include <stdint.h>
#include "kernels_cuda/kernels_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tiles of one block column from tile row `first` down (passed by value to the kernel:
 * at most EXSTAR_CUDA_TILE_COLUMN tiles). st[t] NULL: no states. */
#define EXSTAR_CUDA_TILE_COLUMN 96
typedef struct {
  int64_t nb, first;
  double *a[EXSTAR_CUDA_TILE_COLUMN];
  void *st[EXSTAR_CUDA_TILE_COLUMN];
  int32_t lda[EXSTAR_CUDA_TILE_COLUMN], ldst[EXSTAR_CUDA_TILE_COLUMN];
} exstar_cuda_tile_column;

/* As exstar_cpu_lu_laswp: rows c0 + q and ipiv[q] - 1 (q < npiv) interchanged in the ncols
 * columns of the block column, tiles and states. ipiv in device memory. */
int exstar_cuda_lu_laswp(const exstar_cuda_tile_column *col, int64_t c0, int64_t npiv, const int32_t *ipiv,
                         int64_t ncols, exstar_cuda_stream stream);

/* The tile grid a task was given, as exstar_tile_view (kernels_cpu/lu_tiled.h): HOST arrays of
 * mt*nt entries (tile (I, J) at I + J*mt) holding DEVICE pointers, NULL for tiles not given;
 * st entries point to exstar_gemm_state_entry (32 bytes). The launchers copy the arrays to the
 * device on `stream` (the host arrays may be freed when they return). */
typedef struct {
  int64_t m, n, nb, mt, nt;
  double *const *a;
  const int64_t *lda;
  void *const *st;
  const int64_t *ldst;
  /* The column copies of L and the row orders (exstar_tile_view's lc, ldlc, perm): HOST arrays
   * of nt entries holding DEVICE pointers; lc NULL: none (L from the tiles). */
  double *const *lc;
  const int64_t *ldlc;
  int32_t *const *perm;
} exstar_cuda_tiles;

/* As exstar_cpu_lu_panel (same inputs, same bits of the tiles, of ipiv, a DEVICE array, and of
 * the column copy and row order when given).
 * beside: nonzero when other kernels (the other columns' updates) run on the device beside the
 * panel: it then takes a third of the multiprocessors instead of half (the bits are the same).
 * repaired (DEVICE, may be NULL): += the number of entries computed by the exact path. The
 * panel's states are left spent, as the CPU kernel leaves them. */
int exstar_cuda_lu_panel(const exstar_cuda_tiles *v, int64_t K, int32_t *ipiv, int exact_only, int beside,
                         unsigned long long *repaired, exstar_cuda_stream stream);
/* As exstar_cpu_lu_urow. The state of tile (K, J) is spent when the substitution goes by chunks
 * (nb above 128, kernels_cuda/lu_urow.cu): it must be writable. */
int exstar_cuda_lu_urow(const exstar_cuda_tiles *v, int64_t K, int64_t J, int exact_only,
                        unsigned long long *repaired, exstar_cuda_stream stream);
/* As exstar_cpu_lu_laswp on any number of tiles (the column through the grid arrays). */
int exstar_cuda_lu_laswp_tiles(const exstar_cuda_tiles *v, int64_t K, int64_t J, const int32_t *ipiv,
                               exstar_cuda_stream stream);

/* The plain-double baseline on the same tiles (kernels_cuda/lu_plain.cu; NOT exact), as
 * exstar_cpu_lu_plain_panel and exstar_cpu_lu_plain_urow: cuSOLVER's dgetrf on the gathered
 * panel (ipiv a DEVICE array; a zero pivot is left to the factors' status check), cublasDtrsm
 * for block row K of U in block column J. */
int exstar_cuda_lu_plain_panel(const exstar_cuda_tiles *v, int64_t K, int32_t *ipiv, exstar_cuda_stream stream);
int exstar_cuda_lu_plain_urow(const exstar_cuda_tiles *v, int64_t K, int64_t J, exstar_cuda_stream stream);

/* As exstar_cpu_lu_check (status: 2 words in DEVICE memory). */
int exstar_cuda_lu_check(int64_t m, int64_t n, const double *A, int64_t lda, int64_t ndiag, int64_t diag0,
                         uint64_t *status, exstar_cuda_stream stream);

#ifdef __cplusplus
}
#endif
#endif
