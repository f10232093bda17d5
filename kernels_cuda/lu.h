/* exstar CUDA launchers of the LU driver's own steps (kernels_cuda/lu.cu), same contracts as
 * kernels_cpu/lu.h: device pointers, offsets in elements, asynchronous on `stream`, 0 or
 * -(cudaError_t). */
#ifndef EXSTAR_KERNELS_CUDA_LU_H
#define EXSTAR_KERNELS_CUDA_LU_H
#include <stdint.h>
#include "kernels_cuda/kernels_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* As exstar_cpu_lu_pivot (one block: search, ipiv, row interchange in columns 0..j). */
int exstar_cuda_lu_pivot(int64_t m, int64_t j, double *a, int64_t offa, int64_t lda, int32_t *ipiv,
                         int64_t offipiv, exstar_cuda_stream stream);
/* As exstar_cpu_lu_plain_column (plain double, not reproducible). */
int exstar_cuda_lu_plain_column(int64_t m, int64_t j, double *a, int64_t offa, int64_t lda,
                                exstar_cuda_stream stream);

/* As exstar_cpu_lu_plain_getrs (one thread per right-hand side). */
int exstar_cuda_lu_plain_getrs(int64_t n, int64_t nrhs, const double *lu, int64_t offlu, int64_t ldlu,
                               const int32_t *ipiv, int64_t offipiv, double *b, int64_t offb, int64_t ldb,
                               exstar_cuda_stream stream);

/* The plain-double tiled LU's update: C −= L·U (m x n, k terms) by cublasDgemm on `stream`.
 * NOT exact: the baseline only. */
int exstar_cuda_lu_plain_gemm(int64_t m, int64_t n, int64_t k, const double *L, int64_t ldl, const double *U,
                              int64_t ldu, double *C, int64_t ldc, exstar_cuda_stream stream);

#ifdef __cplusplus
}
#endif
#endif
