// Exact gemv on a CUDA device: per-output exact accumulators (acc_i += Σ_j α·a_ij·x_j) and the
// finish y_i := RN(acc_i + β·y_i).
//
// Both shapes split α·x_k once per block into s_k + t_k (exstar_gemv_scale_x, in shared memory),
// so that a term is a·s, plus a·t when t != 0 (α not a power of two): dot terms whose TwoProd
// parts go to two short FPEs per output and thread (f0: the products, f1: their errors, as in
// dot.cu).
//  'N' (column-major): a thread owns R = 2 consecutive rows (one double2 per column: a warp reads
//      512 consecutive bytes); its FPEs stay in registers over a chunk of columns, the columns cut
//      into chunks over grid.y so that one wave of blocks fills every SM.
//  'T': a warp owns a column (a dot read with double2, its two halves into two FPE pairs), a block
//      8 columns, splitting α·x once per tile of rows for all of them; at the end the warp's FPEs
//      are merged by shuffles and flushed into the column's accumulator.
// The hot loops run groups of terms (the loads in flight) without a single test: products are
// assumed inside the TwoProd window and FPE additions free of remainders, and only whether that
// held is noted. It almost always does (FP64 work per term: 2 for TwoProd, 24 for the four
// TwoSums, ~3 compares); when it does not, the group is redone term by term from the FPEs saved
// before it by the careful path (term(): spills and the core's general exact term, straight into
// the output's accumulator in global memory with atomicAdd). Data of widely spread exponents or
// with many zeros takes that path often: slower, never inexact. A last kernel normalizes the
// accumulators (all lanes of a warp per accumulator). Any grid, chunking, vector width or FPE
// length gives the same bits: every step is exact.
//
// H100 80GB HBM3, n = m = 16384, lda = n, α = 1, β = 0, uniform data, zero + acc + finish timed
// (bench/cuda_gemv_bench.cu): 'N' 0.82 ms, 'T' 0.89 ms; cublasDgemv 0.71 / 0.70 ms (1.16x,
// 1.28x). Before (one block per column for 'T', tests inside the loops, one-thread normalize and
// rounding): 1.33 / 1.72 ms. Random exponents in [-300, 300] ("wide"): about 20x / 10x cuBLAS.
#ifndef EXSTAR_FPE_N
#define EXSTAR_FPE_N 2 /* this file's FPE length (core/accumulator.h's default is 4) */
#endif
#include <stdint.h>

#include "kernels_cuda/gemv.h"
#include "kernels_cuda/acc_cuda.cuh"
#include "core/gemv.h"

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) exstar_cuda_atomic_add((p), (v))
#define EXSTAR_ACC_SFX _atomic
#include "core/gemv.inc"
#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _private
#include "core/gemv.inc"

