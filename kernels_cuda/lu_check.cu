// The status of a finished tile of the LU factors on the GPU, added into the status (as
// kernels_cpu/lu_check.cpp): a thread an entry; the rare finding goes in by an atomic.
#include <cuda_runtime.h>
#include "kernels_cuda/lu_tiled.h"

namespace {

__global__ void check_kernel(int64_t m, int64_t n, const double *A, int64_t lda, int64_t ndiag, int64_t diag0,
                             unsigned long long *status)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= m * n) return;
  const int64_t i = x % m, j = x / m;
  const double v = A[i + j * lda];
  if (!isfinite(v)) atomicOr(&status[0], 1ull);
  if (i == j && i < ndiag && v == 0.0) atomicMin(&status[1], (unsigned long long)(diag0 + i));
}

} // namespace

extern "C" int exstar_cuda_lu_check(int64_t m, int64_t n, const double *A, int64_t lda, int64_t ndiag,
                                    int64_t diag0, uint64_t *status, exstar_cuda_stream s)
{
  if (m <= 0 || n <= 0) return 0;
  const unsigned threads = 256, blocks = (unsigned)((m * n + threads - 1) / threads);
  check_kernel<<<blocks, threads, 0, (cudaStream_t)s>>>(m, n, A, lda, ndiag, diag0, (unsigned long long *)status);
  const cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? 0 : -(int)e;
}
