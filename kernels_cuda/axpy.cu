// y_i := RN(alpha * x_i + y_i) on a CUDA device: fma, the one rounding.
#include "kernels_cuda/level1.h"
#include "kernels_cuda/level1_util.cuh"
#include "core/strides.h"

namespace {
__global__ void axpy_kernel(long long n, double alpha, const double *x, long long fx, long long incx, double *y,
                            long long fy, long long incy)
{
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[fy + i * incy] = fma(alpha, x[fx + i * incx], y[fy + i * incy]);
}
} // namespace

extern "C" int exstar_cuda_axpy(int64_t n, double alpha, const double *x, int64_t offx, int64_t incx, double *y,
                                int64_t offy, int64_t incy, exstar_cuda_stream stream)
{
  if (n <= 0) return 0;
  if (!x || !y || incx == 0 || incy == 0) return -(int)cudaErrorInvalidValue;
  axpy_kernel<<<exstar_cuda_l1::blocks_for(n), exstar_cuda_l1::kThreads, 0, (cudaStream_t)stream>>>(
      n, alpha, x, exstar_first_index(n, offx, incx), incx, y, exstar_first_index(n, offy, incy), incy);
  return exstar_cuda_l1::check_launch();
}
