// LAPACK dlaswp on a CUDA device: one thread per column (grid-stride), the interchanges of a
// column in LAPACK's order. Same contract as exstar_cpu_laswp.
#include "kernels_cuda/level1.h"
#include "kernels_cuda/level1_util.cuh"

namespace {
__global__ void laswp_kernel(long long n, double *a, long long offa, long long lda, long long nrows, long long k1,
                             long long k2, const int32_t *ipiv, long long offipiv, long long incx)
{
  const long long kfirst = incx > 0 ? k1 : k2, kstep = incx > 0 ? 1 : -1;
  const long long ix0 = incx > 0 ? k1 : k1 + (k1 - k2) * incx;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < n; c += stride) {
    double *col = a + offa + c * lda;
    long long ix = ix0, k = kfirst;
    for (long long t = 0; t <= k2 - k1; ++t, k += kstep, ix += incx) {
      const long long p = ipiv[offipiv + ix - 1];
      if (p == k || p < 1 || p > nrows || k > nrows) continue;
      const double tmp = col[k - 1];
      col[k - 1] = col[p - 1];
      col[p - 1] = tmp;
    }
  }
}
} // namespace

extern "C" int exstar_cuda_laswp(int64_t n, double *a, int64_t offa, int64_t lda, int64_t nrows, int64_t k1,
                                 int64_t k2, const int32_t *ipiv, int64_t offipiv, int64_t incx,
                                 exstar_cuda_stream stream)
{
  if (n <= 0 || k2 < k1) return 0;
  if (!a || !ipiv || incx == 0) return -(int)cudaErrorInvalidValue;
  laswp_kernel<<<exstar_cuda_l1::blocks_for(n), exstar_cuda_l1::kThreads, 0, (cudaStream_t)stream>>>(
      n, a, offa, lda, nrows, k1, k2, ipiv, offipiv, incx);
  return exstar_cuda_l1::check_launch();
}