namespace {

constexpr int kN = EXSTAR_FPE_N;
constexpr int kNz = EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY; // the flags of every fast term
constexpr long long kW = EXSTAR_ACC_WORDS;

// Tuning knobs (speed only; the bits never depend on them). Measured on an H100: inlining the
// careful path beats __noinline__ calls (the call ABI forced spills into the hot loops); 'N' is
// best with 4 loads in flight and 80 registers, 'T' with 2 and 64.
#ifndef EXSTAR_CUDA_GEMV_RARE
#define EXSTAR_CUDA_GEMV_RARE __forceinline__
#endif
#ifndef EXSTAR_CUDA_GEMV_BLOCKS_N
#define EXSTAR_CUDA_GEMV_BLOCKS_N 3
#endif
#ifndef EXSTAR_CUDA_GEMV_UNROLL_N
#define EXSTAR_CUDA_GEMV_UNROLL_N 4
#endif
#ifndef EXSTAR_CUDA_GEMV_BLOCKS_T
#define EXSTAR_CUDA_GEMV_BLOCKS_T 4
#endif
#ifndef EXSTAR_CUDA_GEMV_UNROLL_T
#define EXSTAR_CUDA_GEMV_UNROLL_T 2
#endif
constexpr int kThreadsN = 256;  // 'N': threads per block
constexpr int kBlocksN = EXSTAR_CUDA_GEMV_BLOCKS_N;     // 'N': blocks per SM (bounds the registers)
constexpr int kUnrollN = EXSTAR_CUDA_GEMV_UNROLL_N;     // 'N': columns (loads) in flight per thread
constexpr int kTileN = kThreadsN; // 'N': columns whose α·x split one shared tile holds
constexpr long long kMinColsN = 64;   // 'N': columns per chunk at least (a chunk ends in a flush)
constexpr int kWarpsT = 8;      // 'T': columns (warps) per block
constexpr int kThreadsT = 32 * kWarpsT;
constexpr int kBlocksT = EXSTAR_CUDA_GEMV_BLOCKS_T;     // 'T': blocks per SM (bounds the registers)
constexpr int kUnrollT = EXSTAR_CUDA_GEMV_UNROLL_T;     // 'T': loads in flight per thread
constexpr long long kTileT = 2048; // 'T': rows per tile: its s and t fill 32 KiB of shared memory
constexpr long long kMinRowsT = 256;
static_assert(3 * kUnrollN <= 64 && 3 * kUnrollT <= 64, "a fast group's heads stay far below 2^1024");
// Terms one launch adds to one accumulator at most: a term adds at most 10 values below 2^32 to a
// digit (the general step's spills and its flush), so normalized digits stay below 2^32 + 2^26 *
// 10 * 2^32 < 2^62, with room for the flushes at the ends of the chunks.
constexpr long long kMaxTermsPerLaunch = 1LL << 26;

// What a launch works on: a(i, j) = A[offa + i + j*lda] for i < m, j < n; x_k = x[fx + k*incx];
// output k's accumulator at acc + k*kW; chunk: columns ('N') or rows ('T') per grid.y index.
struct gemv_args {
  long long m, n;
  double alpha;
  const double *A;
  long long offa, lda;
  const double *x;
  long long fx, incx;
  exstar_i64 *acc;
  long long chunk;
  long long tile; // 'T': rows per shared-memory tile (even)
};

template <int R> struct vec_of;                   // R consecutive doubles, read by one load
template <> struct vec_of<1> { using type = double; };
template <> struct vec_of<2> { using type = double2; };
__device__ __forceinline__ double part(double v, int) { return v; }
__device__ __forceinline__ double part(double2 v, int r) { return r ? v.y : v.x; }

// ---- the rare steps of the careful path -------------------------------------------------------

// acc += v: a remainder or an oversized head that left an FPE.
__device__ EXSTAR_CUDA_GEMV_RARE void spill(exstar_i64 *acc, double v) { exstar_acc_add_double_atomic(acc, v); }

// The whole term α·a·x the core's general way (exstar_gemv_term on an FPE of its own, flushed):
// a·s outside the TwoProd window (zeros, specials, extreme magnitudes), or s == 0 (no split).
__device__ EXSTAR_CUDA_GEMV_RARE int slow_term(exstar_i64 *acc, double alpha, double a, double x, double s, double t)
{
  double f[kN];
  exstar_fpe_zero(f);
  const int flags = exstar_gemv_term_atomic(acc, f, alpha, a, x, s, t);
  exstar_acc_flush_fpe_atomic(acc, f);
  return flags;
}

// acc += a·t when it is outside the TwoProd window (a·s was fast: a is finite and nonzero, and
// the term's flags are a·s's).
__device__ EXSTAR_CUDA_GEMV_RARE void slow_product(exstar_i64 *acc, double a, double t)
{
  double f[kN];
  exstar_fpe_zero(f);
  (void)exstar_dot_step_atomic(acc, f, a, t);
  exstar_acc_flush_fpe_atomic(acc, f);
}

// ---- the careful path: every case, term by term -----------------------------------------------

// f += v (|v| < EXSTAR_FPE_TERM_MAX): the branch-free FPE addition (the same result as
// exstar_fpe_add, without its early-exit tests), the remainder and an oversized head to acc.
__device__ __forceinline__ void push(exstar_i64 *acc, double f[kN], double v)
{
  const double r = exstar_fpe_add_full(f, 1, v);
  if (r != 0.0) spill(acc, r);
  if (!(fabs(f[0]) < EXSTAR_FPE_HEAD_MAX)) spill(acc, exstar_fpe_take_large_head(f));
}

// One term α·a·x of an output, given the split (s, t) of α·x; *x is read on the slow path only.
// kT: some t of the tile is nonzero. The fast test fails for s == 0, so that case is slow too.
template <bool kT>
__device__ __forceinline__ void term(exstar_i64 *acc, double f0[kN], double f1[kN], int &flags, double a, double s,
                                     double t, double alpha, const double *x)
{
  double p, e;
  if (exstar_two_prod_fast(a, s, &p, &e)) {
    push(acc, f0, p);
    push(acc, f1, e);
    if (kT && t != 0.0) { // a·t is about 2^-53 of a·s: the scale of f1
      double pt, et;
      if (exstar_two_prod_fast(a, t, &pt, &et)) {
        push(acc, f1, pt);
        push(acc, f1, et);
      } else {
        slow_product(acc, a, t);
      }
    }
    flags |= kNz;
  } else {
    flags |= slow_term(acc, alpha, a, *x, s, t);
  }
}

// ---- the fast path: groups of terms without a branch --------------------------------------------
// A group (the terms of the loads in flight) first runs with no test on the way: every product is
// assumed inside the TwoProd window and every FPE addition free of remainder; whether that held is
// only noted (ok). It almost always does (uniform-like data); when not, the caller restores the
// FPEs saved before the group and redoes it with term(), which handles every case. No TwoSum of
// a group can overflow: heads are below EXSTAR_FPE_HEAD_MAX = 2^1000 at its start (checked at
// its end: heads_ok) and it adds at most 3 terms below 2^996 per load to an FPE (static_assert
// below: far from 2^1024).

// f += v with no test: whether nothing was left over.
__device__ __forceinline__ int add_ok(double f[kN], double v) { return exstar_fpe_add_full(f, 1, v) == 0.0; }

// One term a·s (+ a·t), no test taken: whether it was fast (else f0 and f1 hold garbage).
template <bool kT>
__device__ __forceinline__ int fast_term(double f0[kN], double f1[kN], double a, double s, double t)
{
  double p, e;
  int ok = exstar_two_prod_fast(a, s, &p, &e);
  ok &= add_ok(f0, p);
  ok &= add_ok(f1, e);
  if (kT) { // t == 0: a·t adds zeros (a is finite when a·s is fast)
    double pt, et;
    ok &= exstar_two_prod_fast(a, t, &pt, &et) | (t == 0.0);
    ok &= add_ok(f1, pt);
    ok &= add_ok(f1, et);
  }
  return ok;
}

__device__ __forceinline__ int heads_ok(const double f0[kN], const double f1[kN])
{
  return (fabs(f0[0]) < EXSTAR_FPE_HEAD_MAX) & (fabs(f1[0]) < EXSTAR_FPE_HEAD_MAX);
}

// An output's FPEs, and their copy from before the group.
template <int R> struct fpes {
  double f0[R][kN], f1[R][kN];
};

template <int R> __device__ __forceinline__ void zero(fpes<R> &F)
{
#pragma unroll
  for (int r = 0; r < R; ++r) {
    exstar_fpe_zero(F.f0[r]);
    exstar_fpe_zero(F.f1[r]);
  }
}

// f0 += f1 (exact; spills to acc).
__device__ __forceinline__ void merge_fpe(exstar_i64 *acc, double f0[kN], double f1[kN])
{
#pragma unroll
  for (int k = 0; k < kN; ++k)
    if (f1[k] != 0.0) (void)exstar_sum_step_atomic(acc, f0, f1[k]);
}

// s_k, t_k of α·x_k (exstar_gemv_scale_x) for the len entries from k0 into ss, st, and x_k into
// sx when given. Returns, to every thread, whether some t_k != 0. The whole block calls it.
__device__ __forceinline__ int split_x(const gemv_args &g, long long k0, int len, double *ss, double *st, double *sx)
{
  int any_t = 0;
  for (int k = threadIdx.x; k < len; k += blockDim.x) {
    const double xk = g.x[g.fx + (k0 + k) * g.incx];
    double t;
    ss[k] = exstar_gemv_scale_x(g.alpha, xk, &t);
    st[k] = t;
    if (sx) sx[k] = xk;
    any_t |= t != 0.0;
  }
  return __syncthreads_or(any_t);
}

// ---- 'N' ------------------------------------------------------------------------------------

// Columns k < len term by term (the careful path) for the R rows of a thread (row r into acc[r],
// F.f0[r], F.f1[r]): col points at the first column, ldv is lda in vecs. The entries are read
// again (from the caches) rather than kept: fewer registers live across the fast path.
template <int R, bool kT>
__device__ __forceinline__ void n_columns(const typename vec_of<R>::type *col, long long ldv, int len,
                                          const double *ss, const double *st, const double *sx, double alpha,
                                          exstar_i64 *const acc[R], fpes<R> &F, int (&flags)[R])
{
  for (int k = 0; k < len; ++k) {
    const typename vec_of<R>::type a = __ldg(col + k * ldv);
#pragma unroll
    for (int r = 0; r < R; ++r)
      term<kT>(acc[r], F.f0[r], F.f1[r], flags[r], part(a, r), ss[k], st[k], alpha, &sx[k]);
  }
}

// The len columns of one tile for the R rows of a thread, in groups of kUnrollN columns.
template <int R, bool kT>
__device__ __forceinline__ void n_tile(const typename vec_of<R>::type *col, long long ldv, int len, const double *ss,
                                       const double *st, const double *sx, double alpha, exstar_i64 *const acc[R],
                                       fpes<R> &F, int (&flags)[R])
{
  using vec = typename vec_of<R>::type;
  int k = 0;
  for (; k + kUnrollN <= len; k += kUnrollN) {
    vec a[kUnrollN];
    double s[kUnrollN], t[kUnrollN];
#pragma unroll
    for (int u = 0; u < kUnrollN; ++u) a[u] = __ldg(col + (k + u) * ldv);
#pragma unroll
    for (int u = 0; u < kUnrollN; ++u) {
      s[u] = ss[k + u];
      t[u] = kT ? st[k + u] : 0.0;
    }
    const fpes<R> saved = F;
    int ok = 1;
#pragma unroll
    for (int u = 0; u < kUnrollN; ++u)
#pragma unroll
      for (int r = 0; r < R; ++r) ok &= fast_term<kT>(F.f0[r], F.f1[r], part(a[u], r), s[u], t[u]);
#pragma unroll
    for (int r = 0; r < R; ++r) ok &= heads_ok(F.f0[r], F.f1[r]);
    if (ok) {
#pragma unroll
      for (int r = 0; r < R; ++r) flags[r] |= kNz;
    } else { // rare: redo the group term by term, from the FPEs before it
      F = saved;
      n_columns<R, kT>(col + k * ldv, ldv, kUnrollN, ss + k, st + k, sx + k, alpha, acc, F, flags);
    }
  }
  n_columns<R, kT>(col + k * ldv, ldv, len - k, ss + k, st + k, sx + k, alpha, acc, F, flags);
}

// Block (bx, by): rows [bx*kThreadsN*R, +kThreadsN*R) (R per thread; m is a multiple of R, and
// for R = 2, A + offa and lda are 16-byte aligned) x the columns of chunk by.
template <int R>
__global__ void __launch_bounds__(kThreadsN, kBlocksN) gemv_n_kernel(gemv_args g)
{
  using vec = typename vec_of<R>::type;
  __shared__ double ss[kTileN], st[kTileN], sx[kTileN];
  const long long i = ((long long)blockIdx.x * kThreadsN + threadIdx.x) * R;
  const bool active = i < g.m;
  const long long c0 = (long long)blockIdx.y * g.chunk;
  const long long c1 = c0 + g.chunk < g.n ? c0 + g.chunk : g.n;
  const long long ldv = g.lda / R;
  const vec *col = reinterpret_cast<const vec *>(g.A + g.offa + (active ? i : 0)) + c0 * ldv;
  exstar_i64 *acc[R];
  fpes<R> F;
  zero(F);
  int flags[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    acc[r] = g.acc + (active ? i + r : 0) * kW;
    flags[r] = 0;
  }
  for (long long j0 = c0; j0 < c1; j0 += kTileN) {
    const int len = (int)(c1 - j0 < kTileN ? c1 - j0 : kTileN);
    __syncthreads(); // the previous tile is consumed
    const int any_t = split_x(g, j0, len, ss, st, sx);
    if (active) {
      if (any_t) n_tile<R, true>(col, ldv, len, ss, st, sx, g.alpha, acc, F, flags);
      else n_tile<R, false>(col, ldv, len, ss, st, sx, g.alpha, acc, F, flags);
    }
    col += len * ldv;
  }
  if (!active) return;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    merge_fpe(acc[r], F.f0[r], F.f1[r]);
    exstar_acc_flush_fpe_atomic(acc[r], F.f0[r]);
    if (flags[r]) exstar_acc_add_flags_atomic(acc[r], flags[r]); // the normalize makes it 0/1
  }
}

