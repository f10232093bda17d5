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

// ---- the panel and the block rows of U ------------------------------------------------------
// Same definitions as kernels_cpu/lu_tiled.cpp, laid out for the GPU (right-looking inside a
// panel and a U block row, where the CPU kernels are left-looking by groups; the bits are the
// same because every accepted rounding is the correct one):
//  - the panel is gathered into a contiguous scratch (values P and states S, rows [c0, m)); the
//    states of the group's columns hold every term of the columns before the group;
//  - per column j: v(i) := S(i, j) rounded for every row at once (each row first takes the
//    previous column's term −l(i, j−1)·u(j−1, c) in the group's later columns), a block-wise
//    iamax (core/iamax.h); then one kernel merges the blocks' winners, interchanges, divides
//    column j and rounds row j of U in the group's later columns (2 launches a column);
//  - after a group: its rows are final (later pivots are below them): their U entries in the
//    panel's later columns by a half-warp substitution (the double-doubles in registers), then
//    the group's terms into the later columns' states through the Level-3 fast sums (a thread
//    an entry, a split constant per entry from its row's and column's largest factors:
//    core/gemm.h);
//  - a block row of U: one launch, a block a column, group after group (substitution by a
//    warp, then the group's terms into the rows below by the fast sums, by the whole block);
//  - laswp: the swaps played once in shared memory, then the rows moved in parallel.
// Every entry is rounded from its bounded double-double when the bound proves it, else from the
// exact sum of all its terms read from the tiles (core accumulator, summed by the whole warp:
// exact_sum_warp). Scratch is stream-ordered (cudaMallocAsync / cudaFreeAsync).

#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"
#include "core/gemm.h"
#include "core/iamax.h"
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int64_t kGroup = 16; // as the CPU kernel (any value gives the same bits)
constexpr int kRows = 256;     // threads of the row-parallel kernels

__host__ __device__ inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// The tile grid in device memory.
struct dgrid {
  int64_t m, n, nb, mt, nt;
  double *const *a;
  const int64_t *lda;
  exstar_bdd *const *st;
  const int64_t *ldst;
  __device__ double &at(int64_t r, int64_t c) const
  {
    const int64_t t = r / nb + (c / nb) * mt;
    return a[t][(r % nb) + (c % nb) * lda[t]];
  }
  __device__ exstar_bdd &s(int64_t r, int64_t c) const
  {
    const int64_t t = r / nb + (c / nb) * mt;
    return st[t][(r % nb) + (c % nb) * ldst[t]];
  }
};

// RN(a − Σ_{k<kend} l(k)·u(k)), every term exact (the definition's value), computed by a whole
// warp: lane q takes the terms k ≡ q (mod 32) into its own FPE, spilling into the warp's
// accumulator `acc` (shared memory, EXSTAR_ACC_WORDS words, atomics), then every FPE and the
// flags go into it and lane 0 rounds it. The same core steps as the CPU kernel's exact_sum (an
// exact accumulator: the split of the terms among lanes cannot show). Every lane of the warp
// calls it with the same arguments; every lane gets the value.
template <class L, class U>
__device__ __noinline__ double exact_sum_warp(exstar_i64 *acc, double a, int64_t kend, L l, U u)
{
  const int lane = threadIdx.x & 31;
  for (int w = lane; w < EXSTAR_ACC_WORDS; w += 32) acc[w] = 0;
  __syncwarp();
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = lane == 0 ? exstar_sum_step_atomic(acc, fpe, a) : 0;
  for (int64_t k = lane; k < kend; k += 32) flags |= exstar_dot_step_atomic(acc, fpe, -l(k), u(k));
  exstar_acc_flush_fpe_atomic(acc, fpe);
  flags = (int)__reduce_or_sync(0xffffffffu, (unsigned)flags);
  __syncwarp();
  double y = 0.0;
  if (lane == 0) {
    exstar_acc_add_flags_private(acc, flags);
    y = exstar_acc_round_private(acc);
  }
  y = __shfl_sync(0xffffffffu, y, 0);
  __syncwarp();
  return y;
}

__device__ inline void count_repair(unsigned long long *rep)
{
  if (rep && (threadIdx.x & 31) == 0) atomicAdd(rep, 1ull);
}

