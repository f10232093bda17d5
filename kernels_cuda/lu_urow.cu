// The tiled exact LU's block rows of U on the GPU (exstar_cuda_lu_urow): one launch, a block a
// column, group after group (substitution by a warp, then the group's terms into the rows below
// by the fast sums, by the whole block). Definitions and bits: kernels_cpu/lu_tiled.cpp.
#include "kernels_cuda/lu_tiled_common.cuh"

namespace {

// Block row K of U in block column J: tile (K, J) in place, its state read (into shared memory, or
// a global copy S for columns too tall for it).
struct urow_ctx {
  dgrid g;
  double *U;
  int64_t ldu;
  const double *L;
  int64_t ldl;
  const exstar_bdd *st; // the tile's states (read only)
  int64_t ldst;
  exstar_bdd *S;        // a copy of them in global scratch, for columns too tall for shared memory
  int64_t lds, c0, j0;
  const int *ea;        // ea[(i − c0) + g·lds]: the exponent code of row i of L over group g's columns
  int exact_only;
  unsigned long long *rep;
  __device__ double &a(int64_t i, int64_t j) const { return U[(i - c0) + (j - j0) * ldu]; }
  __device__ double l(int64_t i, int64_t k) const { return L[(i - c0) + (k - c0) * ldl]; }
  __device__ __noinline__ double exact(exstar_i64 *wacc, int64_t i, int64_t j, int64_t kend) const
  {
    count_repair(rep);
    const dgrid &gg = g;
    return exact_sum_warp(wacc, a(i, j), [&](exstar_i64 *acc, double *fpe, int t, int step) {
      return grid_terms(acc, fpe, gg, i, j, kend, t, step);
    });
  }
};

// The group [g0, g0 + nr) of column j (its states in col, row i at col[i − c0]): the first warp
// substitutes, its lanes 0..15 holding the group's rows (bounded double-doubles in registers,
// every earlier term already in the states); u values to ut, the largest exponent of the group's
// u to *seb.
__device__ void urow_substitute(const urow_ctx &c, exstar_bdd *col, exstar_i64 *acc, int64_t j, int64_t g0, int nr,
                                double *ut, int *seb)
{
  const int lane = threadIdx.x & 31;
  const int64_t i = g0 + lane;
  const bool mine = lane < nr;
  exstar_bdd d{0.0, 0.0, 0.0, 0.0};
  double lrow[kGroup]; // the lane's row of L in the group, loaded together
#pragma unroll
  for (int t = 0; t < kGroup; ++t) lrow[t] = mine && t < lane ? c.l(i, g0 + t) : 0.0;
  if (mine) d = col[i - c.c0];
  int eb = EXSTAR_GEMM_EXP_ZERO;
#pragma unroll
  for (int t = 0; t < kGroup; ++t) {
    if (t < nr) {
      double y = 0.0;
      bool want = false;
      if (lane == t) want = c.exact_only || !exstar_bdd_round_ok(&d, &y);
      exact_where(c, acc, want, i, j, i, y);
      if (lane == t) c.a(i, j) = y, ut[t] = y;
      y = __shfl_sync(0xffffffffu, y, t);
      __syncwarp(); // the value in memory too, for the exact path of the rows below
      eb = exstar_line_exp_step(eb, y);
      if (mine && lane > t && !exstar_bdd_add_product(&d, -lrow[t], y))
        d.hi = exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
    }
  }
  if (lane == 0) *seb = eb;
}

// Row ib of column j takes the terms of the group [g0, g0 + nr) (u in ut, their largest exponent
// eb) through the fast sums (core/gemm.h: a split constant per entry from its row's and its
// column's largest factors; the row's comes from the table, the same for every column).
__device__ inline void urow_take_group(const urow_ctx &c, exstar_bdd *col, int64_t ib, int64_t g0, int nr,
                                       const double *ut, int eb)
{
  const int ea = c.ea[(ib - c.c0) + ((g0 - c.c0) / kGroup) * c.lds];
  const double sigma = exstar_gemm_sigma(ea, eb, exstar_gemm_count_exp(nr));
  double S = 0.0, R = 0.0;
#pragma unroll
  for (int t = 0; t < kGroup; ++t)
    if (t < nr) exstar_gemm_term(c.l(ib, g0 + t), ut[t], sigma, &S, &R);
  exstar_gemm_state_add(&col[ib - c.c0], S, R, exstar_gemm_bound(nr, sigma), -1.0);
}

// The exponent codes of urow_ctx::ea: a thread a (row, group) of the r x r tile L(K, K).
__global__ void urow_exps_kernel(const double *L, int64_t ldl, int64_t r, int *ea)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= r * ((r + kGroup - 1) / kGroup)) return;
  const int64_t i = x % r, g0 = (x / r) * kGroup, nr = min64(kGroup, r - g0);
  int e = EXSTAR_GEMM_EXP_ZERO;
  for (int64_t t = 0; t < nr; ++t) e = exstar_line_exp_step(e, L[i + (g0 + t) * ldl]);
  ea[x] = e;
}

