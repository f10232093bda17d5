// x_i := RN(alpha * x_i) on a CUDA device (--fmad=false: a plain IEEE product).
#include "kernels_cuda/level1.h"
#include "kernels_cuda/level1_util.cuh"
#include "core/strides.h"

namespace {
__global__ void scal_kernel(long long n, double alpha, double *x, long long fx, long long incx)
{
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    x[fx + i * incx] = alpha * x[fx + i * incx];
}
} // namespace

extern "C" int exstar_cuda_scal(int64_t n, double alpha, double *x, int64_t offx, int64_t incx,
                                exstar_cuda_stream stream)
{
  if (n <= 0) return 0;
  if (!x || incx == 0) return -(int)cudaErrorInvalidValue;
  scal_kernel<<<exstar_cuda_l1::blocks_for(n), exstar_cuda_l1::kThreads, 0, (cudaStream_t)stream>>>(
      n, alpha, x, exstar_first_index(n, offx, incx), incx);
  return exstar_cuda_l1::check_launch();
}