// The lanes of a warp with want set get y := c.exact(i, j, kend), one entry after another, each
// by the whole warp (every lane of the warp calls it).
template <class C>
__device__ inline void exact_where(const C &c, exstar_i64 *wacc, bool want, int64_t i, int64_t j, int64_t kend,
                                   double &y)
{
  unsigned need = __ballot_sync(0xffffffffu, want);
  while (need) {
    const int src = __ffs(need) - 1;
    need &= need - 1;
    const int64_t ii = __shfl_sync(0xffffffffu, i, src), jj = __shfl_sync(0xffffffffu, j, src),
                  ke = __shfl_sync(0xffffffffu, kend, src);
    const double v = c.exact(wacc, ii, jj, ke);
    if ((int)(threadIdx.x & 31) == src) y = v;
  }
}

// The gathered panel: P(i, j) and S(i, j) for rows [c0, m), columns [c0, c1), column-major.
struct panel_ctx {
  dgrid g;
  double *P;
  exstar_bdd *S;
  int64_t *pos; // pos[i - c0]: the row that row i was before this panel's interchanges
  int64_t c0, c1, rows;
  int exact_only;
  unsigned long long *rep;
  __device__ double &a(int64_t i, int64_t j) const { return P[(i - c0) + (j - c0) * rows]; }
  __device__ exstar_bdd &s(int64_t i, int64_t j) const { return S[(i - c0) + (j - c0) * rows]; }
  __device__ double l(int64_t i, int64_t k) const { return a(i, k); }
  struct lf {
    const panel_ctx *c;
    int64_t i, left;
    __device__ double operator()(int64_t k) const { return k < c->c0 ? c->g.at(left, k) : c->a(i, k); }
  };
  struct uf {
    const panel_ctx *c;
    int64_t j;
    __device__ double operator()(int64_t k) const { return k < c->c0 ? c->g.at(k, j) : c->a(k, j); }
  };
  // L left of the panel from the tiles (row pos), the rest from the panel; U above from the tiles.
  __device__ double exact(exstar_i64 *wacc, int64_t i, int64_t j, int64_t kend) const
  {
    count_repair(rep);
    return exact_sum_warp(wacc, a(i, j), kend, lf{this, i, pos[i - c0]}, uf{this, j});
  }
};

// Block row K of U in block column J: tile (K, J) in place, its state copied to S.
struct urow_ctx {
  dgrid g;
  double *U;
  int64_t ldu;
  const double *L;
  int64_t ldl;
  exstar_bdd *S;
  int64_t lds, c0, j0;
  int exact_only;
  unsigned long long *rep;
  __device__ double &a(int64_t i, int64_t j) const { return U[(i - c0) + (j - j0) * ldu]; }
  __device__ exstar_bdd &s(int64_t i, int64_t j) const { return S[(i - c0) + (j - j0) * lds]; }
  __device__ double l(int64_t i, int64_t k) const { return L[(i - c0) + (k - c0) * ldl]; }
  struct lf {
    const dgrid *g;
    int64_t i;
    __device__ double operator()(int64_t k) const { return g->at(i, k); }
  };
  struct uf {
    const dgrid *g;
    int64_t j;
    __device__ double operator()(int64_t k) const { return g->at(k, j); }
  };
  __device__ double exact(exstar_i64 *wacc, int64_t i, int64_t j, int64_t kend) const
  {
    count_repair(rep);
    return exact_sum_warp(wacc, a(i, j), kend, lf{&g, i}, uf{&g, j});
  }
};

// Rows [r0, r1) (at most kGroup) of U in the columns [col0, col0 + ncols), in order; s(i, j)
// holds the terms k < r0. A half-warp a column, a lane a row, the bounded double-doubles in
// registers: row r0 + t is rounded (or computed exactly) by its lane and broadcast, then the
// rows below take −l(i, r0 + t)·u(r0 + t, j).
template <class C>
__global__ void __launch_bounds__(128) usub_kernel(C c, int64_t col0, int64_t ncols, int64_t r0, int64_t r1)
{
  const int lane = threadIdx.x & 31, half = lane >> 4, r = lane & 15;
  const int64_t jj = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 4;
  const int64_t j = col0 + jj, i = r0 + r;
  const bool mine = jj < ncols && i < r1;
  __shared__ exstar_i64 wacc[4][EXSTAR_ACC_WORDS];
  exstar_bdd d{0.0, 0.0, 0.0, 0.0};
  if (mine) d = c.s(i, j);
  const int nr = (int)(r1 - r0);
  for (int t = 0; t < nr; ++t) {
    double y = 0.0;
    bool want = false;
    if (mine && r == t) want = c.exact_only || !exstar_bdd_round_ok(&d, &y);
    exact_where(c, wacc[threadIdx.x >> 5], want, i, j, i, y);
    if (mine && r == t) c.a(i, j) = y;
    y = __shfl_sync(0xffffffffu, y, (half << 4) + t);
    __syncwarp(); // the value in memory too, for the exact path of the rows below
    // a product off the fast path poisons the entry's sum: its rounding then declines
    if (mine && r > t && !exstar_bdd_add_product(&d, -c.l(i, r0 + t), y))
      d.hi = exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
  }
}

