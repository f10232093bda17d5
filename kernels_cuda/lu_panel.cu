// The tiled exact LU's panel on the GPU (exstar_cuda_lu_panel). Definitions and bits:
// kernels_cpu/lu_tiled.cpp.
#include "kernels_cuda/lu_tiled_common.cuh"
#include "kernels_cuda/gemm.h"
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// ---- the panel: one persistent launch ------------------------------------------------------
// The panel is gathered into a contiguous scratch (values P and states S) and its rows stay
// where they are: a pivot only marks its row as spent and records it (prow), every thread keeps
// the logical position of the rows it owns (lpos: row r is owned by thread (r − c0) mod T, the
// same in every phase), and the interchanges are played once at the end (ipiv as the pivots
// come, the rows scattered back to the tiles in their final order). The exact path reads the
// original a(i, j) from the tiles, which keep it until that scatter. Phases, each ended by a
// grid-wide barrier (one cooperative launch; one launch per phase where the device cannot):
//  - rows(k, j): the pivot of column k = j − 1 (every block merges the same block winners), its
//    row of U in the group's later columns (every block, the same values), the division of
//    column k; then every row's state in the group's columns [j, g1) takes −l(r, k)·u(k, c),
//    column j is rounded (or computed exactly) and each block's iamax winner is written;
//  - after a group: its rows of U in the panel's later columns (a half-warp a column, the
//    bounded double-doubles in registers), then the group's terms into the later columns'
//    states through the Level-3 fast sums (core/gemm.h).

// An iamax candidate: key and logical row (exstar_iamax_beats), value, physical row.
struct cand {
  exstar_i64 key, idx;
  double val;
  int64_t phys;
};
__device__ inline void take(cand &x, const cand &y)
{
  if (exstar_iamax_beats(y.key, y.idx, x.key, x.idx)) x = y;
}
__device__ inline cand shfl_down(const cand &x, int off)
{
  return cand{(exstar_i64)__shfl_down_sync(0xffffffffu, (long long)x.key, off),
              (exstar_i64)__shfl_down_sync(0xffffffffu, (long long)x.idx, off), __shfl_down_sync(0xffffffffu, x.val, off),
              (int64_t)__shfl_down_sync(0xffffffffu, (long long)x.phys, off)};
}
__device__ inline cand warp_winner(cand x)
{
  for (int off = 16; off > 0; off >>= 1) take(x, shfl_down(x, off));
  return x;
}

// The trace's layout (EXSTAR_CUDA_PANEL_TRACE) for n phases: [0, n] the phase ends, [n+1, 2n+1]
// the pivot-row ends, then the declined roundings of the rows, the pivot rows' U and usub.
__host__ __device__ constexpr int64_t trace_declines(int64_t n) { return 2 * n + 2; }
__host__ __device__ constexpr int64_t trace_words(int64_t n) { return trace_declines(n) + 3; }

struct panel_ctx {
  dgrid g;
  double *P;     // values, physical rows [c0, m), columns [c0, c1)
  exstar_bdd *S; // states, the same
  int64_t *prow; // prow[k − c0]: the physical row of pivot k
  int64_t *lpos; // lpos[r − c0]: row r's logical position (its owner's alone; final at the end)
  int32_t *dead; // dead[r − c0]: row r was a pivot (its owner's alone)
  cand *parts;   // [2][nparts]: each block's winner, by the column's parity
  int32_t *ipiv;
  double *lc;             // the column copy to write (rows [c0, m) in the final order), or NULL
  int64_t ldlc;
  int32_t *perm;          // the row order after the panel to write (2m), or NULL
  const int32_t *perm0;   // the row order before it (NULL: the first panel, the identity)
  int64_t c0, c1, m, rows, nparts;
  int64_t left; // a node's left part at most (walk_phases)
  int exact_only;
  unsigned long long *rep;
  int64_t trace_n;
  unsigned long long *trace; // measurements (EXSTAR_CUDA_PANEL_TRACE), trace_words(trace_n) of them
  __device__ void count_declines(int what, bool want) const
  {
    if (trace && want) atomicAdd(&trace[trace_declines(trace_n) + what], 1ull);
  }
  __device__ double &a(int64_t r, int64_t j) const { return P[(r - c0) + (j - c0) * rows]; }
  __device__ exstar_bdd &s(int64_t r, int64_t j) const { return S[(r - c0) + (j - c0) * rows]; }
  // The terms of thread t of step for RN(a(r, j) − Σ_{k<kend} l(r, k)·u(k, j)), r physical: the
  // tiles left of the panel, then the panel's columns (u from the pivots' rows; ucur: u(kcur, j)
  // of the pivot being resolved, in shared memory, where it is not in P yet).
  template <class Sink>
  __device__ __forceinline__ int terms(Sink &sink, int64_t r, int64_t j, int64_t kend, const double *ucur,
                                       int64_t kcur, int t, int step, const terms_cache *tc = nullptr) const
  {
    int flags = grid_terms(sink, g, r, j, min64(kend, c0), t, step, tc);
    const double *Pr = P + (r - c0), *Pj = P + (j - c0) * rows;
    const int64_t *pr = prow, k0 = c0, nrows = rows;
    return flags | span_terms(sink, k0, kend, t, step, [=](int64_t k) { return Pr[(k - k0) * nrows]; },
                              [=](int64_t k) { return ucur && k == kcur ? *ucur : Pj[pr[k - k0] - k0]; });
  }
  __device__ double exact(exstar_i64 *wacc, int64_t r, int64_t j, int64_t kend, bool count = true,
                          const double *ucur = nullptr, int64_t kcur = -1) const
  {
    return exact_sum_warp(wacc, g.at(r, j), !exact_only, count ? rep : nullptr, [&](auto &sink, int t, int step) {
      return terms(sink, r, j, kend, ucur, kcur, t, step);
    });
  }
  // The same by the whole block (every thread calls it with the same arguments).
  __device__ double exact_block(exstar_i64 *bacc, int64_t r, int64_t j, int64_t kend, const double *ucur,
                                int64_t kcur) const
  {
    __shared__ terms_cache tc;
    fill_terms_cache(tc, g, r, j, min64(kend, c0));
    return exact_sum_block(bacc, g.at(r, j), !exact_only, rep, [&](auto &sink, int t, int step) {
      return terms(sink, r, j, kend, ucur, kcur, t, step, &tc);
    });
  }
};