// ---- 'T' ------------------------------------------------------------------------------------

// The V rows of entry q (rows q*V .. q*V+V-1 of the chunk) term by term (the careful path), read
// again from the caches.
template <int V, bool kT>
__device__ __forceinline__ void t_entries(const typename vec_of<V>::type *cv, int q, const double *ss,
                                          const double *st, double alpha, const double *xs, long long incx,
                                          exstar_i64 *acc, fpes<V> &F, int &flags)
{
  using vec = typename vec_of<V>::type;
  const vec a = __ldg(cv + q), s = reinterpret_cast<const vec *>(ss)[q], t = reinterpret_cast<const vec *>(st)[q];
#pragma unroll
  for (int r = 0; r < V; ++r)
    term<kT>(acc, F.f0[r], F.f1[r], flags, part(a, r), part(s, r), part(t, r), alpha, xs + (long long)(q * V + r) * incx);
}

// A warp's dot of one column over the len rows of a chunk, V rows per load (col, ss, st 16-byte
// aligned for V = 2), row parity r into F.f0[r], F.f1[r]; xs: x of the chunk's first row, for
// the slow path.
template <int V, bool kT>
__device__ __forceinline__ void t_column(const double *col, int len, const double *ss, const double *st,
                                         double alpha, const double *xs, long long incx, exstar_i64 *acc,
                                         fpes<V> &F, int &flags)
{
  using vec = typename vec_of<V>::type;
  const vec *cv = reinterpret_cast<const vec *>(col);
  const vec *sv = reinterpret_cast<const vec *>(ss), *tv = reinterpret_cast<const vec *>(st);
  const int nv = len / V, lane = threadIdx.x & 31;
  int p = lane;
  for (; p + (kUnrollT - 1) * 32 < nv; p += kUnrollT * 32) {
    vec a[kUnrollT];
#pragma unroll
    for (int u = 0; u < kUnrollT; ++u) a[u] = __ldg(cv + p + u * 32);
    const fpes<V> saved = F;
    int ok = 1;
#pragma unroll
    for (int u = 0; u < kUnrollT; ++u) {
      const vec s = sv[p + u * 32], t = kT ? tv[p + u * 32] : vec{};
#pragma unroll
      for (int r = 0; r < V; ++r) ok &= fast_term<kT>(F.f0[r], F.f1[r], part(a[u], r), part(s, r), part(t, r));
    }
#pragma unroll
    for (int r = 0; r < V; ++r) ok &= heads_ok(F.f0[r], F.f1[r]);
    if (ok) {
      flags |= kNz;
    } else { // rare: redo the group term by term, from the FPEs before it
      F = saved;
      for (int u = 0; u < kUnrollT; ++u) t_entries<V, kT>(cv, p + u * 32, ss, st, alpha, xs, incx, acc, F, flags);
    }
  }
  for (; p < nv; p += 32) t_entries<V, kT>(cv, p, ss, st, alpha, xs, incx, acc, F, flags);
  if (V > 1 && lane == 0)
    for (int k = nv * V; k < len; ++k)
      term<kT>(acc, F.f0[0], F.f1[0], flags, __ldg(col + k), ss[k], st[k], alpha, xs + (long long)k * incx);
}

