// Exact dot product on a CUDA device: acc += Σ x_i·y_i.
//
// Each thread keeps two FPEs in registers (products and their TwoProd errors, see dot_step)
// and spills into its block's __shared__ digits; the block merges, carries and adds its
// digits into acc with atomicAdd; a one-thread kernel then normalizes acc. Unit strides with
// 16-byte aligned pointers (after peeling at most one element) read double2; anything else
// reads doubles; x · x itself (nrm2) reads x once. Any grid, block size, unrolling or FPE
// length gives the same bits: every step is exact.
//
// Tuning (H100 80GB HBM3, n = 2^27, uniform data, zero + dot + round timed; cublasDdot
// 3.05 TB/s, device copy 2.99 TB/s on the same machine): 4 blocks of 256 threads per SM,
// 2 double2 per vector in flight per thread, split FPEs of 2 doubles: 2.82 TB/s. The core's
// single 4-double FPE per slot (exstar_dot_step as is): 2.2-2.4 TB/s. Short FPEs spill more
// on data of widely spread exponents (slower there, never inexact).
#ifndef EXSTAR_FPE_N
#define EXSTAR_FPE_N 2 /* this file's FPE length (core/accumulator.h's default is 4) */
#endif
#include "kernels_cuda/kernels_cuda.h"
#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"
#include "core/gemm.h"
#include "core/sumsq.h"
#include <stdlib.h>

#ifndef EXSTAR_CUDA_DOT_THREADS
#define EXSTAR_CUDA_DOT_THREADS 256
#endif
#ifndef EXSTAR_CUDA_DOT_BLOCKS_PER_SM
#define EXSTAR_CUDA_DOT_BLOCKS_PER_SM 4
#endif
#ifndef EXSTAR_CUDA_DOT_UNROLL /* double2 loads per vector in flight per thread */
#define EXSTAR_CUDA_DOT_UNROLL 2
#endif
#ifndef EXSTAR_CUDA_DOT_SPLIT /* 1: products and their errors go to two separate FPEs */
#define EXSTAR_CUDA_DOT_SPLIT 1
#endif

namespace {

// One term a*b of slot 0 or 1 (the two halves of a double2). Split: the error-free
// product's two parts go to two FPEs of their own (f0: the products, f1: their errors, about
// 2^-53 smaller): two short independent TwoSum chains instead of one long one; terms outside
// the core's TwoProd window take the core's own slow path. Not split: the core's
// exstar_dot_step, slot 0 into f0 and slot 1 into f1.
template <int Slot>
__device__ __forceinline__ int dot_step(exstar_i64 *sacc, double f0[EXSTAR_FPE_N],
                                        double f1[EXSTAR_FPE_N], double a, double b)
{
#if EXSTAR_CUDA_DOT_SPLIT
  double p, e;
  if (exstar_two_prod_fast(a, b, &p, &e)) {
    exstar_fpe_add_spill_atomic(sacc, f0, p);
    if (e != 0.0) exstar_fpe_add_spill_atomic(sacc, f1, e);
    return EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
  }
  return exstar_dot_step_atomic(sacc, f0, a, b);
#else
  return exstar_dot_step_atomic(sacc, Slot ? f1 : f0, a, b);
#endif
}

constexpr int kThreads = EXSTAR_CUDA_DOT_THREADS;
constexpr int kUnroll = EXSTAR_CUDA_DOT_UNROLL;
constexpr int kBlocksPerSm = EXSTAR_CUDA_DOT_BLOCKS_PER_SM;
static_assert(kThreads % 32 == 0 && kThreads >= EXSTAR_CUDA_MIN_THREADS, "block size");

// Elements (x[2i], x[2i+1]) · (y[2i], y[2i+1]) for i < npairs of the 16-byte aligned x2, y2;
// the global thread 0 also takes the up to two single elements `px[k]·py[k]` (k < nsingle,
// at the given indices) that the aligned pairs leave out.
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) dot_pairs_kernel(
    long long npairs, const double2 *__restrict__ x2, const double2 *__restrict__ y2,
    const double *__restrict__ px, const double *__restrict__ py, int nsingle,
    long long single0, long long single1, exstar_i64 *__restrict__ acc)
{
  __shared__ exstar_i64 sacc[EXSTAR_ACC_NDIGITS];
  double f0[EXSTAR_FPE_N], f1[EXSTAR_FPE_N];
  exstar_cuda_block_begin(sacc, f0, f1);
  int flags = 0;
  const long long gstride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    if (nsingle > 0) flags |= dot_step<0>(sacc, f0, f1, px[single0], py[single0]);
    if (nsingle > 1) flags |= dot_step<1>(sacc, f0, f1, px[single1], py[single1]);
  }
  for (; i + (kUnroll - 1) * gstride < npairs; i += kUnroll * gstride) {
    double2 a[kUnroll], b[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      a[u] = __ldg(x2 + i + u * gstride);
      b[u] = __ldg(y2 + i + u * gstride);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      flags |= dot_step<0>(sacc, f0, f1, a[u].x, b[u].x);
      flags |= dot_step<1>(sacc, f0, f1, a[u].y, b[u].y);
    }
  }
  for (; i < npairs; i += gstride) {
    double2 a = __ldg(x2 + i), b = __ldg(y2 + i);
    flags |= dot_step<0>(sacc, f0, f1, a.x, b.x);
    flags |= dot_step<1>(sacc, f0, f1, a.y, b.y);
  }
  exstar_cuda_block_finish2(sacc, f0, f1, flags, acc);
}

