// x_i := RN(x_i / alpha) on a CUDA device: the IEEE division (nvcc's default -prec-div=true,
// no flush-to-zero), never x_i * RN(1/alpha).
#include "kernels_cuda/level1.h"
#include "kernels_cuda/level1_util.cuh"
#include "core/strides.h"

namespace {
__device__ __forceinline__ void invscal_loop(long long n, double alpha, double *x, long long fx, long long incx)
{
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    x[fx + i * incx] = __ddiv_rn(x[fx + i * incx], alpha);
}
__global__ void invscal_kernel(long long n, double alpha, double *x, long long fx, long long incx)
{
  invscal_loop(n, alpha, x, fx, incx);
}
__global__ void invscal_dev_kernel(long long n, const double *alpha, int skip_zero, double *x, long long fx,
                                   long long incx)
{
  const double a = *alpha;
  if (skip_zero && a == 0.0) return;
  invscal_loop(n, a, x, fx, incx);
}
} // namespace

extern "C" int exstar_cuda_invscal(int64_t n, double alpha, double *x, int64_t offx, int64_t incx,
                                   exstar_cuda_stream stream)
{
  if (n <= 0) return 0;
  if (!x || incx == 0) return -(int)cudaErrorInvalidValue;
  invscal_kernel<<<exstar_cuda_l1::blocks_for(n), exstar_cuda_l1::kThreads, 0, (cudaStream_t)stream>>>(
      n, alpha, x, exstar_first_index(n, offx, incx), incx);
  return exstar_cuda_l1::check_launch();
}

extern "C" int exstar_cuda_invscal_dev(int64_t n, const double *alpha, int skip_zero, double *x, int64_t offx,
                                       int64_t incx, exstar_cuda_stream stream)
{
  if (n <= 0) return 0;
  if (!x || !alpha || incx == 0) return -(int)cudaErrorInvalidValue;
  invscal_dev_kernel<<<exstar_cuda_l1::blocks_for(n), exstar_cuda_l1::kThreads, 0, (cudaStream_t)stream>>>(
      n, alpha, skip_zero, x, exstar_first_index(n, offx, incx), incx);
  return exstar_cuda_l1::check_launch();
}