template <class C>
void usub(const C &c, int64_t col0, int64_t ncols, int64_t r0, int64_t r1, cudaStream_t stream)
{
  if (ncols <= 0 || r1 <= r0) return;
  usub_kernel<<<(unsigned)((ncols + 7) / 8), 128, 0, stream>>>(c, col0, ncols, r0, r1);
}

// A block row of U in one launch, a block of 128 threads a column, group after group: the first
// warp's lanes 0..15 hold the group's rows (bounded double-doubles in registers) for the
// substitution, then the whole block takes the group's terms into the states of the rows below
// through the fast sums (core/gemm.h: a split constant per entry from its row's and its column's
// largest factors).
__global__ void __launch_bounds__(128) urow_kernel(urow_ctx c, int64_t r1)
{
  __shared__ exstar_i64 acc[EXSTAR_ACC_WORDS];
  __shared__ double ut[kGroup];
  __shared__ int seb;
  const int lane = threadIdx.x & 31;
  const int64_t j = c.j0 + blockIdx.x;
  for (int64_t g0 = c.c0; g0 < r1; g0 += kGroup) {
    const int nr = (int)min64(kGroup, r1 - g0);
    if (threadIdx.x < 32) { // the substitution, by the first warp
      const int64_t i = g0 + lane;
      const bool mine = lane < nr;
      exstar_bdd d{0.0, 0.0, 0.0, 0.0};
      double lrow[kGroup]; // the lane's row of L in the group, loaded together
#pragma unroll
      for (int t = 0; t < kGroup; ++t) lrow[t] = mine && t < lane ? c.l(i, g0 + t) : 0.0;
      if (mine) d = c.s(i, j); // every term k < g0
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
          eb = exstar_exp_max(eb, exstar_exp_above(y));
          if (mine && lane > t && !exstar_bdd_add_product(&d, -lrow[t], y))
            d.hi = exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
        }
      }
      if (lane == 0) seb = eb;
    }
    __syncthreads(); // the group's values of U
    const int ep = exstar_gemm_count_exp(nr);
    const int eb = seb;
    for (int64_t ib = g0 + nr + threadIdx.x; ib < r1; ib += blockDim.x) {
      double lv[kGroup];
      int ea = EXSTAR_GEMM_EXP_ZERO;
#pragma unroll
      for (int t = 0; t < kGroup; ++t) {
        lv[t] = t < nr ? c.l(ib, g0 + t) : 0.0;
        ea = exstar_exp_max(ea, t < nr ? exstar_exp_above(lv[t]) : EXSTAR_GEMM_EXP_ZERO);
      }
      const double sigma = exstar_gemm_sigma(ea, eb, ep);
      double S = 0.0, R = 0.0;
#pragma unroll
      for (int t = 0; t < kGroup; ++t)
        if (t < nr) exstar_gemm_term(lv[t], ut[t], sigma, &S, &R);
      exstar_gemm_state_add(&c.s(ib, j), S, R, exstar_gemm_bound(nr, sigma), -1.0);
    }
    __syncthreads(); // the states of the rows below, and ut, before the next group
  }
}

