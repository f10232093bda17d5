/* exstar CUDA launchers of trsv (kernels_cuda/trsv.cu), same contracts as kernels_cpu/trsv.h:
 * t, accs, vectors in DEVICE memory; asynchronous on `stream`; 0 or -(cudaError_t). */
#ifndef EXSTAR_KERNELS_CUDA_TRSV_H
#define EXSTAR_KERNELS_CUDA_TRSV_H
#include "kernels_cuda/kernels_cuda.h"
#include "core/trsv.h" /* exstar_trsv_shape (plain data) */

#ifdef __cplusplus
extern "C" {
#endif

int exstar_cuda_trsv_solve(const exstar_trsv_shape *s, const double *t, const long long *accs, double *y,
                           int64_t offy, int64_t incy, exstar_cuda_stream stream);
int exstar_cuda_trsv_resid(const exstar_trsv_shape *s, const double *t, const long long *accs,
                           const double *x, int64_t offx, int64_t incx, const double *b, int64_t offb,
                           int64_t incb, double *r, int64_t offr, int64_t incr, exstar_cuda_stream stream);
int exstar_cuda_trsv_update(int64_t n, int add, const double *d, int64_t offd, int64_t incd, double *x,
                            int64_t offx, int64_t incx, exstar_cuda_stream stream);

#ifdef __cplusplus
}
#endif
#endif