// The lanes of a warp with want set get y := c.exact(r, j, kend, ...), one entry after another,
// each by the whole warp (every lane calls it).
__device__ inline void panel_exact_where(const panel_ctx &c, exstar_i64 *wacc, bool want, int64_t r, int64_t j,
                                         int64_t kend, double &y, bool count, const double *ucur, int64_t kcur)
{
  unsigned need = __ballot_sync(0xffffffffu, want);
  while (need) {
    const int src = __ffs(need) - 1;
    need &= need - 1;
    const int64_t rr = __shfl_sync(0xffffffffu, r, src), jj = __shfl_sync(0xffffffffu, j, src),
                  ke = __shfl_sync(0xffffffffu, kend, src);
    const double v = c.exact(wacc, rr, jj, ke, count, ucur, kcur);
    if ((int)(threadIdx.x & 31) == src) y = v;
  }
}

// The threads of a block with want set get y := c.exact(r0 + threadIdx.x, j, j, ...), one entry
// after another, each by the whole block (every thread calls it): a declined entry late in the
// factorization has ~n terms, and its column's pivot waits for it (a warp an entry: ~0.3 ms
// each at n = 16384, two thirds of the panels' time).
__device__ inline void panel_exact_block(const panel_ctx &c, exstar_i64 *bacc, bool want, int64_t r0, int64_t j,
                                         double &y, const double *ucur, int64_t kcur)
{
  __shared__ unsigned wants[kRows / 32];
  const unsigned b = __ballot_sync(0xffffffffu, want);
  if ((threadIdx.x & 31) == 0) wants[threadIdx.x >> 5] = b;
  if (!__syncthreads_or(want)) return; // also puts the block's l(·, k) in memory for the exact path
  for (int w = 0; w < (int)(blockDim.x >> 5); ++w)
    for (unsigned need = wants[w]; need; need &= need - 1) {
      const int src = w * 32 + __ffs(need) - 1;
      const double v = c.exact_block(bacc, r0 + src, j, j, ucur, kcur);
      if ((int)threadIdx.x == src) y = v;
    }
}

constexpr int kPanelThreads = kRows;

