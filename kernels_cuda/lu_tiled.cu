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
//  - the panel: one persistent launch, its rows left in place and the interchanges played at
//    the end (see "the panel: one persistent launch" below);
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
#include <cooperative_groups.h>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int64_t kGroup = 16; // as the CPU kernel (any value gives the same bits)
constexpr int kRows = 256;     // threads of the row-parallel kernels
constexpr int kExactBatch = 8; // terms a lane loads ahead in the exact path

__host__ __device__ inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// The tile grid in device memory, and L's column copies (exstar_cuda_tiles::lc; NULL: none)
// with the task's row map: for a row r of the task's rows [rm0, ..) and a block column tk < rmk,
// the row of r in lc[tk] is rmap[tk * rmld + (r − rm0)] (relative to lc[tk]'s first row, tk nb);
// for tk >= rmk it is r itself (the task's own block column).
struct dgrid {
  int64_t m, n, nb, mt, nt;
  double *const *a;
  const int64_t *lda;
  exstar_bdd *const *st;
  const int64_t *ldst;
  double *const *lc;
  const int64_t *ldlc;
  const int32_t *rmap;
  int64_t rm0, rmld, rmk;
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

// The exact path: RN(a − Σ_k l(k)·u(k)), every term exact (the definition's value), by a whole
// warp or a whole block. Thread t of `step` threads takes the terms k ≡ t (mod step) into its own
// FPE, spilling into the shared accumulator `acc` (EXSTAR_ACC_WORDS words, atomics); then every
// FPE and the flags go into it and one thread rounds it. The same core steps as the CPU kernel's
// exact_sum (an exact accumulator: the split of the terms among threads cannot show). A `terms`
// callable feeds a thread its share: terms(acc, fpe, t, step) returns the steps' flags.

// The terms [k0, k1) of thread t of step: kExactBatch terms' loads first, then their steps (the
// loads overlap instead of each waiting behind the previous step's accumulator atomics).
template <class L, class U>
__device__ __forceinline__ int span_terms(exstar_i64 *acc, double fpe[EXSTAR_FPE_N], int64_t k0, int64_t k1, int t,
                                          int step, L l, U u)
{
  int flags = 0;
  int64_t k = k0 + t;
  for (; k + (int64_t)step * (kExactBatch - 1) < k1; k += (int64_t)step * kExactBatch) {
    double lv[kExactBatch], uv[kExactBatch];
#pragma unroll
    for (int q = 0; q < kExactBatch; ++q) lv[q] = l(k + (int64_t)step * q), uv[q] = u(k + (int64_t)step * q);
#pragma unroll
    for (int q = 0; q < kExactBatch; ++q) flags |= exstar_dot_step_atomic(acc, fpe, -lv[q], uv[q]);
  }
  for (; k < k1; k += step) flags |= exstar_dot_step_atomic(acc, fpe, -l(k), u(k));
  return flags;
}

// The terms k < kg of row r of the tile grid times column j. A term's tile and offset by one
// 32-bit division (the grid's indices are below 2^31; dgrid::at's two 64-bit divisions a load
// were most of the exact path's time), its tile's address from the cached arrays; the loads of
// kExactBatch terms in flight together, across tile boundaries.
__device__ __forceinline__ int grid_terms(exstar_i64 *acc, double fpe[EXSTAR_FPE_N], const dgrid &g, int64_t r,
                                          int64_t j, int64_t kg, int t, int step)
{
  const uint32_t nb = (uint32_t)g.nb, ri = (uint32_t)(r % g.nb), cj = (uint32_t)(j % g.nb);
  const int64_t ti = r / g.nb, tj = j / g.nb, mt = g.mt;
  double *const *a = g.a;
  const int64_t *lda = g.lda;
  double *const *lc = g.lc;
  const int64_t *ldlc = g.ldlc;
  const int32_t *rmap = g.rmap ? g.rmap + (r - g.rm0) : nullptr;
  const int64_t rmld = g.rmld, rmk = g.rmk;
  auto l = [=](int64_t k) {
    const uint32_t tk = (uint32_t)k / nb;
    if (lc) { // the column copy of block column tk, the row where it stands there
      const int64_t s = (int64_t)tk < rmk ? (int64_t)rmap[(int64_t)tk * rmld] : r - (int64_t)tk * nb;
      return lc[tk][s + (int64_t)((uint32_t)k - tk * nb) * ldlc[tk]];
    }
    const int64_t tl = ti + (int64_t)tk * mt;
    return a[tl][ri + ((uint32_t)k - tk * nb) * lda[tl]];
  };
  auto u = [=](int64_t k) {
    const uint32_t tk = (uint32_t)k / nb;
    const int64_t tu = tk + tj * mt;
    return a[tu][cj * lda[tu] + ((uint32_t)k - tk * nb)];
  };
  return span_terms(acc, fpe, 0, kg, t, step, l, u);
}

template <class Terms>
__device__ __noinline__ double exact_sum_warp(exstar_i64 *acc, double a, Terms terms)
{
  const int lane = threadIdx.x & 31;
  for (int w = lane; w < EXSTAR_ACC_WORDS; w += 32) acc[w] = 0;
  __syncwarp();
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = lane == 0 ? exstar_sum_step_atomic(acc, fpe, a) : 0;
  flags |= terms(acc, fpe, lane, 32);
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

// The same by every thread of the block (every thread calls it with the same arguments).
template <class Terms>
__device__ __noinline__ double exact_sum_block(exstar_i64 *acc, double a, Terms terms)
{
  __shared__ int sflags;
  __shared__ double sy;
  for (int w = threadIdx.x; w < EXSTAR_ACC_WORDS; w += blockDim.x) acc[w] = 0;
  if (threadIdx.x == 0) sflags = 0;
  __syncthreads();
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = threadIdx.x == 0 ? exstar_sum_step_atomic(acc, fpe, a) : 0;
  flags |= terms(acc, fpe, (int)threadIdx.x, (int)blockDim.x);
  exstar_acc_flush_fpe_atomic(acc, fpe);
  flags = (int)__reduce_or_sync(0xffffffffu, (unsigned)flags);
  if ((threadIdx.x & 31) == 0 && flags) atomicOr(&sflags, flags);
  __syncthreads();
  if (threadIdx.x == 0) {
    exstar_acc_add_flags_private(acc, sflags);
    sy = exstar_acc_round_private(acc);
  }
  __syncthreads();
  return sy; // read before any thread can pass the next call's first barrier
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

// The grid arrays and a scratch of `extra` bytes in one stream-ordered device allocation.
struct scratch {
  dgrid g;
  char *base = nullptr, *extra = nullptr;
  // rows x kmap int32 of row map (dgrid::rmap) for the rows [r0, r0 + rows) in the order after
  // panel T, when the view has column copies (else none): see row_map.
  cudaError_t make(const exstar_cuda_tiles *v, size_t extra_bytes, cudaStream_t stream, int64_t r0 = 0,
                   int64_t rows = 0, int64_t kmap = 0)
  {
    keep_pool();
    const size_t t = (size_t)(v->mt * v->nt), c = (size_t)v->nt;
    const size_t arrays = (4 * t + 3 * c) * sizeof(void *);
    const size_t head = (arrays + 255) / 256 * 256;
    const size_t map_bytes = v->lc ? ((size_t)(rows * kmap) * sizeof(int32_t) + 255) / 256 * 256 : 0;
    cudaError_t e = cudaMallocAsync((void **)&base, head + map_bytes + extra_bytes, stream);
    if (e != cudaSuccess) return e;
    char *h = (char *)std::malloc(arrays);
    if (!h) return cudaErrorMemoryAllocation;
    std::memcpy(h, v->a, t * sizeof(void *));
    std::memcpy(h + t * sizeof(void *), v->lda, t * sizeof(int64_t));
    std::memcpy(h + 2 * t * sizeof(void *), v->st, t * sizeof(void *));
    std::memcpy(h + 3 * t * sizeof(void *), v->ldst, t * sizeof(int64_t));
    char *hc = h + 4 * t * sizeof(void *);
    if (v->lc) {
      std::memcpy(hc, v->lc, c * sizeof(void *));
      std::memcpy(hc + c * sizeof(void *), v->ldlc, c * sizeof(int64_t));
      std::memcpy(hc + 2 * c * sizeof(void *), v->perm, c * sizeof(void *));
    } else {
      std::memset(hc, 0, 3 * c * sizeof(void *));
    }
    // from pageable memory: the driver stages h before returning, so it is freed at once (a
    // cudaLaunchHostFunc to free it held the stream for a round trip through the driver's
    // callback thread at every call)
    e = cudaMemcpyAsync(base, h, arrays, cudaMemcpyHostToDevice, stream);
    std::free(h);
    char *dc = base + 4 * t * sizeof(void *);
    g = dgrid{v->m,
              v->n,
              v->nb,
              v->mt,
              v->nt,
              (double *const *)base,
              (const int64_t *)(base + t * sizeof(void *)),
              (exstar_bdd *const *)(base + 2 * t * sizeof(void *)),
              (const int64_t *)(base + 3 * t * sizeof(void *)),
              v->lc ? (double *const *)dc : nullptr,
              (const int64_t *)(dc + c * sizeof(void *)),
              v->lc ? (const int32_t *)(base + head) : nullptr,
              r0,
              rows,
              kmap};
    perms = (int32_t *const *)(dc + 2 * c * sizeof(void *));
    extra = base + head + map_bytes;
    return e;
  }
  int32_t *const *perms = nullptr; // the row orders (device array of device pointers)
  cudaError_t release(cudaStream_t stream) { return base ? cudaFreeAsync(base, stream) : cudaSuccess; }
};

// dgrid::rmap for the rows [rm0, rm0 + rmld) in the order after panel T: the row of each in the
// column copies of the block columns tk < rmk (perms: the row orders, device pointers).
__global__ void row_map_kernel(dgrid g, int32_t *const *perms, int64_t T)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= g.rmld * g.rmk) return;
  const int64_t tk = x / g.rmld, r = g.rm0 + x % g.rmld;
  const int32_t o = perms[T][r];
  const_cast<int32_t *>(g.rmap)[x] = perms[tk][g.m + o] - (int32_t)(tk * g.nb);
}

int status(cudaError_t e)
{
  if (e == cudaSuccess) e = cudaGetLastError();
  return e == cudaSuccess ? 0 : -(int)e;
}

unsigned blocks_for(int64_t n, int threads) { return (unsigned)((n + threads - 1) / threads); }

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
  int exact_only;
  unsigned long long *rep;
  __device__ double &a(int64_t r, int64_t j) const { return P[(r - c0) + (j - c0) * rows]; }
  __device__ exstar_bdd &s(int64_t r, int64_t j) const { return S[(r - c0) + (j - c0) * rows]; }
  // The terms of thread t of step for RN(a(r, j) − Σ_{k<kend} l(r, k)·u(k, j)), r physical: the
  // tiles left of the panel, then the panel's columns (u from the pivots' rows; ucur: u(kcur, j)
  // of the pivot being resolved, in shared memory, where it is not in P yet).
  __device__ __forceinline__ int terms(exstar_i64 *acc, double fpe[EXSTAR_FPE_N], int64_t r, int64_t j, int64_t kend,
                                       const double *ucur, int64_t kcur, int t, int step) const
  {
    int flags = grid_terms(acc, fpe, g, r, j, min64(kend, c0), t, step);
    const double *Pr = P + (r - c0), *Pj = P + (j - c0) * rows;
    const int64_t *pr = prow, k0 = c0, nrows = rows;
    return flags | span_terms(acc, fpe, k0, kend, t, step, [=](int64_t k) { return Pr[(k - k0) * nrows]; },
                              [=](int64_t k) { return ucur && k == kcur ? *ucur : Pj[pr[k - k0] - k0]; });
  }
  __device__ double exact(exstar_i64 *wacc, int64_t r, int64_t j, int64_t kend, bool count = true,
                          const double *ucur = nullptr, int64_t kcur = -1) const
  {
    if (count) count_repair(rep);
    return exact_sum_warp(wacc, g.at(r, j), [&](exstar_i64 *acc, double *fpe, int t, int step) {
      return terms(acc, fpe, r, j, kend, ucur, kcur, t, step);
    });
  }
  // The same by the whole block (every thread calls it with the same arguments).
  __device__ double exact_block(exstar_i64 *bacc, int64_t r, int64_t j, int64_t kend, const double *ucur,
                                int64_t kcur) const
  {
    if (threadIdx.x == 0 && rep) atomicAdd(rep, 1ull);
    return exact_sum_block(bacc, g.at(r, j), [&](exstar_i64 *acc, double *fpe, int t, int step) {
      return terms(acc, fpe, r, j, kend, ucur, kcur, t, step);
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

// rows(k, j): see the top of this section. k < c0: no pivot to resolve (the group's first
// column); j < 0: no column to round (the group's last pivot).
__device__ void rows_phase(const panel_ctx &c, int64_t k, int64_t j, int64_t g1)
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
      panel_exact_where(c, bacc, want, pr, cc, k, y, blockIdx.x == 0, nullptr, -1);
      if (cc < g1) ut[lane] = y, c.a(pr, cc) = y; // every block writes the same
    }
    __syncthreads();
    p = win.phys, ukk = win.val;
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

// The group's rows [g0, gr1) of U in the panel's columns [g1, c1), in order: a half-warp a
// column, a lane a row, the bounded double-doubles in registers; row g0 + t is rounded (or
// computed exactly) by its lane and broadcast, then the rows below take −l(·, g0 + t)·u.
__device__ void usub_phase(const panel_ctx &c, int64_t g0, int64_t gr1, int64_t g1)
{
  __shared__ exstar_i64 wacc[kPanelThreads / 32][EXSTAR_ACC_WORDS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, half = lane >> 4, t0 = lane & 15;
  const int64_t ncols = c.c1 - g1, warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  const int nr = (int)(gr1 - g0);
  for (int64_t w0 = ((int64_t)blockIdx.x * (blockDim.x >> 5) + warp) * 2; w0 < ncols; w0 += warps * 2) {
    const int64_t jj = w0 + half, j = g1 + jj, i = g0 + t0;
    const bool mine = jj < ncols && i < gr1;
    const int64_t r = mine ? c.prow[i - c.c0] : 0;
    exstar_bdd d{0.0, 0.0, 0.0, 0.0};
    if (mine) d = c.s(r, j);
    for (int t = 0; t < nr; ++t) {
      double y = 0.0;
      bool want = false;
      if (mine && t0 == t) want = c.exact_only || !exstar_bdd_round_ok(&d, &y);
      panel_exact_where(c, wacc[warp], want, r, j, i, y, true, nullptr, -1);
      if (mine && t0 == t) c.a(r, j) = y;
      y = __shfl_sync(0xffffffffu, y, (half << 4) + t);
      __syncwarp(); // the value in memory too, for the exact path of the rows below
      if (mine && t0 > t && !exstar_bdd_add_product(&d, -c.a(r, g0 + t), y))
        d.hi = exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
    }
  }
}

// The states of the live rows in the columns [g1, c1) take −Σ_t l(r, g0 + t)·u(g0 + t, c)
// through the fast sums: a block a 256-row x kCols-column piece (the u factors and their
// exponent bounds in shared memory), a thread a row (its factors in registers).
constexpr int kCols = 8;
__device__ void state_sub_phase(const panel_ctx &c, int64_t g0, int64_t gr1, int64_t g1)
{
  __shared__ double sb[kCols][kGroup];
  __shared__ int seb[kCols];
  const int k = (int)(gr1 - g0);
  const int64_t rb = (c.rows + blockDim.x - 1) / blockDim.x, cbn = (c.c1 - g1 + kCols - 1) / kCols;
  const int ep = exstar_gemm_count_exp(k);
  for (int64_t item = blockIdx.x; item < rb * cbn; item += gridDim.x) {
    const int64_t r = c.c0 + (item % rb) * blockDim.x + threadIdx.x, j0 = g1 + (item / rb) * kCols;
    const int nc = (int)min64(kCols, c.c1 - j0);
    __syncthreads(); // the previous piece's factors are no longer read
    for (int x = threadIdx.x; x < kCols * kGroup; x += blockDim.x) {
      const int q = x / kGroup, l = x % kGroup;
      sb[q][l] = q < nc && l < k ? c.a(c.prow[g0 + l - c.c0], j0 + q) : 0.0;
    }
    __syncthreads();
    if (threadIdx.x < kCols) {
      int e = EXSTAR_GEMM_EXP_ZERO;
      for (int l = 0; l < k; ++l) e = exstar_line_exp_step(e, sb[threadIdx.x][l]);
      seb[threadIdx.x] = e;
    }
    __syncthreads();
    if (r >= c.m || c.dead[r - c.c0]) continue;
    double a[kGroup];
    int ea = EXSTAR_GEMM_EXP_ZERO;
#pragma unroll
    for (int l = 0; l < kGroup; ++l) {
      a[l] = l < k ? c.a(r, g0 + l) : 0.0;
      ea = exstar_exp_max(ea, l < k ? exstar_exp_above(a[l]) : EXSTAR_GEMM_EXP_ZERO);
    }
    for (int q = 0; q < nc; ++q) {
      const double sigma = exstar_gemm_sigma(ea, seb[q], ep);
      double s = 0.0, rr = 0.0;
#pragma unroll
      for (int l = 0; l < kGroup; ++l)
        if (l < k) exstar_gemm_term(a[l], sb[q][l], sigma, &s, &rr);
      exstar_gemm_state_add(&c.s(r, j0 + q), s, rr, exstar_gemm_bound(k, sigma), -1.0);
    }
  }
}

// The phases of the panel in order; with COOP every one is followed by a grid-wide barrier,
// else only the phases [lo, hi) run (one launch per phase).
template <bool COOP>
__global__ void __launch_bounds__(kPanelThreads) panel_kernel(panel_ctx c, int64_t lo, int64_t hi)
{
  int64_t ph = 0;
  auto run = [&](auto f) {
    if (ph >= lo && ph < hi) {
      f();
      if (COOP) cooperative_groups::this_grid().sync();
    }
    ++ph;
  };
  for (int64_t g0 = c.c0; g0 < c.c1 && g0 < c.m; g0 += kGroup) {
    const int64_t g1 = min64(c.c1, g0 + kGroup), gr1 = min64(g1, c.m);
    for (int64_t j = g0; j < gr1; ++j) run([&] { rows_phase(c, j > g0 ? j - 1 : -1, j, g1); });
    run([&] { rows_phase(c, gr1 - 1, -1, g1); });
    if (g1 < c.c1) {
      run([&] { usub_phase(c, g0, gr1, g1); });
      run([&] { state_sub_phase(c, g0, gr1, g1); });
    }
  }
}

// The number of phases of panel_kernel (the same loops).
int64_t panel_phases(int64_t c0, int64_t c1, int64_t m)
{
  int64_t n = 0;
  for (int64_t g0 = c0; g0 < c1 && g0 < m; g0 += kGroup) {
    const int64_t g1 = min64(c1, g0 + kGroup), gr1 = min64(g1, m);
    n += gr1 - g0 + 1 + (g1 < c1 ? 2 : 0);
  }
  return n;
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
// multiprocessors; EXSTAR_CUDA_PANEL_BLOCKS=N asks for N (measurements), at most as many as run
// at once. At 128 registers x 256 threads a panel block leaves no room for a block of the
// exact gemm (~214 x 256) on its multiprocessor, and its phases are latency-bound: on the whole
// device (2 blocks on each, the most that run at once) the panels took the GPU from the updates
// that the other streams run beside them. H100, n = 16384, nb = 512: the panels alone 684 ms on
// 264 blocks, 686 ms on 66; the LU with 4 streams 1.77 s on 264, 1.63 s on 132, 1.61 s on 99,
// 1.51-1.54 s on 66, 1.54 s on 48, 1.60 s on 33 (n = 8192: 0.39, 0.36, 0.36, 0.33-0.35, 0.33, 0.36).
int coop_blocks()
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
  const int64_t n = want && std::atoll(want) > 0 ? std::atoll(want) : (sms > 1 ? sms / 2 : 1);
  return (int)min64(n, most);
}

} // namespace

extern "C" int exstar_cuda_lu_panel(const exstar_cuda_tiles *v, int64_t K, int32_t *ipiv, int exact_only,
                                    unsigned long long *repaired, exstar_cuda_stream s)
{
  cudaStream_t stream = (cudaStream_t)s;
  const int64_t m = v->m, c0 = K * v->nb, c1 = min64(v->n, c0 + v->nb), rows = m - c0, w = c1 - c0;
  if (rows <= 0 || w <= 0) return 0;
  const int coop = coop_blocks();
  // The group phases (usub, state_sub) use every block; the row phases need a thread a row
  // (H100, n = 8192, nb = 512, the panel alone on the GPU: 340 ms with ceil(rows/256) = 32
  // blocks, 238 ms with 132, the same with 264).
  const int64_t nblocks = coop > 0 ? coop : min64(4 * (int64_t)blocks_for(rows, kPanelThreads), 1024);
  const size_t pbytes = (size_t)(rows * w) * sizeof(double), sbytes = (size_t)(rows * w) * sizeof(exstar_bdd);
  const size_t kbytes = (size_t)w * sizeof(int64_t), lbytes = (size_t)rows * sizeof(int64_t);
  const size_t dbytes = ((size_t)rows * sizeof(int32_t) + 15) / 16 * 16, cbytes = 2 * (size_t)nblocks * sizeof(cand);
  scratch sc;
  cudaError_t e = sc.make(v, sbytes + pbytes + kbytes + lbytes + dbytes + cbytes, stream, c0, rows, K);
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
  c.parts = (cand *)x;
  c.ipiv = ipiv, c.c0 = c0, c.c1 = c1, c.m = m, c.rows = rows, c.nparts = nblocks;
  c.exact_only = exact_only, c.rep = repaired;
  panel_copy_kernel<<<blocks_for(rows * w, 256), 256, 0, stream>>>(c, 0);
  int64_t lo = 0, hi = INT64_MAX;
  if (coop > 0) {
    void *args[] = {&c, &lo, &hi};
    e = cudaLaunchCooperativeKernel((const void *)panel_kernel<true>, dim3((unsigned)nblocks), dim3(kPanelThreads),
                                    args, 0, stream);
  } else {
    for (int64_t ph = 0, n = panel_phases(c0, c1, m); ph < n; ++ph)
      panel_kernel<false><<<(unsigned)nblocks, kPanelThreads, 0, stream>>>(c, ph, ph + 1);
  }
  if (e == cudaSuccess) panel_copy_kernel<<<blocks_for(rows * w, 256), 256, 0, stream>>>(c, 1);
  if (e == cudaSuccess && c.perm) panel_perm_kernel<<<blocks_for(m, 256), 256, 0, stream>>>(c);
  if (e == cudaSuccess) e = cudaGetLastError();
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
