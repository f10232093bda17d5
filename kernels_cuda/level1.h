/* exstar CUDA launchers of Level 1 (scal, invscal, axpy, swap, laswp, iamax), asynchronous on
 * `stream`, no StarPU inside; pointers are device pointers, offsets in elements. Same contracts
 * as kernels_cpu/level1.h. Return 0 or a negative cudaError_t code (never abort). */
#ifndef EXSTAR_KERNELS_CUDA_LEVEL1_H
#define EXSTAR_KERNELS_CUDA_LEVEL1_H
#include <stdint.h>
#include "kernels_cuda/kernels_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

int exstar_cuda_scal(int64_t n, double alpha, double *x, int64_t offx, int64_t incx, exstar_cuda_stream stream);
int exstar_cuda_invscal(int64_t n, double alpha, double *x, int64_t offx, int64_t incx,
                        exstar_cuda_stream stream);
/* The divisor is *alpha (device memory), read by the kernel; skip_zero != 0: a zero divisor
 * leaves x unchanged. */
int exstar_cuda_invscal_dev(int64_t n, const double *alpha, int skip_zero, double *x, int64_t offx, int64_t incx,
                            exstar_cuda_stream stream);
int exstar_cuda_axpy(int64_t n, double alpha, const double *x, int64_t offx, int64_t incx, double *y,
                     int64_t offy, int64_t incy, exstar_cuda_stream stream);
int exstar_cuda_swap(int64_t n, double *x, int64_t offx, int64_t incx, double *y, int64_t offy, int64_t incy,
                     exstar_cuda_stream stream);
int exstar_cuda_laswp(int64_t n, double *a, int64_t offa, int64_t lda, int64_t nrows, int64_t k1, int64_t k2,
                      const int32_t *ipiv, int64_t offipiv, int64_t incx, exstar_cuda_stream stream);
/* state: 2 words (core/iamax.h). Uses a stream-ordered temporary of one pair per block. */
int exstar_cuda_iamax(int64_t n, const double *x, int64_t offx, int64_t incx, int64_t base, long long *state,
                      exstar_cuda_stream stream);
int exstar_cuda_iamax_init(long long *state, exstar_cuda_stream stream);
int exstar_cuda_iamax_merge(long long *dst, const long long *src, exstar_cuda_stream stream);
/* *out (int64) := the state's index; *ipiv (int32) := the state's index + base. */
int exstar_cuda_iamax_index(const long long *state, long long *out, exstar_cuda_stream stream);
int exstar_cuda_iamax_ipiv(const long long *state, int32_t *ipiv, int64_t base, exstar_cuda_stream stream);

#ifdef __cplusplus
}
#endif
#endif