__device__ inline unsigned long long gtimer()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// rows(k, j): see the top of this section. k < c0: no pivot to resolve (the group's first
// column); j < 0: no column to round (the group's last pivot).
__device__ void rows_phase(const panel_ctx &c, int64_t k, int64_t j, int64_t g1, int64_t ph)
{
  __shared__ exstar_i64 bacc[EXSTAR_ACC_WORDS]; // the exact path's accumulator (warp 0's, then the block's)
  __shared__ double ut[kGroup]; // u(k, c) for c in [k + 1, g1)
  __shared__ cand win, wpart[kPanelThreads / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int64_t p = -1;
  double ukk = 0.0;
  if (k >= c.c0) {
    { // the block winners of column k, merged by the whole block (a load or two a thread)
      cand x{EXSTAR_IAMAX_EMPTY, EXSTAR_IAMAX_EMPTY, 0.0, -1};
      const cand *parts = c.parts + (k & 1) * c.nparts;
      for (int64_t q = threadIdx.x; q < c.nparts; q += blockDim.x) take(x, parts[q]);
      x = warp_winner(x);
      if (lane == 0) wpart[warp] = x;
    }
    __syncthreads();
    if (warp == 0) {
      cand x = lane < (int)(blockDim.x >> 5) ? wpart[lane] : cand{EXSTAR_IAMAX_EMPTY, EXSTAR_IAMAX_EMPTY, 0.0, -1};
      x = warp_winner(x);
      if (lane == 0) win = x;
      __syncwarp();
      const int64_t pr = win.phys;
      if (lane == 0) {
        c.prow[k - c.c0] = pr; // every block writes the same
        if (blockIdx.x == 0) c.ipiv[k - c.c0] = (int32_t)(win.idx + 1);
      }
      // row k of U in the group's later columns (every term k' < k is in the state)
      const int64_t cc = k + 1 + lane;
      double y = 0.0;
      bool want = false;
      if (cc < g1) {
        const exstar_bdd d = c.s(pr, cc);
        want = c.exact_only || !exstar_bdd_round_ok(&d, &y);
      }
      if (blockIdx.x == 0) c.count_declines(1, want);
      panel_exact_where(c, bacc, want, pr, cc, k, y, blockIdx.x == 0, nullptr, -1);
      if (cc < g1) ut[lane] = y, c.a(pr, cc) = y; // every block writes the same
    }
    __syncthreads();
    p = win.phys, ukk = win.val;
    if (c.trace && blockIdx.x == 0 && threadIdx.x == 0) c.trace[c.trace_n + 1 + ph] = gtimer();
  }
  const int64_t T = (int64_t)gridDim.x * blockDim.x;
  cand x{EXSTAR_IAMAX_EMPTY, EXSTAR_IAMAX_EMPTY, 0.0, -1};
  // block-uniform trips (the exact path below takes the whole block); row r is still thread
  // (r − c0) mod T's
  for (int64_t base = c.c0 + (int64_t)blockIdx.x * blockDim.x; base < c.m; base += T) {
    const int64_t r = base + threadIdx.x;
    // the row's flags, position and column-k value together (one round of memory latency)
    bool mine = r < c.m;
    const int32_t spent = mine ? c.dead[r - c.c0] : 1;
    int64_t lp = mine ? c.lpos[r - c.c0] : 0;
    const double v = mine && k >= c.c0 ? c.a(r, k) : 0.0;
    mine = mine && !spent;
    exstar_bdd sj{0.0, 0.0, 0.0, 0.0}; // s(r, j) once it has the term k
    bool have_sj = false;
    if (mine && k >= c.c0) {
      if (r == p) {
        c.dead[r - c.c0] = 1, c.lpos[r - c.c0] = k, mine = false;
      } else {
        if (lp == k) lp = win.idx, c.lpos[r - c.c0] = lp; // the interchange of row k and the pivot's
        const double l = ukk == 0.0 ? v : v / ukk;
        c.a(r, k) = l;
        if (j >= 0) { // the previous column's term in the group's columns [j, g1), eight at a time
          for (int64_t cb = j; cb < g1; cb += 8) {
            exstar_bdd d[8];
#pragma unroll
            for (int q = 0; q < 8; ++q)
              if (cb + q < g1) d[q] = c.s(r, cb + q);
#pragma unroll
            for (int q = 0; q < 8; ++q)
              if (cb + q < g1) {
                // a product off the fast path poisons the entry's sum: its rounding then declines
                if (!exstar_bdd_add_product(&d[q], -l, ut[cb + q - k - 1]))
                  d[q].hi = exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
                c.s(r, cb + q) = d[q];
              }
            if (cb == j) sj = d[0];
          }
          have_sj = true;
        }
      }
    }
    if (j < 0) continue;
    double y = 0.0;
    bool want = false;
    if (mine) {
      const exstar_bdd d = have_sj ? sj : c.s(r, j);
      want = c.exact_only || !exstar_bdd_round_ok(&d, &y);
    }
    c.count_declines(0, want);
    panel_exact_block(c, bacc, want, base, j, y, k >= c.c0 ? &ut[j - k - 1] : nullptr, k);
    if (mine) {
      c.a(r, j) = y;
      take(x, cand{exstar_iamax_key(y), lp, y, r});
    }
  }
  if (j < 0) return;
  x = warp_winner(x);
  if (lane == 0) wpart[warp] = x;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int q = 1; q < (int)(blockDim.x >> 5); ++q) take(x, wpart[q]);
    c.parts[(j & 1) * c.nparts + blockIdx.x] = x;
  }
}

// The panel's columns as a binary tree of column ranges [s0, s1) over its groups: a node factors
// its left part [s0, mid), then the rows [s0, mid) of U in its right part [mid, s1) (usub), then
// the live rows' states in [mid, s1) take the left part's terms (state_sub), then it factors its
// right part. Every state still takes the groups' terms in the groups' order, but a state is read
// and written once a node instead of once a group: with left parts of at most `left` columns,
// a state of the last columns of a 512-column panel ~10 times (8 nodes of 64, then 32 and 16)
// instead of 31 (H100, n = 16384: state_sub was 182 of the 394 ms of the 32 panels). With
// left == kGroup every node's left part is one group: the right-looking panel.
__host__ __device__ inline int64_t node_mid(int64_t s0, int64_t s1, int64_t left)
{
  const int64_t ng = (s1 - s0 + kGroup - 1) / kGroup;
  return s0 + min64((ng + 1) / 2, left / kGroup) * kGroup;
}
// The node whose left part ends at the group boundary b (c0 < b < c1): exactly one.
__host__ __device__ inline void node_at(int64_t c0, int64_t c1, int64_t b, int64_t left, int64_t *s0, int64_t *s1)
{
  int64_t a0 = c0, a1 = c1;
  for (int64_t mid = node_mid(a0, a1, left); mid != b; mid = node_mid(a0, a1, left))
    (b < mid ? a1 : a0) = mid;
  *s0 = a0, *s1 = a1;
}