// S(i, j) −= Σ_{l<k} A(i, l)·B(l, j) for i < m, j < n, k <= kGroup, through the fast sums: a
// thread a row (its k factors and their exponent bound in registers) and kCols columns of a
// block (theirs in shared memory, loaded once by the block).
constexpr int kCols = 8;
__global__ void __launch_bounds__(128) state_sub_kernel(int64_t m, int64_t n, int k, const double *A, int64_t lda,
                                                        const double *B, int64_t ldb, exstar_bdd *S, int64_t lds)
{
  __shared__ double sb[kCols][kGroup];
  __shared__ int seb[kCols];
  const int64_t j0 = (int64_t)blockIdx.y * kCols;
  const int nc = (int)min64(kCols, n - j0);
  for (int x = threadIdx.x; x < kCols * kGroup; x += blockDim.x) {
    const int q = x / kGroup, l = x % kGroup;
    sb[q][l] = q < nc && l < k ? B[l + (j0 + q) * ldb] : 0.0;
  }
  __syncthreads();
  if (threadIdx.x < kCols) {
    int e = EXSTAR_GEMM_EXP_ZERO;
    for (int l = 0; l < k; ++l) e = exstar_exp_max(e, exstar_exp_above(sb[threadIdx.x][l]));
    seb[threadIdx.x] = e;
  }
  __syncthreads();
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  double a[kGroup];
  int ea = EXSTAR_GEMM_EXP_ZERO;
#pragma unroll
  for (int l = 0; l < kGroup; ++l) {
    a[l] = l < k ? A[i + l * lda] : 0.0;
    ea = exstar_exp_max(ea, l < k ? exstar_exp_above(a[l]) : EXSTAR_GEMM_EXP_ZERO);
  }
  const int ep = exstar_gemm_count_exp(k);
  for (int q = 0; q < nc; ++q) {
    const double sigma = exstar_gemm_sigma(ea, seb[q], ep);
    double s = 0.0, r = 0.0;
#pragma unroll
    for (int l = 0; l < kGroup; ++l)
      if (l < k) exstar_gemm_term(a[l], sb[q][l], sigma, &s, &r);
    exstar_gemm_state_add(&S[i + (j0 + q) * lds], s, r, exstar_gemm_bound(k, sigma), -1.0);
  }
}

void state_sub(int64_t m, int64_t n, int64_t k, const double *A, int64_t lda, const double *B, int64_t ldb,
               exstar_bdd *S, int64_t lds, cudaStream_t stream)
{
  if (m <= 0 || n <= 0 || k <= 0) return;
  state_sub_kernel<<<dim3((unsigned)((m + 127) / 128), (unsigned)((n + kCols - 1) / kCols)), 128, 0, stream>>>(
      m, n, (int)k, A, lda, B, ldb, S, lds);
}

// The winner of (key, index, value) pairs under exstar_iamax_beats.
struct cand {
  exstar_i64 key, idx;
  double val;
};
__device__ inline void take(cand &x, const cand &y)
{
  if (exstar_iamax_beats(y.key, y.idx, x.key, x.idx)) x = y;
}

// Column j of the panel, rows [j, m): first the previous column's terms (j > g0: s(i, c) +=
// −l(i, j−1)·u(j−1, c) for c in [j, g1), right-looking inside the group), then v(i) := s(i, j)
// rounded (every term k < j is in), or exact. The block's iamax winner to parts[blockIdx.x];
// v(j) to *vj.
__global__ void __launch_bounds__(kRows) col_v_kernel(panel_ctx c, int64_t m, int64_t j, int64_t g0, int64_t g1,
                                                      cand *parts, double *vj)
{
  const int64_t i = j + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  cand x{EXSTAR_IAMAX_EMPTY, EXSTAR_IAMAX_EMPTY, 0.0};
  if (i < m) {
    if (j > g0) { // eight entries at a time, their loads first (a round of memory latency each)
      const double l = -c.a(i, j - 1);
      for (int64_t cb = j; cb < g1; cb += 8) {
        exstar_bdd d[8];
        double u[8];
#pragma unroll
        for (int q = 0; q < 8; ++q)
          if (cb + q < g1) d[q] = c.s(i, cb + q), u[q] = c.a(j - 1, cb + q);
#pragma unroll
        for (int q = 0; q < 8; ++q)
          if (cb + q < g1) {
            if (!exstar_bdd_add_product(&d[q], l, u[q])) d[q].hi = exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
            c.s(i, cb + q) = d[q];
          }
      }
    }
  }
  __shared__ exstar_i64 wacc[kRows / 32][EXSTAR_ACC_WORDS];
  double y = 0.0;
  bool want = false;
  if (i < m) {
    const exstar_bdd d = c.s(i, j);
    want = c.exact_only || !exstar_bdd_round_ok(&d, &y);
  }
  exact_where(c, wacc[threadIdx.x >> 5], want, i, j, j, y);
  if (i < m) {
    c.a(i, j) = y;
    if (i == j) *vj = y;
    x = cand{exstar_iamax_key(y), i, y};
  }
  for (int off = 16; off > 0; off >>= 1) {
    cand y{(exstar_i64)__shfl_down_sync(0xffffffffu, (long long)x.key, off),
           (exstar_i64)__shfl_down_sync(0xffffffffu, (long long)x.idx, off), __shfl_down_sync(0xffffffffu, x.val, off)};
    take(x, y);
  }
  __shared__ cand w[kRows / 32];
  if ((threadIdx.x & 31) == 0) w[threadIdx.x >> 5] = x;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int q = 1; q < (int)(blockDim.x >> 5); ++q) take(x, w[q]);
    parts[blockIdx.x] = x;
  }
}

