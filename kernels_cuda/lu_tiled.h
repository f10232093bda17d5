/* exstar CUDA launcher of the tiled LU's row interchanges (kernels_cuda/lu_tiled.cu); conventions
 * of kernels_cuda.h (device pointers, asynchronous on `stream`, 0 or -(cudaError_t)). */
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

#ifdef __cplusplus
}
#endif
#endif