// A node's left part at most, the rows of its usub: 64 (a chain of 64 steps; with 256 the chains
// of a panel summed to 1280 steps against the right-looking panel's 512 and cost more than the
// states saved: docs/design-notes.md).
constexpr int kMaxLeft = 64;
constexpr int kMaxQ = kMaxLeft / 32; // rows a lane holds in usub

// The rows [i0, i1) of U (pivot order, i1 − i0 <= kMaxLeft) in the columns [j0, j1), in order:
// a warp a column (a half-warp where 16 rows or fewer), lane l the rows i0 + l + lpc·q, the
// bounded double-doubles in registers. Row i0 + t is rounded (or computed exactly) by its lane
// and broadcast; the rows of the same block of lpc take its term at once (the serial chain),
// the rows of later blocks take the block's terms together after it (off the chain).
__device__ void usub_phase(const panel_ctx &c, int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
  __shared__ exstar_i64 wacc[kPanelThreads / 32][EXSTAR_ACC_WORDS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int R = (int)(i1 - i0), lpc = R <= 16 ? 16 : 32, cpw = 32 / lpc, li = lane % lpc, base = lane - li;
  const int nq = (R + lpc - 1) / lpc;
  const int64_t ncols = j1 - j0, warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  const double nan = exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
  for (int64_t w0 = ((int64_t)blockIdx.x * (blockDim.x >> 5) + warp) * cpw; w0 < ncols; w0 += warps * cpw) {
    const int64_t jj = w0 + lane / lpc, j = j0 + jj;
    const bool col = jj < ncols;
    exstar_bdd d[kMaxQ];
    int64_t r[kMaxQ];
#pragma unroll
    for (int q = 0; q < kMaxQ; ++q) {
      const bool has = q < nq && col && li + q * lpc < R;
      r[q] = has ? c.prow[i0 + li + q * lpc - c.c0] : -1;
      if (has) d[q] = c.s(r[q], j);
    }
#pragma unroll
    for (int qb = 0; qb < kMaxQ; ++qb) {
      if (qb >= nq) break;
      const int t0 = qb * lpc, t1 = min(R, t0 + lpc);
      exstar_bdd dc = d[qb];
      const int64_t rc = r[qb];
      double yl = 0.0, ln = rc >= 0 ? c.a(rc, i0 + t0) : 0.0;
      for (int t = t0; t < t1; ++t) {
        const double l = ln;
        if (rc >= 0 && t + 1 < t1) ln = c.a(rc, i0 + t + 1); // columns left of j0: not written here
        const bool owner = col && li == t - t0;
        double y = 0.0;
        bool want = false;
        if (owner) want = c.exact_only || !exstar_bdd_round_ok(&dc, &y);
        c.count_declines(2, want);
        if (__any_sync(0xffffffffu, want)) panel_exact_where(c, wacc[warp], want, rc, j, i0 + t, y, true, nullptr, -1);
        if (owner) c.a(rc, j) = y, yl = y;
        y = __shfl_sync(0xffffffffu, y, base + t - t0);
        __syncwarp(); // the value in memory too, for the exact path of the rows below
        if (rc >= 0 && li > t - t0 && !exstar_bdd_add_product(&dc, -l, y)) dc.hi = nan;
      }
#pragma unroll
      for (int q = qb + 1; q < kMaxQ; ++q) {
        if (q >= nq) break;
        for (int t = t0; t < t1; ++t) {
          const double y = __shfl_sync(0xffffffffu, yl, base + t - t0);
          if (r[q] >= 0 && !exstar_bdd_add_product(&d[q], -c.a(r[q], i0 + t), y)) d[q].hi = nan;
        }
      }
    }
  }
}

// The states of the live rows in the columns [j0, j1) take −Σ_{k0<=k<k1} l(r, k)·u(k, c)
// (k1 − k0 <= kMaxLeft) through the fast sums, a group of kGroup terms at a time (one S + R and
// bound each, as after every group): a block a 256-row x kCols-column piece, a thread a row, its
// kCols states in registers across the groups, the next group's l loaded during this one's sums;
// the piece's u factors and each group's exponent bounds staged in shared memory at once.
constexpr int kCols = 8;
constexpr int kStage = kCols * kMaxLeft / kPanelThreads; // u factors a thread stages
static_assert(kCols * kMaxLeft % kPanelThreads == 0 && kPanelThreads % 32 == 0, "whole warps stage");
__device__ void state_sub_phase(const panel_ctx &c, int64_t k0, int64_t k1, int64_t j0, int64_t j1)
{
  __shared__ double sb[kCols][kMaxLeft];
  __shared__ int seb[kCols][kMaxLeft / kGroup];
  const int64_t rb = (c.rows + blockDim.x - 1) / blockDim.x, cbn = (j1 - j0 + kCols - 1) / kCols;
  const int nk = (int)(k1 - k0), nch = (nk + (int)kGroup - 1) / (int)kGroup;
  for (int64_t item = blockIdx.x; item < rb * cbn; item += gridDim.x) {
    const int64_t r = c.c0 + (item % rb) * blockDim.x + threadIdx.x, jb = j0 + (item / rb) * kCols;
    const int nc = (int)min64(kCols, j1 - jb);
    const bool live = r < c.m && !c.dead[r - c.c0];
    __syncthreads(); // the previous piece's factors are no longer read
    { // entry e = x + 256 s: column q = (e / kGroup) mod kCols, group g = e / (kGroup kCols), l = e mod kGroup
      double u[kStage];
#pragma unroll
      for (int s = 0; s < kStage; ++s) {
        const int e = (int)threadIdx.x + s * kPanelThreads, q = (e / (int)kGroup) % kCols, g = e / ((int)kGroup * kCols);
        const int k = g * (int)kGroup + e % (int)kGroup;
        u[s] = q < nc && k < nk ? c.a(c.prow[k0 + k - c.c0], jb + q) : 0.0;
      }
#pragma unroll
      for (int s = 0; s < kStage; ++s) {
        const int e = (int)threadIdx.x + s * kPanelThreads, q = (e / (int)kGroup) % kCols, g = e / ((int)kGroup * kCols);
        int ex = exstar_line_exp_step(EXSTAR_GEMM_EXP_ZERO, u[s]);
        for (int off = (int)kGroup / 2; off > 0; off >>= 1) ex = exstar_exp_max(ex, __shfl_xor_sync(0xffffffffu, ex, off));
        sb[q][g * kGroup + e % kGroup] = u[s];
        if (e % kGroup == 0) seb[q][g] = ex;
      }
    }
    __syncthreads();
    if (!live) continue;
    exstar_bdd d[kCols];
#pragma unroll
    for (int q = 0; q < kCols; ++q)
      if (q < nc) d[q] = c.s(r, jb + q);
    double an[kGroup];
#pragma unroll
    for (int l = 0; l < kGroup; ++l) an[l] = l < nk ? c.a(r, k0 + l) : 0.0;
    for (int g = 0; g < nch; ++g) {
      const int kn = min((int)kGroup, nk - g * (int)kGroup);
      double a[kGroup];
      int ea = EXSTAR_GEMM_EXP_ZERO;
#pragma unroll
      for (int l = 0; l < kGroup; ++l) {
        a[l] = an[l];
        ea = exstar_exp_max(ea, l < kn ? exstar_exp_above(a[l]) : EXSTAR_GEMM_EXP_ZERO);
      }
      const int kx = (g + 1) * (int)kGroup; // the next group's l, loaded during these sums
#pragma unroll
      for (int l = 0; l < kGroup; ++l) an[l] = kx + l < nk ? c.a(r, k0 + kx + l) : 0.0;
      const int ep = exstar_gemm_count_exp(kn);
#pragma unroll
      for (int q = 0; q < kCols; ++q)
        if (q < nc) {
          const double sigma = exstar_gemm_sigma(ea, seb[q][g], ep);
          double s = exstar_gemm_run_begin(0.0, sigma), rr = 0.0;
#pragma unroll
          for (int l = 0; l < kGroup; ++l)
            if (l < kn) exstar_gemm_term(a[l], sb[q][g * kGroup + l], &s, &rr);
          exstar_gemm_state_add(&d[q], exstar_gemm_run_end(s, sigma), rr, exstar_gemm_bound(kn, sigma), -1.0);
        }
    }
#pragma unroll
    for (int q = 0; q < kCols; ++q)
      if (q < nc) c.s(r, jb + q) = d[q];
  }
}

// The panel's phases in order, as f(kind, ...): kRowsPhase (k, j, g1) for rows_phase, kUsub
// (i0, i1, j0, j1) for usub_phase, kStateSub (k0, k1, j0, j1) for state_sub_phase; after every
// group but the last, the node whose left part it ends (node_at).
enum { kRowsPhase, kUsub, kStateSub };
#pragma nv_exec_check_disable
template <class F>
__host__ __device__ void walk_phases(int64_t c0, int64_t c1, int64_t m, int64_t left, F f)
{
  for (int64_t g0 = c0; g0 < c1; g0 += kGroup) {
    const int64_t g1 = min64(c1, g0 + kGroup), gr1 = min64(g1, m);
    if (g0 < m) {
      for (int64_t j = g0; j < gr1; ++j) f(kRowsPhase, j > g0 ? j - 1 : -1, j, g1, 0);
      f(kRowsPhase, gr1 - 1, -1, g1, 0);
    }
    if (g1 < c1) {
      int64_t s0, s1;
      node_at(c0, c1, g1, left, &s0, &s1);
      if (s0 < m) { // rows [s0, g1) exist
        f(kUsub, s0, min64(g1, m), g1, s1);
        f(kStateSub, s0, min64(g1, m), g1, s1);
      }
    }
  }
}

// The phases of the panel in order; with COOP every one is followed by a grid-wide barrier,
// else only the phases [lo, hi) run (one launch per phase). One block a multiprocessor at most
// (coop_blocks), so it may take every register: at ptxas's default of 128 for 256 threads the
// phases spilled ~1 KB a thread (H100, n = 16384, one stream: panels 509 ms, 414 ms without).
template <bool COOP>
__global__ void __launch_bounds__(kPanelThreads, 1) panel_kernel(panel_ctx c, int64_t lo, int64_t hi)
{
  int64_t ph = 0;
  if (c.trace && blockIdx.x == 0 && threadIdx.x == 0) c.trace[0] = gtimer();
  walk_phases(c.c0, c.c1, c.m, c.left, [&](int kind, int64_t a, int64_t b, int64_t x, int64_t y) {
    if (ph >= lo && ph < hi) {
      if (kind == kRowsPhase) rows_phase(c, a, b, x, ph);
      else if (kind == kUsub) usub_phase(c, a, b, x, y);
      else state_sub_phase(c, a, b, x, y);
      if (COOP) cooperative_groups::this_grid().sync();
      if (c.trace && blockIdx.x == 0 && threadIdx.x == 0) c.trace[ph + 1] = gtimer();
    }
    ++ph;
  });
}

// The number of phases of panel_kernel.
int64_t panel_phases(int64_t c0, int64_t c1, int64_t m, int64_t left)
{
  int64_t n = 0;
  walk_phases(c0, c1, m, left, [&](int, int64_t, int64_t, int64_t, int64_t) { ++n; });
  return n;
}

// ---- a wide node's state_sub on the whole GPU ------------------------------------------------
// A node's state_sub (the live rows' states in its right part take its left part's terms) is the
// panel's largest phase: on the cooperative launch's blocks (half the multiprocessors, one block
// each) it took 23.5 of the 33 ms of the first panel at n = 16384 on one H200. Where the right
// part has EXSTAR_CUDA_PANEL_GEMM_COLS columns or more (default 128; 0: never), the launch stops
// before it and the Level-3 state product (exstar_cuda_gemm_state_add) does it on every row,
// between two launches: S(:, [j0, j1)) −= P(:, [k0, k1))·U, U the pivot rows' values gathered. A
// state takes its terms in any grouping, and every rounding is still proved or declined, so the
// bits are the phase's. The spent rows' states take terms too: never read again (a pivot row's
// states in a right part are read by that node's usub, before its state_sub, and a later node's
// usub reads only the right parts of nodes whose left part holds the row, which no state_sub
// before that usub writes).
int64_t panel_gemm_cols()
{
  static const int64_t v = [] {
    const char *e = std::getenv("EXSTAR_CUDA_PANEL_GEMM_COLS");
    return e ? (int64_t)std::atoll(e) : (int64_t)128;
  }();
  return v;
}

struct wide_sub {
  int64_t ph, k0, k1, j0, j1; // the phase's index and its arguments
};

// The state_sub phases with at least `cols` columns (none when cols <= 0).
std::vector<wide_sub> wide_state_subs(int64_t c0, int64_t c1, int64_t m, int64_t left, int64_t cols)
{
  std::vector<wide_sub> out;
  int64_t ph = 0;
  walk_phases(c0, c1, m, left, [&](int kind, int64_t a, int64_t b, int64_t x, int64_t y) {
    if (kind == kStateSub && cols > 0 && y - x >= cols) out.push_back(wide_sub{ph, a, b, x, y});
    ++ph;
  });
  return out;
}

// ut(jj, i) := u(k0 + i, j0 + jj) (the pivot rows' values; leading dimension j1 − j0).
__global__ void gather_u_kernel(panel_ctx c, wide_sub w, double *ut)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, nc = w.j1 - w.j0;
  if (x >= nc * (w.k1 - w.k0)) return;
  const int64_t jj = x % nc, i = x / nc;
  ut[x] = c.a(c.prow[w.k0 + i - c.c0], w.j0 + jj);
}