// The pivot of column j (the winner of the parts), its interchange in the panel (values of
// every other column, states of the columns after j, pos, ipiv), the division of column j, and
// row j of U in the group's columns after j.
__global__ void __launch_bounds__(kRows) col_fin_kernel(panel_ctx c, int64_t m, int64_t j, int64_t g1,
                                                        const cand *parts, int nparts, const double *vj, int32_t *ipiv)
{
  __shared__ cand win;
  if (threadIdx.x < 32) {
    cand x{EXSTAR_IAMAX_EMPTY, EXSTAR_IAMAX_EMPTY, 0.0};
    for (int q = threadIdx.x; q < nparts; q += 32) take(x, parts[q]);
    for (int off = 16; off > 0; off >>= 1) {
      cand y{(exstar_i64)__shfl_down_sync(0xffffffffu, (long long)x.key, off),
             (exstar_i64)__shfl_down_sync(0xffffffffu, (long long)x.idx, off),
             __shfl_down_sync(0xffffffffu, x.val, off)};
      take(x, y);
    }
    if (threadIdx.x == 0) win = x;
  }
  __syncthreads();
  const int64_t piv = win.idx;
  const double ujj = win.val, old = *vj;
  const int64_t i = j + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    if (i == j) {
      c.a(j, j) = ujj;
    } else if (i == piv) {
      c.a(i, j) = ujj == 0.0 ? old : old / ujj;
    } else if (ujj != 0.0) {
      c.a(i, j) = c.a(i, j) / ujj;
    }
  }
  if (blockIdx.x == 0) {
    if (piv != j)
      for (int64_t cc = c.c0 + threadIdx.x; cc < c.c1; cc += blockDim.x) {
        if (cc == j) continue;
        const double t = c.a(j, cc);
        c.a(j, cc) = c.a(piv, cc);
        c.a(piv, cc) = t;
        if (cc > j) {
          const exstar_bdd u = c.s(j, cc);
          c.s(j, cc) = c.s(piv, cc);
          c.s(piv, cc) = u;
        }
      }
    if (threadIdx.x == 0) {
      ipiv[j - c.c0] = (int32_t)(piv + 1);
      if (piv != j) {
        const int64_t t = c.pos[j - c.c0];
        c.pos[j - c.c0] = c.pos[piv - c.c0];
        c.pos[piv - c.c0] = t;
      }
    }
    __syncthreads();
    // row j of U in the group's later columns (at most kGroup - 1: the first warp): every term
    // k < j is in its state
    __shared__ exstar_i64 wacc[EXSTAR_ACC_WORDS];
    const int64_t cc = j + 1 + threadIdx.x;
    if (threadIdx.x < 32) {
      double y = 0.0;
      bool want = false;
      if (cc < g1) {
        const exstar_bdd d = c.s(j, cc);
        want = c.exact_only || !exstar_bdd_round_ok(&d, &y);
      }
      exact_where(c, wacc, want, j, cc, j, y);
      if (cc < g1) c.a(j, cc) = y;
    }
  }
}

// Gathers (back = 0: values, states and pos) or scatters (back = 1: values) the panel.
__global__ void panel_copy_kernel(panel_ctx c, int back)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= c.rows * (c.c1 - c.c0)) return;
  const int64_t i = c.c0 + x % c.rows, j = c.c0 + x / c.rows;
  if (back) {
    c.g.at(i, j) = c.a(i, j);
  } else {
    c.a(i, j) = c.g.at(i, j);
    c.s(i, j) = c.g.s(i, j);
    if (j == c.c0) c.pos[i - c.c0] = i;
  }
}

