// The tiled exact LU's block rows of U on the GPU (exstar_cuda_lu_urow): one launch, a block a
// column, group after group (kernels_cuda/subst_groups.cuh). Definitions and bits:
// kernels_cpu/lu_tiled.cpp.
#include "kernels_cuda/subst_groups.cuh"

namespace {

// Block row K of U in block column J: tile (K, J) in place, its state read; an unknown i of
// column j is u(i, j), the factor unit lower L(K, K).
struct urow_ctx : subst_fields {
  double *U;
  int64_t ldu;
  __device__ double &a(int64_t i, int64_t j) const { return U[(i - c0) + (j - j0) * ldu]; }
  __device__ double finish(int64_t, double y) const { return y; }
  __device__ exstar_bdd state(int64_t i, int64_t j) const { return st[(i - c0) + (j - j0) * ldst]; }
  __device__ __noinline__ double exact(exstar_i64 *wacc, int64_t i, int64_t j, int64_t kend) const
  {
    const dgrid &gg = g;
    return exact_sum_warp(wacc, a(i, j), !exact_only, rep,
                          [&](auto &sink, int t, int step) { return grid_terms(sink, gg, i, j, kend, t, step); });
  }
};

} // namespace

extern "C" int exstar_cuda_lu_urow(const exstar_cuda_tiles *v, int64_t K, int64_t J, int exact_only,
                                   unsigned long long *repaired, exstar_cuda_stream s)
{
  cudaStream_t stream = (cudaStream_t)s;
  const int64_t c0 = K * v->nb, r1 = min64(v->m, c0 + v->nb), r = r1 - c0;
  const int64_t j0 = J * v->nb, j1 = min64(v->n, j0 + v->nb), nc = j1 - j0;
  if (r <= 0 || nc <= 0) return 0;
  const int64_t tl = K + K * v->mt, tu = K + J * v->mt;
  scratch sc;
  cudaError_t e = sc.make(v, subst_scratch_bytes(r, nc), stream, c0, r, K);
  if (e != cudaSuccess) return status(e);
  if (v->lc && K > 0) row_map_kernel<<<blocks_for(r * K, 256), 256, 0, stream>>>(sc.g, sc.perms, K);
  urow_ctx c;
  c.g = sc.g;
  c.U = v->a[tu], c.ldu = v->lda[tu];
  c.L = v->lc ? v->lc[K] : v->a[tl], c.ldl = v->lc ? v->ldlc[K] : v->lda[tl]; // L(K, K)
  c.st = (const exstar_bdd *)v->st[tu], c.ldst = v->ldst[tu];
  c.c0 = c0, c.j0 = j0, c.exact_only = exact_only, c.rep = repaired;
  e = subst_launch(c, c.L, c.ldl, r, nc, sc.extra, stream);
  const cudaError_t f = sc.release(stream);
  return status(e != cudaSuccess ? e : f);
}