// Block (bx, by): columns [bx*kWarpsT, +kWarpsT), one per warp, rows [by*chunk, +chunk) in tiles
// of g.tile rows: the block splits α·x of a tile into shared memory (s and t, 2*tile doubles of
// dynamic shared memory) for all its columns, and each warp's FPEs stay in registers across the
// tiles, to be merged by shuffles and flushed into the column's accumulator once at the end.
// V = 2: A + offa and lda 16-byte aligned, chunk and tile even.
template <int V>
__global__ void __launch_bounds__(kThreadsT, kBlocksT) gemv_t_kernel(gemv_args g)
{
  extern __shared__ double2 smem2[]; // double2: 16-byte aligned for the V = 2 reads
  double *ss = reinterpret_cast<double *>(smem2), *st = ss + g.tile;
  const long long r0 = (long long)blockIdx.y * g.chunk, r1 = r0 + g.chunk < g.m ? r0 + g.chunk : g.m;
  const long long j = (long long)blockIdx.x * kWarpsT + (threadIdx.x >> 5);
  const bool active = j < g.n; // whole warps
  exstar_i64 *acc = g.acc + (active ? j : 0) * kW;
  const double *col = g.A + g.offa + (active ? j : 0) * g.lda;
  fpes<V> F;
  zero(F);
  int flags = 0;
  for (long long i0 = r0; i0 < r1; i0 += g.tile) {
    const int len = (int)(r1 - i0 < g.tile ? r1 - i0 : g.tile);
    __syncthreads(); // the previous tile is consumed
    const int any_t = split_x(g, i0, len, ss, st, nullptr);
    if (!active) continue;
    const double *xs = g.x + g.fx + i0 * g.incx;
    if (any_t) t_column<V, true>(col + i0, len, ss, st, g.alpha, xs, g.incx, acc, F, flags);
    else t_column<V, false>(col + i0, len, ss, st, g.alpha, xs, g.incx, acc, F, flags);
  }
  if (!active) return;
#pragma unroll
  for (int r = 1; r < V; ++r) {
    merge_fpe(acc, F.f0[0], F.f0[r]);
    merge_fpe(acc, F.f1[0], F.f1[r]);
  }
  merge_fpe(acc, F.f0[0], F.f1[0]);
  exstar_cuda_warp_merge_fpe(acc, F.f0[0]); // spills straight to the column's accumulator
  flags = (int)__reduce_or_sync(0xffffffffu, (unsigned)flags);
  if ((threadIdx.x & 31) == 0) {
    exstar_acc_flush_fpe_atomic(acc, F.f0[0]);
    if (flags) exstar_acc_add_flags_atomic(acc, flags); // the normalize makes it 0/1
  }
}

