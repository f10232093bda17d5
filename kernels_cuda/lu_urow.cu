// The tiled exact LU's block rows of U on the GPU (exstar_cuda_lu_urow): one launch, a block a
// column, group after group (kernels_cuda/subst_groups.cuh). Definitions and bits:
// kernels_cpu/lu_tiled.cpp.
#include "kernels_cuda/subst_groups.cuh"
#include "kernels_cuda/gemm.h"

namespace {

// Block row K of U in block column J: tile (K, J) in place (its first row u0), its state read
// (and, between chunks, spent by the state products);
// an unknown i of column j is u(i, j), the factor unit lower L(K, K) (subst_fields' L: from the
// first unknown c0 of the substitution, u0 or a chunk's).
struct urow_ctx : subst_fields {
  double *U;
  int64_t ldu, u0;
  __device__ double &a(int64_t i, int64_t j) const { return U[(i - u0) + (j - j0) * ldu]; }
  __device__ double finish(int64_t, double y) const { return y; }
  __device__ exstar_bdd state(int64_t i, int64_t j) const { return st[(i - u0) + (j - j0) * ldst]; }
  __device__ __noinline__ double exact(exstar_i64 *wacc, int64_t i, int64_t j, int64_t kend) const
  {
    const dgrid &gg = g;
    return exact_sum_warp(wacc, a(i, j), !exact_only, rep,
                          [&](auto &sink, int t, int step) { return grid_terms(sink, gg, i, j, kend, t, step); });
  }
};

// A block row is substituted chunk by chunk of 128 unknowns (EXSTAR_CUDA_UROW_CHUNK: 16..1024, at
// least nb for the whole row at once), each chunk's terms into the later unknowns' states by the
// Level-3 state product (as the Cholesky's rows below its diagonal tile,
// kernels_cuda/potrf_panel.cu), a warp a column (EXSTAR_CUDA_UROW_THREADS: 32, 64 or 128): a
// chain of 128 unknowns instead of nb, and 8 columns an SM instead of 4. It spends the states of
// the block row. One H200, tiles of 1024, at home: the exact LU at n = 16384 0.785 -> 0.647 s,
// at 32768 3.85 -> 3.22 s (chunks of 256: 0.665 s at 16384).
inline const subst_chunking &urow_chunking()
{
  static const subst_chunking c("EXSTAR_CUDA_UROW_CHUNK", "EXSTAR_CUDA_UROW_THREADS", 32);
  return c;
}

} // namespace

extern "C" int exstar_cuda_lu_urow(const exstar_cuda_tiles *v, int64_t K, int64_t J, int exact_only,
                                   unsigned long long *repaired, exstar_cuda_stream s)
{
  cudaStream_t stream = (cudaStream_t)s;
  const int64_t c0 = K * v->nb, r1 = min64(v->m, c0 + v->nb), r = r1 - c0;
  const int64_t j0 = J * v->nb, j1 = min64(v->n, j0 + v->nb), nc = j1 - j0;
  if (r <= 0 || nc <= 0) return 0;
  const int64_t tl = K + K * v->mt, tu = K + J * v->mt;
  const int64_t w = min64(urow_chunking().width, r); // unknowns a substitution
  const unsigned threads = w < r ? urow_chunking().threads : 128;
  scratch sc;
  cudaError_t e = sc.make(v, subst_scratch_bytes(w, nc), stream, c0, r, K);
  if (e != cudaSuccess) return status(e);
  if (v->lc && K > 0) row_map_kernel<<<blocks_for(r * K, 256), 256, 0, stream>>>(sc.g, sc.perms, K);
  urow_ctx c;
  c.g = sc.g;
  c.U = v->a[tu], c.ldu = v->lda[tu], c.u0 = c0;
  const double *L = v->lc ? v->lc[K] : v->a[tl]; // L(K, K)
  const int64_t ldl = v->lc ? v->ldlc[K] : v->lda[tl];
  c.st = (const exstar_bdd *)v->st[tu], c.ldst = v->ldst[tu];
  c.j0 = j0, c.exact_only = exact_only, c.rep = repaired;
  int ret = 0;
  for (int64_t a = c0; a < r1 && ret == 0; a += w) {
    const int64_t b = min64(r1, a + w);
    c.c0 = a, c.L = L + (a - c0) * (1 + ldl), c.ldl = ldl;
    ret = status(subst_launch(c, c.L, c.ldl, b - a, nc, sc.extra, stream, threads));
    if (ret == 0 && b < r1) // the chunk's terms into the states of the unknowns below it
      ret = exstar_cuda_gemm_state_add('N', 'N', r1 - b, nc, b - a, -1.0, L, (b - c0) + (a - c0) * ldl, ldl, c.U,
                                       a - c0, c.ldu, v->st[tu], b - c0, c.ldst, stream);
  }
  const cudaError_t f = sc.release(stream);
  return ret != 0 ? ret : status(f);
}