// The device's default memory pool keeps up to 1 GiB of what the scratch allocations free (its
// default gives it back at every synchronization, and a panel's scratch of hundreds of MB was then
// mapped again for every panel).
void keep_pool()
{
  static std::atomic<unsigned> done{0};
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev >= 32 || (done.load() & (1u << dev))) return;
  cudaMemPool_t pool;
  if (cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess) {
    uint64_t keep = (uint64_t)1 << 30;
    (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  }
  done.fetch_or(1u << dev);
}

// The grid arrays and a scratch of `extra` bytes in one stream-ordered device allocation; the
// host copy of the arrays is freed by the stream once copied.
struct scratch {
  dgrid g;
  char *base = nullptr, *extra = nullptr;
  cudaError_t make(const exstar_cuda_tiles *v, size_t extra_bytes, cudaStream_t stream)
  {
    keep_pool();
    const size_t t = (size_t)(v->mt * v->nt), arrays = 4 * t * sizeof(void *);
    const size_t head = (arrays + 255) / 256 * 256;
    cudaError_t e = cudaMallocAsync((void **)&base, head + extra_bytes, stream);
    if (e != cudaSuccess) return e;
    char *h = (char *)std::malloc(arrays);
    if (!h) return cudaErrorMemoryAllocation;
    std::memcpy(h, v->a, t * sizeof(void *));
    std::memcpy(h + t * sizeof(void *), v->lda, t * sizeof(int64_t));
    std::memcpy(h + 2 * t * sizeof(void *), v->st, t * sizeof(void *));
    std::memcpy(h + 3 * t * sizeof(void *), v->ldst, t * sizeof(int64_t));
    e = cudaMemcpyAsync(base, h, arrays, cudaMemcpyHostToDevice, stream);
    if (e == cudaSuccess) e = cudaLaunchHostFunc(stream, [](void *p) { std::free(p); }, h);
    else std::free(h);
    g = dgrid{v->m, v->n, v->nb, v->mt, v->nt, (double *const *)base, (const int64_t *)(base + t * sizeof(void *)),
              (exstar_bdd *const *)(base + 2 * t * sizeof(void *)), (const int64_t *)(base + 3 * t * sizeof(void *))};
    extra = base + head;
    return e;
  }
  cudaError_t release(cudaStream_t stream) { return base ? cudaFreeAsync(base, stream) : cudaSuccess; }
};

int status(cudaError_t e)
{
  if (e == cudaSuccess) e = cudaGetLastError();
  return e == cudaSuccess ? 0 : -(int)e;
}

unsigned blocks_for(int64_t n, int threads) { return (unsigned)((n + threads - 1) / threads); }

} // namespace

extern "C" int exstar_cuda_lu_panel(const exstar_cuda_tiles *v, int64_t K, int32_t *ipiv, int exact_only,
                                    unsigned long long *repaired, exstar_cuda_stream s)
{
  cudaStream_t stream = (cudaStream_t)s;
  const int64_t m = v->m, c0 = K * v->nb, c1 = min64(v->n, c0 + v->nb), rows = m - c0, w = c1 - c0;
  if (rows <= 0 || w <= 0) return 0;
  const int nparts_max = (int)blocks_for(rows, kRows);
  const size_t pbytes = (size_t)(rows * w) * sizeof(double), sbytes = (size_t)(rows * w) * sizeof(exstar_bdd);
  const size_t qbytes = (size_t)rows * sizeof(int64_t), cbytes = (size_t)nparts_max * sizeof(cand);
  scratch sc;
  cudaError_t e = sc.make(v, sbytes + pbytes + qbytes + cbytes + 64, stream);
  if (e != cudaSuccess) return status(e);
  panel_ctx c;
  c.g = sc.g;
  c.S = (exstar_bdd *)sc.extra;
  c.P = (double *)(sc.extra + sbytes);
  c.pos = (int64_t *)(sc.extra + sbytes + pbytes);
  cand *parts = (cand *)(sc.extra + sbytes + pbytes + qbytes);
  double *vj = (double *)(sc.extra + sbytes + pbytes + qbytes + cbytes);
  c.c0 = c0, c.c1 = c1, c.rows = rows, c.exact_only = exact_only, c.rep = repaired;
  panel_copy_kernel<<<blocks_for(rows * w, 256), 256, 0, stream>>>(c, 0);
  for (int64_t g0 = c0; g0 < c1 && g0 < m; g0 += kGroup) {
    // the states of rows >= g0 in columns >= g0 hold every term k < g0
    const int64_t g1 = min64(c1, g0 + kGroup), gr1 = min64(g1, m);
    for (int64_t j = g0; j < gr1; ++j) {
      const unsigned nb = blocks_for(m - j, kRows);
      col_v_kernel<<<nb, kRows, 0, stream>>>(c, m, j, g0, g1, parts, vj);
      col_fin_kernel<<<nb, kRows, 0, stream>>>(c, m, j, g1, parts, (int)nb, vj, ipiv);
    }
    if (g1 < c1) { // the group's rows are final: their U entries in the later columns, then the
                   // group's terms into the states of the rows and columns after it
      usub(c, g1, c1 - g1, g0, gr1, stream);
      state_sub(m - g1, c1 - g1, g1 - g0, &c.P[(g1 - c0) + (g0 - c0) * rows], rows, &c.P[(g0 - c0) + (g1 - c0) * rows],
                rows, &c.S[(g1 - c0) + (g1 - c0) * rows], rows, stream);
    }
  }
  panel_copy_kernel<<<blocks_for(rows * w, 256), 256, 0, stream>>>(c, 1);
  e = cudaGetLastError();
  const cudaError_t f = sc.release(stream);
  return status(e != cudaSuccess ? e : f);
}