int state_sub_gemm(const panel_ctx &c, const wide_sub &w, double *ut, cudaStream_t stream)
{
  const int64_t nc = w.j1 - w.j0, nk = w.k1 - w.k0;
  gather_u_kernel<<<blocks_for(nc * nk, 256), 256, 0, stream>>>(c, w, ut);
  const int e = status(cudaGetLastError());
  if (e != 0) return e;
  return exstar_cuda_gemm_state_add('N', 'T', c.rows, nc, nk, -1.0, c.P, (w.k0 - c.c0) * c.rows, c.rows, ut, 0, nc,
                                    c.S, (w.j0 - c.c0) * c.rows, c.rows, stream);
}

// Gathers the panel (values, states; lpos, dead) or scatters its values to the tiles in their
// final order (back).
__global__ void panel_copy_kernel(panel_ctx c, int back)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= c.rows * (c.c1 - c.c0)) return;
  const int64_t r = c.c0 + x % c.rows, j = c.c0 + x / c.rows;
  if (back) {
    c.g.at(c.lpos[r - c.c0], j) = c.a(r, j);
    if (c.lc) c.lc[(c.lpos[r - c.c0] - c.c0) + (j - c.c0) * c.ldlc] = c.a(r, j);
  } else {
    c.a(r, j) = c.g.at(r, j);
    c.s(r, j) = c.g.s(r, j);
    if (j == c.c0) c.lpos[r - c.c0] = r, c.dead[r - c.c0] = 0;
  }
}

