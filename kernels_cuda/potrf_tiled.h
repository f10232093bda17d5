/* exstar CUDA kernels of the tiled exact Cholesky factorization (kernels_cuda/potrf_panel.cu):
 * the diagonal tile and a tile below it, the same definitions and bits as
 * kernels_cpu/potrf_tiled.h; and the plain-double baseline's (potrf_plain.cu). Conventions of
 * kernels_cuda.h (device pointers, asynchronous on `stream`, 0 or -(cudaError_t)); the tile grid
 * as for the LU's kernels (kernels_cuda/lu_tiled.h): L left of the panel from the column copies
 * when the view has them (rows [L nb, n) of block column L, without row orders), else from the
 * tiles. */
#ifndef EXSTAR_KERNELS_CUDA_POTRF_TILED_H
#define EXSTAR_KERNELS_CUDA_POTRF_TILED_H
#include <stdint.h>
#include "kernels_cuda/lu_tiled.h"

#ifdef __cplusplus
extern "C" {
#endif

/* As exstar_cpu_potrf_panel(v, K, I0, I1, fail, exact_only): the tiles (I, K), I in [I0, I1), of
 * L (I0 == K: the diagonal tile first, its roots, and fail, a DEVICE array of the panel's width).
 * The whole block column (I0 == K, I1 == mt) of a view with column copies also writes lc[K] (the
 * tiles stacked; the rows of the diagonal tile above its diagonal as the tile holds them, where
 * the CPU kernel writes zeros: never read), and spends the states of the rows below the diagonal
 * tile (they must be writable); else the states are read, not written. repaired (DEVICE, may be NULL): += the number of entries computed
 * by the exact path (the roots, always exact, not counted). */
int exstar_cuda_potrf_panel(const exstar_cuda_tiles *v, int64_t K, int64_t I0, int64_t I1, int32_t *fail,
                            int exact_only, unsigned long long *repaired, exstar_cuda_stream stream);

/* The plain-double baseline on the same tiles (kernels_cuda/potrf_plain.cu; NOT exact), as
 * exstar_cpu_potrf_plain_panel and exstar_cpu_potrf_plain_update: cuSOLVER's dpotrf on the
 * diagonal tile (fail, DEVICE, from its info), cublasDtrsm below it; C −= A·Bᵀ by cublasDgemm,
 * or by cublasDsyrk on C's lower triangle when diagonal. */
int exstar_cuda_potrf_plain_panel(const exstar_cuda_tiles *v, int64_t K, int64_t I, int32_t *fail,
                                  exstar_cuda_stream stream);
int exstar_cuda_potrf_plain_update(int64_t m, int64_t n, int64_t k, const double *A, int64_t lda, const double *B,
                                   int64_t ldb, double *C, int64_t ldc, int diagonal, exstar_cuda_stream stream);

#ifdef __cplusplus
}
#endif
#endif