extern "C" int exstar_cuda_lu_urow(const exstar_cuda_tiles *v, int64_t K, int64_t J, int exact_only,
                                   unsigned long long *repaired, exstar_cuda_stream s)
{
  cudaStream_t stream = (cudaStream_t)s;
  const int64_t c0 = K * v->nb, r1 = min64(v->m, c0 + v->nb), r = r1 - c0;
  const int64_t j0 = J * v->nb, j1 = min64(v->n, j0 + v->nb), nc = j1 - j0;
  if (r <= 0 || nc <= 0) return 0;
  const int64_t tl = K + K * v->mt, tu = K + J * v->mt;
  scratch sc;
  cudaError_t e = sc.make(v, (size_t)(r * nc) * sizeof(exstar_bdd), stream);
  if (e != cudaSuccess) return status(e);
  urow_ctx c;
  c.g = sc.g;
  c.U = v->a[tu], c.ldu = v->lda[tu], c.L = v->a[tl], c.ldl = v->lda[tl];
  c.S = (exstar_bdd *)sc.extra, c.lds = r, c.c0 = c0, c.j0 = j0, c.exact_only = exact_only, c.rep = repaired;
  e = cudaMemcpy2DAsync(c.S, (size_t)r * sizeof(exstar_bdd), v->st[tu], (size_t)v->ldst[tu] * sizeof(exstar_bdd),
                        (size_t)r * sizeof(exstar_bdd), (size_t)nc, cudaMemcpyDeviceToDevice, stream);
  if (e == cudaSuccess) urow_kernel<<<(unsigned)nc, 128, 0, stream>>>(c, r1);
  if (e == cudaSuccess) e = cudaGetLastError();
  const cudaError_t f = sc.release(stream);
  return status(e != cudaSuccess ? e : f);
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
  for (int64_t q = threadIdx.x; q < rows; q += blockDim.x) pos[q] = (int32_t)q;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int64_t q = 0; q < npiv; ++q) {
      const int64_t p = (int64_t)ipiv[q] - 1 - c0;
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

__global__ void move_kernel(dgrid g, int64_t nlist, const int64_t *list, const int64_t *src, int64_t j0, int64_t ncols,
                            int states, double *ta, exstar_bdd *ts, int back)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= nlist * ncols) return;
  const int64_t e = x % nlist, cc = j0 + x / nlist;
  if (back) {
    g.at(list[e], cc) = ta[x];
    if (states) g.s(list[e], cc) = ts[x];
  } else {
    ta[x] = g.at(src[e], cc);
    if (states) ts[x] = g.s(src[e], cc);
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
  const unsigned blocks = blocks_for(nlist * ncols, 256);
  move_kernel<<<blocks, 256, 0, stream>>>(sc.g, nlist, list, src, j0, ncols, states, ta, ts, 0);
  move_kernel<<<blocks, 256, 0, stream>>>(sc.g, nlist, list, src, j0, ncols, states, ta, ts, 1);
  if (e == cudaSuccess) e = cudaGetLastError();
  const cudaError_t f = sc.release(stream);
  return status(e != cudaSuccess ? e : f);
}