// The row order after the panel (panel_ctx::perm): row r (< c0: in place; else physical, its
// final position lpos) holds the original row that r held before the panel.
__global__ void panel_perm_kernel(panel_ctx c)
{
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= c.m) return;
  const int64_t after = r < c.c0 ? r : c.lpos[r - c.c0];
  const int32_t o = c.perm0 ? c.perm0[r] : (int32_t)r;
  c.perm[after] = o;
  c.perm[c.m + o] = (int32_t)after;
}

// The panel's blocks in a cooperative launch (0: none): one on each of half the device's
// multiprocessors, or of a third of them beside other kernels (one H200, the exact LU at home,
// nb 1024, the updates beside the panels: n = 16384 0.608-0.612 s on 66 blocks, 0.594-0.595 s on
// 44, 0.607 on 33, 0.659 on 22; n = 32768 3.070 s on 66, 3.036 on 44, 3.028 on 33:
// bench/results/h200-2026-11-29-s8, r10 and r11); EXSTAR_CUDA_PANEL_BLOCKS=N asks for N
// (measurements), at most as many as run at once. A panel block (254 registers x 256 threads:
// the whole register file) leaves no room for a block of the exact gemm on its multiprocessor,
// and its phases are latency-bound: on the whole device (2 blocks on each, the most that run at
// once) the panels took the GPU from the updates that the other streams run beside them. H100,
// n = 16384, nb = 512: the panels alone 684 ms on 264 blocks, 686 ms on 66; the LU with 4
// streams 1.77 s on 264, 1.63 s on 132, 1.61 s on 99, 1.51-1.54 s on 66, 1.54 s on 48, 1.60 s
// on 33 (n = 8192: 0.39, 0.36, 0.36, 0.33-0.35, 0.33, 0.36).
int coop_blocks(bool beside)
{
  static std::atomic<int> cache[32]; // per device: the most blocks that run at once, -1: none
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev >= 32) return 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) return 0;
  int most = cache[dev].load();
  if (most == 0) {
    int coop = 0, per = 0;
    cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, panel_kernel<true>, kPanelThreads, 0);
    cudaGetLastError();
    most = coop && !std::getenv("EXSTAR_CUDA_NO_COOP") && sms * per > 0 ? sms * per : -1;
    cache[dev].store(most);
  }
  if (most < 0) return 0;
  const char *want = std::getenv("EXSTAR_CUDA_PANEL_BLOCKS");
  const int share = beside ? 3 : 2;
  const int64_t n = want && std::atoll(want) > 0 ? std::atoll(want) : (sms >= share ? sms / share : 1);
  return (int)min64(n, most);
}