// ---- normalize and finish: one warp per accumulator ---------------------------------------------

constexpr int kWarpsAcc = 4; // accumulators (warps) per block
constexpr int kLaneDigits = (EXSTAR_ACC_NDIGITS + 31) / 32;

// A carry function of a run of digits: its carry out for each carry in c of -1, 0, 1, stored as
// c_out + 1 in bits 2(c+1), 2(c+1)+1. Runs compose (first, then the digits above).
__device__ __forceinline__ int carry_out(int fn, int c) { return ((fn >> (2 * (c + 1))) & 3) - 1; }
__device__ __forceinline__ int carry_fn(int om, int oz, int op) { return (om + 1) | ((oz + 1) << 2) | ((op + 1) << 4); }
__device__ __forceinline__ int compose(int first, int then)
{
  return carry_fn(carry_out(then, carry_out(first, -1)), carry_out(then, carry_out(first, 0)),
                  carry_out(then, carry_out(first, 1)));
}

// The carry out of a digit d in [-1, 2^32] given a carry in c: floor((d + c) / 2^32).
__device__ __forceinline__ int digit_carry_out(exstar_i64 d, int c)
{
  const exstar_i64 v = d + c;
  return v < 0 ? -1 : v > EXSTAR_ACC_DIGIT_MASK ? 1 : 0;
}

