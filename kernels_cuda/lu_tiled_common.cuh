// What the tiled LU's CUDA kernels share (kernels_cuda/lu_panel.cu, lu_urow.cu, lu_laswp.cu):
// the tile grid in device memory (dgrid), the exact path (RN of the exact sum of a whole
// entry's terms, by a warp or a block), the stream-ordered scratch with the grid's arrays, and
// the row map of L's column copies. Included once by each of those files (everything here is
// in an anonymous namespace or inline).
#ifndef EXSTAR_KERNELS_CUDA_LU_TILED_COMMON_CUH
#define EXSTAR_KERNELS_CUDA_LU_TILED_COMMON_CUH
#include <cuda_runtime.h>
#include "kernels_cuda/lu_tiled.h"
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
// warp or a whole block. Thread t of `step` threads takes the terms k ≡ t (mod step) into a sink
// (`terms(sink, t, step)` feeds a thread its share and returns the steps' flags):
//  - first the retry: each thread a bounded double-double (bdd_sink), merged by a tree, rounded
//    once when its bound proves the rounding (exstar_bdd_round_ok). Entries decline the fast
//    path because the tiles' a priori bounds (k³ 2^-106 of the largest products) are loose where
//    the sum cancels; the retry's bound is a posteriori (2^-52 of the magnitudes its additions
//    round), so it accepts nearly all of them: no atomics, no accumulator to round;
//  - else (ties, zeros, specials, products off the fast path) the exact sum: each thread's FPE
//    (acc_sink) spills into the shared accumulator `acc` (EXSTAR_ACC_WORDS words, atomics), then
//    every FPE and the flags go into it and one thread rounds it. The same core steps as the CPU
//    kernel's exact_sum (an exact accumulator: the split of the terms among threads cannot show).
// Both give RN of the same exact value, so the bits never depend on which one ran. `retry`
// false (the exact_only mode of the tests) goes straight to the exact sum; `rep` (may be NULL)
// counts the entries that took it.
struct acc_sink {
  exstar_i64 *acc;
  double *fpe;
  __device__ __forceinline__ int step(double l, double u) { return exstar_dot_step_atomic(acc, fpe, -l, u); }
};
struct bdd_sink {
  exstar_bdd d{0.0, 0.0, 0.0, 0.0};
  __device__ __forceinline__ int step(double l, double u) { return !exstar_bdd_add_product(&d, -l, u); }
};

// The terms [k0, k1) of thread t of step: kExactBatch terms' loads first, then their steps (the
// loads overlap instead of each waiting behind the previous step's accumulator atomics).
template <class Sink, class L, class U>
__device__ __forceinline__ int span_terms(Sink &sink, int64_t k0, int64_t k1, int t, int step, L l, U u)
{
  int flags = 0;
  int64_t k = k0 + t;
  for (; k + (int64_t)step * (kExactBatch - 1) < k1; k += (int64_t)step * kExactBatch) {
    double lv[kExactBatch], uv[kExactBatch];
#pragma unroll
    for (int q = 0; q < kExactBatch; ++q) lv[q] = l(k + (int64_t)step * q), uv[q] = u(k + (int64_t)step * q);
#pragma unroll
    for (int q = 0; q < kExactBatch; ++q) flags |= sink.step(lv[q], uv[q]);
  }
  for (; k < k1; k += step) flags |= sink.step(l(k), u(k));
  return flags;
}

// The addresses of one entry's terms, tile by tile, for the exact path of a whole block (in
// shared memory, filled by fill_terms_cache): for block column tk < n, row r of L starts at l[tk]
// (stride ldl[tk]) and column j of U at u[tk]. Without it each term's load waits behind the loads
// of its tile's pointer and row map; a declined entry of a panel's rows phase, late in a large
// LU, reads ~n terms that way while the whole grid waits at the phase's barrier.
constexpr int kTermsCacheTiles = 128;
struct terms_cache {
  const double *l[kTermsCacheTiles];
  const double *u[kTermsCacheTiles];
  int64_t ldl[kTermsCacheTiles];
  uint32_t n;
};