// nrm2's squares: a core/sumsq.h window, the dot's own step for the squares out of range, the
// window's sums into the FPEs when it closes: grid 1's part into f0, grids 2 and 3's into f1. A
// part of grid j is a multiple of ulp(s_j) below s_j / 4, so f0 holds the grid-1 parts of
// several windows of one scale in its two doubles, and f1 the others (two grids 43 bits apart),
// where one FPE of two doubles took all three and spilled to the block's digits at every close.
struct sumsq_state {
  exstar_sumsq w;
  double h[3];
};

__device__ __forceinline__ void sumsq_close(exstar_i64 *sacc, double f0[EXSTAR_FPE_N], double f1[EXSTAR_FPE_N],
                                            sumsq_state &q)
{
#pragma unroll
  for (int j = 0; j < 3; ++j) {
    const double part = exstar_sumsq_part(&q.w, q.h, j);
    if (part != 0.0) (void)exstar_sum_step_atomic(sacc, j == 0 ? f0 : f1, part);
  }
  exstar_sumsq_zero(q.h);
}

// The rare cases of a square x·x: the dot's step (zeros, tiny, huge, NaN, inf, and squares below
// the open window's floor), or a new window.
__device__ __forceinline__ int sumsq_rare(exstar_i64 *sacc, sumsq_state &q, double f0[EXSTAR_FPE_N],
                                          double f1[EXSTAR_FPE_N], double x, double p)
{
  if (!exstar_sumsq_in_range(p) || exstar_sumsq_below(&q.w, p)) return dot_step<0>(sacc, f0, f1, x, x);
  sumsq_close(sacc, f0, f1, q);
  exstar_sumsq_open(&q.w, p);
  exstar_sumsq_start(&q.w, q.h);
  exstar_sumsq_add(&q.w, q.h, p, fma(x, x, -p));
  return EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
}

// One square x·x: the window's path (its test in integer operations, no remainder), else
// sumsq_rare.
__device__ __forceinline__ int sumsq_step(exstar_i64 *sacc, sumsq_state &q, double f0[EXSTAR_FPE_N],
                                          double f1[EXSTAR_FPE_N], double x)
{
  const double p = x * x;
  if (!exstar_sumsq_takes(&q.w, p)) return sumsq_rare(sacc, q, f0, f1, x, p);
  exstar_sumsq_add(&q.w, q.h, p, fma(x, x, -p));
  return EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
}