// Canonical form (as exstar_acc_normalize: digits below the top in [0, 2^32), special counters
// 0/1) of accumulator k < count per warp, lane l holding digits [l*kLaneDigits, +kLaneDigits) in
// registers. Two carry passes over all digits at once leave every digit below the top in
// [-1, 2^32], so that only carries of -1, 0, 1 remain; their ripple is resolved by a scan of the
// lanes' carry functions. The canonical digits of a value are unique: the serial normalize's.
__global__ void __launch_bounds__(32 * kWarpsAcc) normalize_kernel(long long count, exstar_i64 *acc)
{
  const long long k = (long long)blockIdx.x * kWarpsAcc + (threadIdx.x >> 5);
  if (k >= count) return; // whole warps
  const int lane = threadIdx.x & 31, first = lane * kLaneDigits;
  constexpr int kTop = EXSTAR_ACC_NDIGITS - 1; // never split: it keeps the sign
  exstar_i64 *a = acc + k * kW;
  exstar_i64 d[kLaneDigits], old[kLaneDigits];
#pragma unroll
  for (int j = 0; j < kLaneDigits; ++j) old[j] = d[j] = first + j < EXSTAR_ACC_NDIGITS ? a[first + j] : 0;
  for (int pass = 0; pass < 2; ++pass) {
    exstar_i64 c[kLaneDigits];
#pragma unroll
    for (int j = 0; j < kLaneDigits; ++j) c[j] = first + j < kTop ? exstar_digit_carry(&d[j]) : 0;
    const exstar_i64 below = __shfl_up_sync(0xffffffffu, c[kLaneDigits - 1], 1);
#pragma unroll
    for (int j = kLaneDigits - 1; j > 0; --j) d[j] += c[j - 1];
    d[0] += lane > 0 ? below : 0;
  }
  int fn = carry_fn(-1, 0, 1); // the identity
#pragma unroll
  for (int j = 0; j < kLaneDigits; ++j) {
    const int dj = first + j < kTop ? carry_fn(digit_carry_out(d[j], -1), digit_carry_out(d[j], 0),
                                                digit_carry_out(d[j], 1))
                                    : carry_fn(0, 0, 0);
    fn = compose(fn, dj);
  }
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const int lower = __shfl_up_sync(0xffffffffu, fn, off);
    if (lane >= off) fn = compose(lower, fn);
  }
  int c = __shfl_up_sync(0xffffffffu, carry_out(fn, 0), 1); // the carry into this lane's digits
  if (lane == 0) c = 0;