// A block row of U in one launch, a block of 128 threads a column, group after group, pipelined:
// while the first warp brings the next group's rows up to date and substitutes them, the other
// warps take the current group's terms into the rows below the next group (the substitution
// alone had three warps waiting at the barrier: a third of the cycles, 25% occupancy).
// 128 registers at most: four blocks an SM run a tile's 512 columns in one wave (168 registers
// made two waves: +50% at every step). The column's states stay in shared memory (16 KB at
// nb = 512) from the first group to the last; in global scratch (c.S) when too tall for it
// (every group's updates then go through memory: ~0.5 GB a 512² tile).
__global__ void __launch_bounds__(128, 4) urow_kernel(urow_ctx c, int64_t r1)
{
  __shared__ exstar_i64 acc[EXSTAR_ACC_WORDS];
  __shared__ double ut[2][kGroup];
  __shared__ int seb[2];
  extern __shared__ __align__(16) exstar_bdd scol[];
  const int64_t j = c.j0 + blockIdx.x;
  exstar_bdd *col = c.S ? c.S + (j - c.j0) * c.lds : scol;
  if (!c.S)
    for (int64_t i = threadIdx.x; i < r1 - c.c0; i += blockDim.x) scol[i] = c.st[i + (j - c.j0) * c.ldst];
  __syncthreads();
  if (threadIdx.x < 32) urow_substitute(c, col, acc, j, c.c0, (int)min64(kGroup, r1 - c.c0), ut[0], &seb[0]);
  __syncthreads();
  int cur = 0;
  for (int64_t g0 = c.c0; g0 < r1; g0 += kGroup, cur ^= 1) {
    const int nr = (int)min64(kGroup, r1 - g0);
    const int64_t n0 = g0 + nr; // the next group
    if (threadIdx.x < 32) {
      if (n0 < r1) {
        const int64_t ib = n0 + threadIdx.x;
        if (ib < min64(r1, n0 + kGroup)) urow_take_group(c, col, ib, g0, nr, ut[cur], seb[cur]);
        __syncwarp(); // the next group's states in memory
        urow_substitute(c, col, acc, j, n0, (int)min64(kGroup, r1 - n0), ut[cur ^ 1], &seb[cur ^ 1]);
      }
    } else {
      for (int64_t ib = n0 + kGroup + (threadIdx.x - 32); ib < r1; ib += blockDim.x - 32)
        urow_take_group(c, col, ib, g0, nr, ut[cur], seb[cur]);
    }
    __syncthreads(); // the next group's u and every state below it, before the group after
  }
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
  // a column's states in shared memory up to the default 48 KB a block (r <= 1536; H100,
  // n = 16384, nb = 512, one stream: U rows 400 ms through global scratch);
  // EXSTAR_CUDA_UROW_GLOBAL=1 takes the global scratch always (the test of that path)
  const size_t col_bytes = (size_t)r * sizeof(exstar_bdd);
  const bool in_shared = col_bytes <= 48 * 1024 && !std::getenv("EXSTAR_CUDA_UROW_GLOBAL");
  const int64_t ne = r * ((r + kGroup - 1) / kGroup);
  const size_t ea_bytes = ((size_t)ne * sizeof(int) + 255) / 256 * 256;
  scratch sc;
  cudaError_t e = sc.make(v, ea_bytes + (in_shared ? 0 : col_bytes * (size_t)nc), stream, c0, r, K);
  if (e != cudaSuccess) return status(e);
  if (v->lc && K > 0) row_map_kernel<<<blocks_for(r * K, 256), 256, 0, stream>>>(sc.g, sc.perms, K);
  urow_ctx c;
  c.g = sc.g;
  c.U = v->a[tu], c.ldu = v->lda[tu];
  c.L = v->lc ? v->lc[K] : v->a[tl], c.ldl = v->lc ? v->ldlc[K] : v->lda[tl]; // L(K, K)
  c.st = (const exstar_bdd *)v->st[tu], c.ldst = v->ldst[tu];
  c.S = in_shared ? nullptr : (exstar_bdd *)(sc.extra + ea_bytes), c.lds = r;
  c.c0 = c0, c.j0 = j0, c.exact_only = exact_only, c.rep = repaired, c.ea = (const int *)sc.extra;
  urow_exps_kernel<<<blocks_for(ne, 256), 256, 0, stream>>>(c.L, c.ldl, r, (int *)sc.extra);
  if (!in_shared)
    e = cudaMemcpy2DAsync(c.S, col_bytes, v->st[tu], (size_t)v->ldst[tu] * sizeof(exstar_bdd), col_bytes, (size_t)nc,
                          cudaMemcpyDeviceToDevice, stream);
  if (e == cudaSuccess) urow_kernel<<<(unsigned)nc, 128, in_shared ? col_bytes : 0, stream>>>(c, r1);
  if (e == cudaSuccess) e = cudaGetLastError();
  const cudaError_t f = sc.release(stream);
  return status(e != cudaSuccess ? e : f);
}