// nrm2's Σ x_i·x_i (the dot of x with itself: the same exact value, so the same bits): x read
// once, each square through core/sumsq.h's window (10 floating-point operations where the dot's
// step takes ~38). U double2 loads in flight per thread; PF: the next iteration's loads issued
// before this one's squares (software pipelining: a thread's loads wait behind no arithmetic).
// Tuning (H100, n = 2^27, bench/results/h100-2026-11-27/nrm2-prefetch): U = 1 with PF 2.22 TB/s
// (the default); U = 2 without PF 2.01, with PF 2.08; U = 4 1.60 / 1.24; two windows (two
// chains of sums) 1.4-1.6; 6 or 8 blocks an SM (fewer registers, the grid grown to match)
// 0.75-0.82. 2026-11-28 (bench/results/h100-2026-11-28/nrm2): squares below the window's floor
// to the exact step, so no remainder test (about 52 -> 44 instructions an element): 2.33 -> 2.35;
// x through shared memory by bulk copies (TMA, 4 stages of 8 KB a block): 2.11; U = 2 with PF on
// 3 blocks an SM (72 registers) 1.78, on 2 blocks 1.49, U = 4 with PF on 2 blocks 0.77: fewer
// warps, not fewer bytes in flight, is what costs. EXSTAR_CUDA_SUMSQ_CFG picks a variant
// (sumsq_variant) for the benchmarks.
template <int U, bool PF>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) sumsq_pairs_kernel(
    long long npairs, const double2 *__restrict__ x2, const double *__restrict__ px, int nsingle,
    long long single0, long long single1, exstar_i64 *__restrict__ acc)
{
  __shared__ exstar_i64 sacc[EXSTAR_ACC_NDIGITS];
  double f0[EXSTAR_FPE_N], f1[EXSTAR_FPE_N];
  exstar_cuda_block_begin(sacc, f0, f1);
  sumsq_state q;
  exstar_sumsq_init(&q.w);
  exstar_sumsq_zero(q.h);
  int flags = 0;
  const long long gstride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    if (nsingle > 0) flags |= sumsq_step(sacc, q, f0, f1, px[single0]);
    if (nsingle > 1) flags |= sumsq_step(sacc, q, f0, f1, px[single1]);
  }
  double2 a[U];
  bool have = i + (U - 1) * gstride < npairs;
  if (PF && have) {
#pragma unroll
    for (int u = 0; u < U; ++u) a[u] = __ldg(x2 + i + u * gstride);
  }
  while (have) {
    const long long next = i + U * gstride;
    const bool more = next + (U - 1) * gstride < npairs;
    double2 b[U];
    if (!PF) {
#pragma unroll
      for (int u = 0; u < U; ++u) a[u] = __ldg(x2 + i + u * gstride);
    } else if (more) {
#pragma unroll
      for (int u = 0; u < U; ++u) b[u] = __ldg(x2 + next + u * gstride);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      flags |= sumsq_step(sacc, q, f0, f1, a[u].x);
      flags |= sumsq_step(sacc, q, f0, f1, a[u].y);
    }
    if (PF) {
#pragma unroll
      for (int u = 0; u < U; ++u) a[u] = b[u];
    }
    i = next, have = more;
  }
  for (; i < npairs; i += gstride) {
    double2 c = __ldg(x2 + i);
    flags |= sumsq_step(sacc, q, f0, f1, c.x);
    flags |= sumsq_step(sacc, q, f0, f1, c.y);
  }
  sumsq_close(sacc, f0, f1, q);
  exstar_cuda_block_finish2(sacc, f0, f1, flags, acc);
}

// The variant of sumsq_pairs_kernel (read at every launch: a benchmark switches it):
// EXSTAR_CUDA_SUMSQ_CFG 0 = (U 2), 1 = (U 2, PF), 3 = (U 4), 4 = (U 4, PF); default (U 1, PF).
using sumsq_fn = void (*)(long long, const double2 *, const double *, int, long long, long long, exstar_i64 *);
sumsq_fn sumsq_variant()
{
  const char *v = getenv("EXSTAR_CUDA_SUMSQ_CFG");
  switch (v ? v[0] : '2') {
  case '0': return sumsq_pairs_kernel<2, false>;
  case '1': return sumsq_pairs_kernel<2, true>;
  case '3': return sumsq_pairs_kernel<4, false>;
  case '4': return sumsq_pairs_kernel<4, true>;
  default: return sumsq_pairs_kernel<1, true>;
  }
}