#pragma unroll
  for (int j = 0; j < kLaneDigits; ++j) {
    if (first + j < kTop) {
      d[j] += c;
      c = (int)exstar_digit_carry(&d[j]);
    } else {
      d[j] += c;
      c = 0;
    }
    if (first + j < EXSTAR_ACC_NDIGITS && d[j] != old[j]) a[first + j] = d[j];
  }
  if (lane < kW - EXSTAR_ACC_NDIGITS) {
    exstar_i64 *counter = a + EXSTAR_ACC_NDIGITS + lane;
    if (*counter != 0 && *counter != 1) *counter = 1;
  }
}

// y_i := RN(acc_i + β·y_i) for entry i < n per warp, on a shared copy: lane 0 adds β·y_i, the two
// signed carry-save passes of the rounding run on all digits at once (exstar_digit_after_pass),
// the warp finds the digits t and u of exstar_acc_round_at, and lane 0 rounds.
__global__ void __launch_bounds__(32 * kWarpsAcc) finish_kernel(long long n, double beta, double *y, long long fy,
                                                                long long incy, const exstar_i64 *acc)
{
  __shared__ exstar_i64 ws[kWarpsAcc][EXSTAR_ACC_WORDS];
  const long long i = (long long)blockIdx.x * kWarpsAcc + (threadIdx.x >> 5);
  if (i >= n) return; // whole warps
  const int lane = threadIdx.x & 31;
  exstar_i64 *w = ws[threadIdx.x >> 5];
  acc += i * kW;
  for (int k = lane; k < kW; k += 32) w[k] = acc[k];
  __syncwarp();
  double *yi = y + fy + i * incy;
  if (lane == 0) exstar_acc_add_beta_y_private(w, beta, beta != 0.0 ? *yi : 0.0);
  __syncwarp();
  for (int pass = 0; pass < 2; ++pass) {
    exstar_i64 nd[kLaneDigits];
#pragma unroll
    for (int j = 0; j < kLaneDigits; ++j) {
      const int k = lane + 32 * j;
      if (k < EXSTAR_ACC_NDIGITS) nd[j] = exstar_digit_after_pass(w[k], k > 0 ? w[k - 1] : 0, k);
    }
    __syncwarp();
#pragma unroll
    for (int j = 0; j < kLaneDigits; ++j)
      if (lane + 32 * j < EXSTAR_ACC_NDIGITS) w[lane + 32 * j] = nd[j];
    __syncwarp();
  }
  int top = -1;
#pragma unroll
  for (int j = 0; j < kLaneDigits; ++j)
    if (lane + 32 * j < EXSTAR_ACC_NDIGITS && w[lane + 32 * j] != 0) top = lane + 32 * j;
  const int t = __reduce_max_sync(0xffffffffu, top);
  const int low = t >= 0 ? exstar_round_window_low(t) : 0; // u: the topmost nonzero digit below low
  int below = -1;
#pragma unroll
  for (int j = 0; j < kLaneDigits; ++j)
    if (lane + 32 * j < low && w[lane + 32 * j] != 0) below = lane + 32 * j;
  const int u = __reduce_max_sync(0xffffffffu, below);
  if (lane == 0) *yi = exstar_acc_round_at(w, t, u);
}

// ---- launchers ------------------------------------------------------------------------------

int sm_count(int *sms)
{
  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
  return e == cudaSuccess ? 0 : -(int)e;
}

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

bool aligned16(const double *A, long long offa, long long lda)
{
  return ((uintptr_t)(A + offa) & 15) == 0 && lda % 2 == 0;
}

int launch_normalize(exstar_i64 *acc, long long count, cudaStream_t s)
{
  const long long blocks = ceil_div(count, kWarpsAcc);
  if (blocks > 0x7fffffffLL) return -(int)cudaErrorInvalidValue;
  normalize_kernel<<<(unsigned)blocks, 32 * kWarpsAcc, 0, s>>>(count, acc);
  return exstar_cuda_check_launch();
}

// 'N' with R rows per thread (g.m a multiple of R): the columns cut into as many chunks as one
// wave of blocks holds beside the row blocks (each chunk ends in a flush, so no more).
template <int R>
int launch_n(gemv_args g, int sms, cudaStream_t s)
{
  const long long row_blocks = ceil_div(g.m, (long long)kThreadsN * R);
  long long chunks = (long long)sms * kBlocksN / row_blocks;
  const long long max_chunks = g.n / kMinColsN;
  if (chunks > max_chunks) chunks = max_chunks;
  if (chunks > 65535) chunks = 65535;
  if (chunks < 1) chunks = 1;
  g.chunk = ceil_div(g.n, chunks);
  chunks = ceil_div(g.n, g.chunk);
  if (row_blocks > 0x7fffffffLL) return -(int)cudaErrorInvalidValue;
  gemv_n_kernel<R><<<dim3((unsigned)row_blocks, (unsigned)chunks), kThreadsN, 0, s>>>(g);
  return exstar_cuda_check_launch();
}