// A node's left part at most (walk_phases): kMaxLeft, or EXSTAR_CUDA_PANEL_LEFT (measurements;
// kGroup to kMaxLeft, rounded down to a multiple of kGroup; kGroup: the right-looking panel).
int64_t panel_left()
{
  static const int64_t env = [] {
    const char *v = std::getenv("EXSTAR_CUDA_PANEL_LEFT");
    const long long x = v ? std::atoll(v) : 0;
    return x > 0 ? (int64_t)x : (int64_t)0;
  }();
  const int64_t left = env > 0 ? env : kMaxLeft;
  return left < kGroup ? kGroup : left > kMaxLeft ? kMaxLeft : left / kGroup * kGroup;
}

// EXSTAR_CUDA_PANEL_TRACE (measurements only): where one panel's time went, by phase kind, to
// stderr (block 0's clock after each grid barrier and after each pivot row).
void trace_report(const panel_ctx &c, cudaStream_t stream)
{
  const int64_t n = c.trace_n;
  std::vector<unsigned long long> t((size_t)trace_words(n));
  const unsigned long long *declined = t.data() + trace_declines(n);
  cudaMemcpyAsync(t.data(), c.trace, t.size() * sizeof t[0], cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaFree(c.trace);
  double piv = 0, rows = 0, last = 0, usub = 0, ssub = 0;
  int64_t ph = 0;
  walk_phases(c.c0, c.c1, c.m, c.left, [&](int kind, int64_t k, int64_t j, int64_t, int64_t) {
    const double all = (double)(t[ph + 1] - t[ph]) * 1e-3;
    const double p = kind == kRowsPhase && k >= 0 && t[n + 1 + ph] ? (double)(t[n + 1 + ph] - t[ph]) * 1e-3 : 0.0;
    if (kind == kUsub) usub += all;
    else if (kind == kStateSub) ssub += all;
    else if (j < 0) last += all;
    else piv += p, rows += all - p;
    ++ph;
  });
  std::fprintf(stderr, "panel trace c0=%lld rows=%lld phases=%lld: %.0f us = pivot+u %.0f, rows %.0f, last pivots %.0f, "
               "usub %.0f, state_sub %.0f; declined: rows %llu, pivot rows %llu, usub %llu\n", (long long)c.c0,
               (long long)c.rows, (long long)n, (double)(t[n] - t[0]) * 1e-3, piv, rows, last, usub, ssub,
               declined[0], declined[1], declined[2]);
}

} // namespace