// Any strides: element i is x[fx + i*incx], y[fy + i*incy].
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) dot_strided_kernel(
    long long n, const double *__restrict__ x, long long fx, long long incx,
    const double *__restrict__ y, long long fy, long long incy, exstar_i64 *__restrict__ acc)
{
  __shared__ exstar_i64 sacc[EXSTAR_ACC_NDIGITS];
  double f0[EXSTAR_FPE_N], f1[EXSTAR_FPE_N];
  exstar_cuda_block_begin(sacc, f0, f1);
  int flags = 0;
  const long long gstride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  constexpr int kU = 2 * kUnroll;
  for (; i + (kU - 1) * gstride < n; i += kU * gstride) {
    double a[kU], b[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      a[u] = __ldg(x + fx + (i + u * gstride) * incx);
      b[u] = __ldg(y + fy + (i + u * gstride) * incy);
    }
#pragma unroll
    for (int u = 0; u < kU; u += 2) {
      flags |= dot_step<0>(sacc, f0, f1, a[u], b[u]);
      flags |= dot_step<1>(sacc, f0, f1, a[u + 1], b[u + 1]);
    }
  }
  for (; i < n; i += gstride)
    flags |= dot_step<0>(sacc, f0, f1, __ldg(x + fx + i * incx), __ldg(y + fy + i * incy));
  exstar_cuda_block_finish2(sacc, f0, f1, flags, acc);
}

} // namespace

extern "C" int exstar_cuda_dot(int64_t n, const double *x, int64_t offx, int64_t incx,
                               const double *y, int64_t offy, int64_t incy, long long *acc,
                               exstar_cuda_stream stream)
{
  if (n <= 0) return 0; // nothing to add; acc stays as it is (normalized by contract)
  if (x == nullptr || y == nullptr || acc == nullptr || incx == 0 || incy == 0)
    return -(int)cudaErrorInvalidValue;
  cudaStream_t s = (cudaStream_t)stream;
  const long long fx = exstar_first_index(n, offx, incx), fy = exstar_first_index(n, offy, incy);
  int grid = 0;
  int rc = exstar_cuda_grid_size(n, kThreads, kBlocksPerSm, &grid);
  if (rc) return rc;
  const double *px = x + fx, *py = y + fy;
  const unsigned ax = (unsigned)((uintptr_t)px & 15), ay = (unsigned)((uintptr_t)py & 15);
  if (incx == 1 && incy == 1 && ax == ay && (ax & 7) == 0) {
    const long long peel = ax ? 1 : 0;
    const long long npairs = (n - peel) / 2;
    const long long tail = n - peel - 2 * npairs;                 // 0 or 1
    long long singles[2] = {0, 0};
    int nsingle = 0;
    if (peel) singles[nsingle++] = 0;
    if (tail) singles[nsingle++] = n - 1;
    if (px == py) { // nrm2: one read of x
      sumsq_variant()<<<grid, kThreads, 0, s>>>(npairs, reinterpret_cast<const double2 *>(px + peel), px, nsingle,
                                                singles[0], singles[1], acc);
    } else {
      dot_pairs_kernel<<<grid, kThreads, 0, s>>>(
          npairs, reinterpret_cast<const double2 *>(px + peel),
          reinterpret_cast<const double2 *>(py + peel), px, py, nsingle, singles[0], singles[1],
          acc);
    }
  } else {
    dot_strided_kernel<<<grid, kThreads, 0, s>>>(n, x, fx, incx, y, fy, incy, acc);
  }
  rc = exstar_cuda_check_launch();
  if (rc) return rc;
  return exstar_cuda_launch_normalize(acc, s);
}