int launch_gemv_n(const gemv_args &g, int sms, cudaStream_t s)
{
  if (!aligned16(g.A, g.offa, g.lda)) return launch_n<1>(g, sms, s);
  gemv_args even = g, last = g;
  even.m = g.m & ~1LL;
  int rc = even.m > 0 ? launch_n<2>(even, sms, s) : 0;
  if (rc || even.m == g.m) return rc;
  last.m = 1; // the odd last row
  last.offa += even.m;
  last.acc += even.m * kW;
  return launch_n<1>(last, sms, s);
}

// 'T': row chunks (grid.y) only as many as needed for two waves of blocks, down to kMinRowsT
// rows (each chunk ends in a merge and a flush per column); tiles of kTileT rows within a chunk.
int launch_gemv_t(gemv_args g, int sms, cudaStream_t s)
{
  const long long col_blocks = ceil_div(g.n, kWarpsT), want = 2LL * sms * kBlocksT;
  long long rows = g.m + (g.m & 1);
  while (rows > kMinRowsT && col_blocks * ceil_div(g.m, rows) < want) rows = ceil_div(rows, 4) * 2;
  g.chunk = rows; // even: every chunk and tile starts 16-byte aligned
  g.tile = rows < kTileT ? rows : kTileT;
  const long long chunks = ceil_div(g.m, rows);
  if (chunks > 65535 || col_blocks > 0x7fffffffLL) return -(int)cudaErrorInvalidValue;
  const dim3 grid((unsigned)col_blocks, (unsigned)chunks);
  const size_t smem = 2 * (size_t)g.tile * sizeof(double);
  if (aligned16(g.A, g.offa, g.lda)) gemv_t_kernel<2><<<grid, kThreadsT, smem, s>>>(g);
  else gemv_t_kernel<1><<<grid, kThreadsT, smem, s>>>(g);
  return exstar_cuda_check_launch();
}

} // namespace

extern "C" int exstar_cuda_gemv_acc(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa,
                                    int64_t lda, const double *x, int64_t offx, int64_t incx, long long *acc,
                                    int64_t offacc, exstar_cuda_stream stream)
{
  const bool notrans = trans == 'N' || trans == 'n';
  const long long leny = notrans ? m : n, lenx = notrans ? n : m;
  if (leny <= 0) return 0;
  if (acc == nullptr || (lenx > 0 && (A == nullptr || x == nullptr || incx == 0))) return -(int)cudaErrorInvalidValue;
  cudaStream_t s = (cudaStream_t)stream;
  exstar_i64 *a0 = acc + offacc * kW;
  int sms = 0;
  if (int rc = sm_count(&sms)) return rc;
  // Slabs of at most kMaxTermsPerLaunch terms per output, each followed by a normalize.
  const long long fx = exstar_first_index(lenx, offx, incx);
  for (long long k0 = 0; k0 < lenx; k0 += kMaxTermsPerLaunch) {
    const long long len = lenx - k0 < kMaxTermsPerLaunch ? lenx - k0 : kMaxTermsPerLaunch;
    gemv_args g = {notrans ? m : len, notrans ? len : n, alpha, A, offa + (notrans ? k0 * lda : k0), lda,
                   x, fx + k0 * incx, incx, a0, 0, 0};
    if (int rc = notrans ? launch_gemv_n(g, sms, s) : launch_gemv_t(g, sms, s)) return rc;
    if (k0 + len < lenx)
      if (int rc = launch_normalize(a0, leny, s)) return rc;
  }
  return launch_normalize(a0, leny, s);
}

extern "C" int exstar_cuda_gemv_finish(int64_t n, double beta, double *y, int64_t offy, int64_t incy,
                                       const long long *acc, int64_t offacc, exstar_cuda_stream stream)
{
  if (n <= 0) return 0;
  const long long blocks = ceil_div(n, kWarpsAcc);
  if (y == nullptr || acc == nullptr || incy == 0 || blocks > 0x7fffffffLL) return -(int)cudaErrorInvalidValue;
  const long long fy = exstar_first_index(n, offy, incy);
  finish_kernel<<<(unsigned)blocks, 32 * kWarpsAcc, 0, (cudaStream_t)stream>>>(n, beta, y, fy, incy,
                                                                               acc + offacc * kW);
  return exstar_cuda_check_launch();
}