// c := the addresses of row r of L and column j of U (not RowU) in block columns tk < kg / nb,
// as grid_terms finds them, by the whole block (every thread calls it; it syncs the block first,
// so that no thread still reads the previous entry's).
__device__ __forceinline__ void fill_terms_cache(terms_cache &c, const dgrid &g, int64_t r, int64_t j, int64_t kg)
{
  __syncthreads();
  const int64_t nt = (kg + g.nb - 1) / g.nb;
  const uint32_t n = g.lc ? (uint32_t)min64(nt, kTermsCacheTiles) : 0u;
  const int64_t tj = j / g.nb, cj = j % g.nb;
  for (uint32_t tk = threadIdx.x; tk < n; tk += blockDim.x) {
    const int64_t s = (int64_t)tk < g.rmk ? (int64_t)g.rmap[(r - g.rm0) + (int64_t)tk * g.rmld] : r - (int64_t)tk * g.nb;
    const int64_t tu = (int64_t)tk + tj * g.mt;
    c.l[tk] = g.lc[tk] + s;
    c.ldl[tk] = g.ldlc[tk];
    c.u[tk] = g.a[tu] + cj * g.lda[tu];
  }
  if (threadIdx.x == 0) c.n = n;
  __syncthreads();
}

// The terms k < kg of row r of the tile grid times column j (RowU: times row j, the Cholesky's
// l(j, k), from the column copies too when the grid has them); tc (NULL: none) the block's cache
// of their addresses. With column copies, kg must not pass the first column of the panel that
// writes them. A term's tile and offset by one
// 32-bit division (the grid's indices are below 2^31; dgrid::at's two 64-bit divisions a load
// were most of the exact path's time), its tile's address from the cached arrays; the loads of
// kExactBatch terms in flight together, across tile boundaries.
template <bool RowU = false, class Sink>
__device__ __forceinline__ int grid_terms(Sink &sink, const dgrid &g, int64_t r, int64_t j, int64_t kg, int t,
                                          int step, const terms_cache *tc = nullptr)
{
  const uint32_t nb = (uint32_t)g.nb, ri = (uint32_t)(r % g.nb), cj = (uint32_t)(j % g.nb);
  const int64_t ti = r / g.nb, tj = j / g.nb, mt = g.mt;
  double *const *a = g.a;
  const int64_t *lda = g.lda;
  double *const *lc = g.lc;
  const int64_t *ldlc = g.ldlc;
  const int32_t *rmap = g.rmap ? g.rmap + (r - g.rm0) : nullptr;
  const int64_t rmld = g.rmld, rmk = g.rmk;
  const uint32_t cached = tc ? tc->n : 0u;
  auto l = [=](int64_t k) {
    const uint32_t tk = (uint32_t)k / nb;
    if (tk < cached) return tc->l[tk][(int64_t)((uint32_t)k - tk * nb) * tc->ldl[tk]];
    if (lc) { // the column copy of block column tk, the row where it stands there
      const int64_t s = (int64_t)tk < rmk ? (int64_t)rmap[(int64_t)tk * rmld] : r - (int64_t)tk * nb;
      return lc[tk][s + (int64_t)((uint32_t)k - tk * nb) * ldlc[tk]];
    }
    const int64_t tl = ti + (int64_t)tk * mt;
    return a[tl][ri + ((uint32_t)k - tk * nb) * lda[tl]];
  };
  auto u = [=](int64_t k) {
    const uint32_t tk = (uint32_t)k / nb;
    if (!RowU && tk < cached) return tc->u[tk][(uint32_t)k - tk * nb];
    if (RowU && lc) return lc[tk][(j - (int64_t)tk * nb) + (int64_t)((uint32_t)k - tk * nb) * ldlc[tk]];
    if (RowU) {
      const int64_t tu = tj + (int64_t)tk * mt;
      return a[tu][cj + ((uint32_t)k - tk * nb) * lda[tu]];
    }
    const int64_t tu = tk + tj * mt;
    return a[tu][cj * lda[tu] + ((uint32_t)k - tk * nb)];
  };
  return span_terms(sink, 0, kg, t, step, l, u);
}

// acc := init (NULL: zero) + a (when with_a) + the terms, exactly, by a whole warp (every lane
// calls it); lane 0 then holds it complete (flags added).
template <class Terms>
__device__ __forceinline__ void exact_acc_warp(exstar_i64 *acc, const exstar_i64 *init, bool with_a, double a,
                                               Terms terms)
{
  const int lane = threadIdx.x & 31;
  for (int w = lane; w < EXSTAR_ACC_WORDS; w += 32) acc[w] = init ? init[w] : 0;
  __syncwarp();
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  acc_sink sink{acc, fpe};
  int flags = lane == 0 && with_a ? exstar_sum_step_atomic(acc, fpe, a) : 0;
  flags |= terms(sink, lane, 32);
  exstar_acc_flush_fpe_atomic(acc, fpe);
  flags = (int)__reduce_or_sync(0xffffffffu, (unsigned)flags);
  __syncwarp();
  if (lane == 0) exstar_acc_add_flags_private(acc, flags);
}

