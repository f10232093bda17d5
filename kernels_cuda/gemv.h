/* exstar CUDA launchers of gemv (kernels_cuda/gemv.cu); conventions of kernels_cuda.h (device
 * pointers, asynchronous on `stream`, 0 or a negative cudaError_t code). Same contracts as
 * kernels_cpu/gemv.h: a(i, j) = A[offa + i + j*lda]; accumulator k of the array acc starts at
 * word (offacc + k) * EXSTAR_ACC_WORDS. */
#ifndef EXSTAR_KERNELS_CUDA_GEMV_H
#define EXSTAR_KERNELS_CUDA_GEMV_H
#include <stdint.h>
#include "kernels_cuda/kernels_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* As exstar_cpu_gemv_acc: 'N' acc[offacc+i] += Σ_j α·a(i,j)·x_j, 'T' acc[offacc+j] += Σ_i α·a(i,j)·x_i,
 * every accumulator touched left normalized. */
int exstar_cuda_gemv_acc(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa,
                         int64_t lda, const double *x, int64_t offx, int64_t incx, long long *acc,
                         int64_t offacc, exstar_cuda_stream stream);
/* As exstar_cpu_gemv_finish: y_i := RN(acc[offacc+i] + β·y_i), β == 0: y not read. */
int exstar_cuda_gemv_finish(int64_t n, double beta, double *y, int64_t offy, int64_t incy, const long long *acc,
                            int64_t offacc, exstar_cuda_stream stream);

#ifdef __cplusplus
}
#endif
#endif