extern "C" int exstar_cuda_lu_panel(const exstar_cuda_tiles *v, int64_t K, int32_t *ipiv, int exact_only, int beside,
                                    unsigned long long *repaired, exstar_cuda_stream s)
{
  cudaStream_t stream = (cudaStream_t)s;
  const int64_t m = v->m, c0 = K * v->nb, c1 = min64(v->n, c0 + v->nb), rows = m - c0, w = c1 - c0;
  if (rows <= 0 || w <= 0) return 0;
  const int coop = coop_blocks(beside != 0);
  // The group phases (usub, state_sub) use every block; the row phases need a thread a row
  // (H100, n = 8192, nb = 512, the panel alone on the GPU: 340 ms with ceil(rows/256) = 32
  // blocks, 238 ms with 132, the same with 264).
  const int64_t nblocks = coop > 0 ? coop : min64(4 * (int64_t)blocks_for(rows, kPanelThreads), 1024);
  const size_t pbytes = (size_t)(rows * w) * sizeof(double), sbytes = (size_t)(rows * w) * sizeof(exstar_bdd);
  const size_t kbytes = (size_t)w * sizeof(int64_t), lbytes = (size_t)rows * sizeof(int64_t);
  const size_t dbytes = ((size_t)rows * sizeof(int32_t) + 15) / 16 * 16, cbytes = 2 * (size_t)nblocks * sizeof(cand);
  const size_t ubytes = (size_t)w * kMaxLeft * sizeof(double); // state_sub_gemm's gathered U
  scratch sc;
  cudaError_t e = sc.make(v, sbytes + pbytes + kbytes + lbytes + dbytes + ubytes + cbytes, stream, c0, rows, K);
  if (e != cudaSuccess) return status(e);
  if (v->lc && K > 0) row_map_kernel<<<blocks_for(rows * K, 256), 256, 0, stream>>>(sc.g, sc.perms, K - 1);
  panel_ctx c;
  c.g = sc.g;
  c.lc = v->lc ? v->lc[K] : nullptr, c.ldlc = v->lc ? v->ldlc[K] : 0;
  c.perm = v->perm ? v->perm[K] : nullptr, c.perm0 = v->perm && K > 0 ? v->perm[K - 1] : nullptr;
  char *x = sc.extra;
  c.S = (exstar_bdd *)x, x += sbytes;
  c.P = (double *)x, x += pbytes;
  c.prow = (int64_t *)x, x += kbytes;
  c.lpos = (int64_t *)x, x += lbytes;
  c.dead = (int32_t *)x, x += dbytes;
  double *ut = (double *)x;
  x += ubytes;
  c.parts = (cand *)x;
  c.ipiv = ipiv, c.c0 = c0, c.c1 = c1, c.m = m, c.rows = rows, c.nparts = nblocks;
  c.exact_only = exact_only, c.rep = repaired, c.left = panel_left();
  panel_copy_kernel<<<blocks_for(rows * w, 256), 256, 0, stream>>>(c, 0);
  int64_t lo = 0, hi = INT64_MAX;
  const int64_t nph = panel_phases(c0, c1, m, c.left);
  c.trace = nullptr, c.trace_n = nph;
  // a failed allocation only turns the trace off (and is cleared, so the panel's status is not it)
  if (coop > 0 && std::getenv("EXSTAR_CUDA_PANEL_TRACE") &&
      cudaMalloc((void **)&c.trace, (size_t)trace_words(nph) * sizeof(unsigned long long)) != cudaSuccess)
    c.trace = nullptr, (void)cudaGetLastError();
  if (c.trace) cudaMemsetAsync(c.trace, 0, (size_t)trace_words(nph) * sizeof(unsigned long long), stream);
  // the wide nodes' state_subs on the whole GPU (not when tracing: the trace times every phase)
  const std::vector<wide_sub> wide = c.trace ? std::vector<wide_sub>() : wide_state_subs(c0, c1, m, c.left, panel_gemm_cols());
  int gs = 0;
  if (coop > 0) {
    for (size_t q = 0; q <= wide.size() && e == cudaSuccess && gs == 0; ++q) {
      hi = q < wide.size() ? wide[q].ph : INT64_MAX;
      void *args[] = {&c, &lo, &hi};
      if (hi > lo)
        e = cudaLaunchCooperativeKernel((const void *)panel_kernel<true>, dim3((unsigned)nblocks),
                                        dim3(kPanelThreads), args, 0, stream);
      if (q < wide.size() && e == cudaSuccess) gs = state_sub_gemm(c, wide[q], ut, stream), lo = hi + 1;
    }
    if (c.trace && e == cudaSuccess) trace_report(c, stream);
    else if (c.trace) cudaFree(c.trace);
  } else {
    size_t q = 0;
    for (int64_t ph = 0; ph < nph && gs == 0; ++ph) {
      if (q < wide.size() && wide[q].ph == ph) gs = state_sub_gemm(c, wide[q++], ut, stream);
      else panel_kernel<false><<<(unsigned)nblocks, kPanelThreads, 0, stream>>>(c, ph, ph + 1);
    }
  }
  if (e == cudaSuccess && gs == 0) panel_copy_kernel<<<blocks_for(rows * w, 256), 256, 0, stream>>>(c, 1);
  if (e == cudaSuccess && gs == 0 && c.perm) panel_perm_kernel<<<blocks_for(m, 256), 256, 0, stream>>>(c);
  if (e == cudaSuccess) e = cudaGetLastError();
  const cudaError_t f = sc.release(stream);
  return gs != 0 ? gs : status(e != cudaSuccess ? e : f);
}