// The retry's merge of a warp's bounded double-doubles into lane 0's; bad: any lane's.
__device__ __forceinline__ void bdd_warp_merge(exstar_bdd &d, int &bad)
{
  bad = (int)__reduce_or_sync(0xffffffffu, (unsigned)bad);
  for (int off = 16; off > 0; off >>= 1) {
    const exstar_bdd o{__shfl_down_sync(0xffffffffu, d.hi, off), __shfl_down_sync(0xffffffffu, d.lo, off),
                       __shfl_down_sync(0xffffffffu, d.err, off), __shfl_down_sync(0xffffffffu, d.mag, off)};
    if ((int)(threadIdx.x & 31) < off) exstar_bdd_merge(&d, &o);
  }
}

// The retry by a whole warp: whether it proved *y (every lane gets both).
template <class Terms>
__device__ __forceinline__ bool retry_warp(double a, Terms &terms, double *y)
{
  const int lane = threadIdx.x & 31;
  bdd_sink sink;
  int bad = lane == 0 ? !exstar_bdd_add(&sink.d, a) : 0;
  bad |= terms(sink, lane, 32);
  bdd_warp_merge(sink.d, bad);
  double v = 0.0;
  int ok = lane == 0 && !bad && exstar_bdd_round_ok(&sink.d, &v);
  ok = __shfl_sync(0xffffffffu, ok, 0);
  *y = __shfl_sync(0xffffffffu, v, 0);
  return ok;
}

template <class Terms>
__device__ __noinline__ double exact_sum_warp(exstar_i64 *acc, double a, bool retry, unsigned long long *rep,
                                              Terms terms)
{
  double y = 0.0;
  if (retry && retry_warp(a, terms, &y)) return y;
  if (rep && (threadIdx.x & 31) == 0) atomicAdd(rep, 1ull);
  exact_acc_warp(acc, nullptr, true, a, terms);
  if ((threadIdx.x & 31) == 0) y = exstar_acc_round_private(acc);
  y = __shfl_sync(0xffffffffu, y, 0);
  __syncwarp();
  return y;
}

// The retry by the whole block (every thread calls it): whether it proved *y.
template <class Terms>
__device__ __forceinline__ bool retry_block(double a, Terms &terms, double *y)
{
  __shared__ exstar_bdd wd[32];
  __shared__ int wbad[32];
  __shared__ int sok;
  __shared__ double sv;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  bdd_sink sink;
  int bad = threadIdx.x == 0 ? !exstar_bdd_add(&sink.d, a) : 0;
  bad |= terms(sink, (int)threadIdx.x, (int)blockDim.x);
  bdd_warp_merge(sink.d, bad);
  if (lane == 0) wd[warp] = sink.d, wbad[warp] = bad;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < (int)(blockDim.x >> 5); ++w) exstar_bdd_merge(&sink.d, &wd[w]), bad |= wbad[w];
    double v = 0.0;
    sok = !bad && exstar_bdd_round_ok(&sink.d, &v);
    sv = v;
  }
  __syncthreads();
  *y = sv;
  return sok; // read before any thread can pass the next call's barriers
}

