// The tiled exact LU's row interchanges on the GPU (the tiles and states of a block column stay
// where the updates run): a thread per column of the block column applies the panel's pivots in
// order. Pure data movement: the bits are the CPU kernel's.
#include <cuda_runtime.h>
#include "kernels_cuda/lu_tiled.h"

namespace {

struct state4 {
  double w[4];
};

__global__ void laswp_kernel(exstar_cuda_tile_column col, int64_t c0, int64_t npiv, const int32_t *ipiv,
                             int64_t ncols)
{
  const int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= ncols) return;
  const int64_t nb = col.nb;
  for (int64_t q = 0; q < npiv; ++q) {
    const int64_t r = c0 + q, p = (int64_t)ipiv[q] - 1;
    if (p == r) continue;
    const int tr = (int)(r / nb - col.first), tp = (int)(p / nb - col.first);
    double *ar = col.a[tr] + (r % nb) + c * col.lda[tr], *ap = col.a[tp] + (p % nb) + c * col.lda[tp];
    const double x = *ar;
    *ar = *ap;
    *ap = x;
    if (col.st[tr]) {
      state4 *sr = (state4 *)col.st[tr] + (r % nb) + c * col.ldst[tr], *sp = (state4 *)col.st[tp] + (p % nb) + c * col.ldst[tp];
      const state4 y = *sr;
      *sr = *sp;
      *sp = y;
    }
  }
}

} // namespace

extern "C" int exstar_cuda_lu_laswp(const exstar_cuda_tile_column *col, int64_t c0, int64_t npiv,
                                    const int32_t *ipiv, int64_t ncols, exstar_cuda_stream stream)
{
  if (ncols <= 0 || npiv <= 0) return 0;
  const unsigned threads = 128, blocks = (unsigned)((ncols + threads - 1) / threads);
  laswp_kernel<<<blocks, threads, 0, (cudaStream_t)stream>>>(*col, c0, npiv, ipiv, ncols);
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? 0 : -(int)e;
}
