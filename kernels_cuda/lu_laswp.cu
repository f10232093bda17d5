// The tiled exact LU's row interchanges on the GPU (the tiles and states of a block column stay
// where the updates run): a thread per column of the block column applies the panel's pivots in
// order. Pure data movement: the bits are the CPU kernel's.
#include <cuda_runtime.h>
#include "kernels_cuda/lu_tiled_common.cuh"

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

namespace {

// The interchanges of a panel as one permutation: perm_kernel (one block) plays the swaps on the
// rows [c0, m) in shared memory (or global scratch when too many) and lists the rows that may
// move with where their content comes from; the moves are then parallel over rows and columns,
// through a buffer (gather, then scatter: rows listed twice move the same content twice).
template <bool SHARED>
__global__ void perm_kernel(int64_t c0, int64_t rows, int64_t npiv, const int32_t *ipiv, int32_t *gpos, int64_t *list,
                            int64_t *src)
{
  extern __shared__ int32_t spos[];
  int32_t *pos = SHARED ? spos : gpos;
  __shared__ int32_t piv[1024]; // the pivots' rows, loaded together (the swaps are one thread's chain)
  const bool staged = npiv <= 1024;
  for (int64_t q = threadIdx.x; q < rows; q += blockDim.x) pos[q] = (int32_t)q;
  if (staged)
    for (int64_t q = threadIdx.x; q < npiv; q += blockDim.x) piv[q] = ipiv[q];
  __syncthreads();
  if (threadIdx.x == 0)
    for (int64_t q = 0; q < npiv; ++q) {
      const int64_t p = (int64_t)(staged ? piv[q] : ipiv[q]) - 1 - c0;
      const int32_t t = pos[q];
      pos[q] = pos[p];
      pos[p] = t;
    }
  __syncthreads();
  for (int64_t q = threadIdx.x; q < npiv; q += blockDim.x) {
    const int64_t p = (int64_t)ipiv[q] - 1 - c0;
    list[q] = c0 + q, src[q] = c0 + pos[q];
    list[npiv + q] = c0 + p, src[npiv + q] = c0 + pos[p];
  }
}

constexpr int kMoveCols = 8; // columns a thread moves

// A thread a listed row and kMoveCols columns of block column j0 / nb (one tile column): the
// row's tile found once (a 32-bit division), not two 64-bit divisions an element (dgrid::at).
// Gather (back = 0: row src[e] into the buffer) or scatter (back = 1: the buffer into list[e]);
// the buffer is column after column, coalesced over the listed rows.
__global__ void move_kernel(dgrid g, int64_t nlist, const int64_t *list, const int64_t *src, int64_t j0, int64_t ncols,
                            int states, double *ta, exstar_bdd *ts, int back)
{
  const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= nlist) return;
  const uint32_t nb = (uint32_t)g.nb, r = (uint32_t)(back ? list[e] : src[e]), ti = r / nb, ri = r - ti * nb;
  const int64_t t = ti + (j0 / g.nb) * g.mt, lda = g.lda[t], ldst = g.ldst[t];
  double *a = g.a[t] + ri;
  exstar_bdd *st = states ? g.st[t] + ri : nullptr;
  const int64_t c1 = min64(ncols, ((int64_t)blockIdx.y + 1) * kMoveCols);
  for (int64_t c = (int64_t)blockIdx.y * kMoveCols; c < c1; ++c) {
    const int64_t x = e + c * nlist;
    if (back) {
      a[c * lda] = ta[x];
      if (states) st[c * ldst] = ts[x];
    } else {
      ta[x] = a[c * lda];
      if (states) ts[x] = st[c * ldst];
    }
  }
}

} // namespace

extern "C" int exstar_cuda_lu_laswp_tiles(const exstar_cuda_tiles *v, int64_t K, int64_t J, const int32_t *ipiv,
                                          exstar_cuda_stream s)
{
  cudaStream_t stream = (cudaStream_t)s;
  const int64_t c0 = K * v->nb, npiv = min64(min64(v->m, v->n), c0 + v->nb) - c0, rows = v->m - c0;
  const int64_t j0 = J * v->nb, ncols = min64(v->n, j0 + v->nb) - j0;
  if (npiv <= 0 || ncols <= 0) return 0;
  const int states = v->st[K + J * v->mt] != nullptr;
  const int64_t nlist = 2 * npiv;
  const size_t lbytes = (size_t)nlist * sizeof(int64_t), tbytes = (size_t)(nlist * ncols) * sizeof(double);
  const size_t sbytes = states ? (size_t)(nlist * ncols) * sizeof(exstar_bdd) : 0, pbytes = (size_t)rows * sizeof(int32_t);
  scratch sc;
  cudaError_t e = sc.make(v, 2 * lbytes + tbytes + sbytes + pbytes, stream);
  if (e != cudaSuccess) return status(e);
  int64_t *list = (int64_t *)sc.extra, *src = list + nlist;
  exstar_bdd *ts = (exstar_bdd *)(sc.extra + 2 * lbytes);
  double *ta = (double *)(sc.extra + 2 * lbytes + sbytes);
  int32_t *gpos = (int32_t *)(sc.extra + 2 * lbytes + sbytes + tbytes);
  if (pbytes <= 160 * 1024) {
    e = cudaFuncSetAttribute(perm_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)pbytes);
    if (e == cudaSuccess) perm_kernel<true><<<1, 1024, pbytes, stream>>>(c0, rows, npiv, ipiv, gpos, list, src);
  } else {
    perm_kernel<false><<<1, 1024, 0, stream>>>(c0, rows, npiv, ipiv, gpos, list, src);
  }
  const dim3 blocks(blocks_for(nlist, 128), (unsigned)((ncols + kMoveCols - 1) / kMoveCols));
  move_kernel<<<blocks, 128, 0, stream>>>(sc.g, nlist, list, src, j0, ncols, states, ta, ts, 0);
  move_kernel<<<blocks, 128, 0, stream>>>(sc.g, nlist, list, src, j0, ncols, states, ta, ts, 1);
  if (e == cudaSuccess) e = cudaGetLastError();
  const cudaError_t f = sc.release(stream);
  return status(e != cudaSuccess ? e : f);
}