// The same by every thread of the block (every thread calls it with the same arguments).
template <class Terms>
__device__ __noinline__ double exact_sum_block(exstar_i64 *acc, double a, bool retry, unsigned long long *rep,
                                               Terms terms)
{
  __shared__ int sflags;
  __shared__ double sy;
  double y = 0.0;
  if (retry && retry_block(a, terms, &y)) return y;
  if (threadIdx.x == 0 && rep) atomicAdd(rep, 1ull);
  for (int w = threadIdx.x; w < EXSTAR_ACC_WORDS; w += blockDim.x) acc[w] = 0;
  if (threadIdx.x == 0) sflags = 0;
  __syncthreads();
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  acc_sink sink{acc, fpe};
  int flags = threadIdx.x == 0 ? exstar_sum_step_atomic(acc, fpe, a) : 0;
  flags |= terms(sink, (int)threadIdx.x, (int)blockDim.x);
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

// The device's default memory pool keeps up to 1 GiB of what the scratch allocations free (its
// default gives it back at every synchronization, and a panel's scratch of hundreds of MB was then
// mapped again for every panel).
inline void keep_pool()
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

inline int status(cudaError_t e)
{
  if (e == cudaSuccess) e = cudaGetLastError();
  return e == cudaSuccess ? 0 : -(int)e;
}

inline unsigned blocks_for(int64_t n, int threads) { return (unsigned)((n + threads - 1) / threads); }

// A panel's own streams: two chains of one panel run side by side on them (the Cholesky's
// diagonal tile and its rows below), forked from and joined to the task's stream by events. They
// have the device's highest priority: a panel's kernels are small and latency-bound, and the
// trailing updates, queued on StarPU's streams at the default priority, would otherwise hold the
// SMs they wait for (the block scheduler starts pending blocks of a higher-priority stream first;
// running blocks are never preempted). The first stream (the chain the other waits for) has the
// highest priority, the second the next one. Made once per device and host thread (a StarPU worker's
// thread runs one task at a time; streams live as long as the device's context).
// EXSTAR_CUDA_PANEL_PRIORITY=0 makes both at the default priority, =1 the first one only above it,
// EXSTAR_CUDA_PANEL_STREAMS=0 runs both chains on the task's stream, for measurements; none
// changes a bit.
struct panel_streams {
  cudaStream_t side[2] = {nullptr, nullptr}; // the chains' streams (both the task's when off)
  cudaStream_t task = nullptr;

  static bool wanted()
  {
    static const bool on = [] {
      const char *e = std::getenv("EXSTAR_CUDA_PANEL_STREAMS");
      return !(e && e[0] == '0');
    }();
    return on;
  }
  // Forks both side streams from the task's stream s.
  cudaError_t fork(cudaStream_t s)
  {
    task = side[0] = side[1] = s;
    if (!wanted()) return cudaSuccess;
    constexpr int kMaxDevices = 64;
    thread_local cudaStream_t made[kMaxDevices][2] = {};
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess || dev >= kMaxDevices) return e != cudaSuccess ? e : cudaErrorInvalidDevice;
    if (!made[dev][0]) {
      static const int raised = [] { // how many of the two streams above the default priority
        const char *p = std::getenv("EXSTAR_CUDA_PANEL_PRIORITY");
        return p && p[0] >= '0' && p[0] <= '1' ? p[0] - '0' : 2;
      }();
      int least = 0, greatest = 0;
      e = cudaDeviceGetStreamPriorityRange(&least, &greatest);
      for (int k = 0; k < 2 && e == cudaSuccess; ++k) { // the first chain above the second
        const int p = k < raised ? (greatest + k < least ? greatest + k : least) : least;
        e = cudaStreamCreateWithPriority(&made[dev][k], cudaStreamNonBlocking, p);
      }
      if (e != cudaSuccess) { // none or both
        for (int k = 0; k < 2; ++k)
          if (made[dev][k]) cudaStreamDestroy(made[dev][k]), made[dev][k] = nullptr;
        return e;
      }
    }
    cudaEvent_t start;
    e = cudaEventCreateWithFlags(&start, cudaEventDisableTiming);
    if (e != cudaSuccess) return e;
    e = cudaEventRecord(start, s);
    for (int k = 0; k < 2 && e == cudaSuccess; ++k) e = cudaStreamWaitEvent(made[dev][k], start, 0);
    cudaEventDestroy(start); // released once it has completed
    if (e == cudaSuccess) side[0] = made[dev][0], side[1] = made[dev][1];
    return e;
  }
  // Stream `to` waits for what is queued on stream `from` so far (nothing when they are one).
  static cudaError_t follow(cudaStream_t to, cudaStream_t from)
  {
    if (to == from) return cudaSuccess;
    cudaEvent_t ev;
    cudaError_t e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    if (e != cudaSuccess) return e;
    e = cudaEventRecord(ev, from);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(to, ev, 0);
    cudaEventDestroy(ev);
    return e;
  }
  // The task's stream waits for both side streams (called on every path, errors included).
  cudaError_t join_all()
  {
    cudaError_t e = cudaSuccess;
    for (int k = 0; k < 2; ++k) {
      const cudaError_t f = follow(task, side[k]);
      if (e == cudaSuccess) e = f;
    }
    return e;
  }
};

} // namespace

#endif
