/* exstar CUDA kernels: host launchers on a caller's stream, no StarPU inside.
 *
 * Same contract as kernels_cpu.h: accumulators are EXSTAR_ACC_WORDS exstar_i64 words in
 * DEVICE memory; kernels ADD their exact value into acc and leave it normalized. Launchers
 * are asynchronous on `stream` and return 0 or a negative cudaError_t code (never abort). */
#ifndef EXSTAR_KERNELS_CUDA_H
#define EXSTAR_KERNELS_CUDA_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CUstream_st *exstar_cuda_stream; /* == cudaStream_t, without CUDA headers */

/* Arrays of `count` accumulators (one per row for gemv and trsv; count 1 for sum and dot),
 * as exstar_cpu_acc_zero / exstar_cpu_acc_merge. */
int exstar_cuda_acc_zero(long long *acc, int64_t count, exstar_cuda_stream stream);
/* dst[k] += src[k] for each of the count accumulators, then dst normalized. */
int exstar_cuda_acc_merge(long long *dst, const long long *src, int64_t count,
                          exstar_cuda_stream stream);
/* *result (device pointer to one double) := RN(acc). */
int exstar_cuda_acc_round(const long long *acc, double *result, exstar_cuda_stream stream);
/* result := RN(sqrt(acc)) (core/sqrt.h), one thread. */
int exstar_cuda_acc_round_sqrt(const long long *acc, double *result, exstar_cuda_stream stream);
int exstar_cuda_sum(int64_t n, const double *x, int64_t offx, int64_t incx, long long *acc,
                    exstar_cuda_stream stream);
int exstar_cuda_dot(int64_t n, const double *x, int64_t offx, int64_t incx, const double *y,
                    int64_t offy, int64_t incy, long long *acc, exstar_cuda_stream stream);
/* Zeroes height rows of width bytes, pitch bytes apart (cudaMemset2DAsync). */
int exstar_cuda_memset2d(void *p, size_t pitch, size_t width, size_t height, exstar_cuda_stream stream);
/* Copies height rows of width bytes from src (spitch bytes apart) to dst (dpitch apart), both in
 * device memory (cudaMemcpy2DAsync). */
int exstar_cuda_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       exstar_cuda_stream stream);
/* Message of a code returned above. */
const char *exstar_cuda_error_string(int code);

#ifdef __cplusplus
}
#endif
#endif
