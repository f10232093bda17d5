// trsv on a CUDA device: diagonal-block solve (one block of threads), residual of refinement
// (one thread per row), refinement update (one thread per element).
//
// Solve: rows are owned by threads (one row each, a bounded double-double of
// core/checked_round.h holding acc_r + b_r minus the terms added so far) and solved tile by
// tile of 32 rows by the tile's warp alone (see solve_kernel): per row, one checked rounding,
// one division, shuffles, and one term added by each later row of the tile. The exact slow
// path (slow_row) takes over for a row whenever the check declines. Every path gives RN of
// the same exact value: the same bits as the CPU, for any block or tile size.
#ifndef EXSTAR_FPE_N
#define EXSTAR_FPE_N 4
#endif
#include "kernels_cuda/trsv.h"
#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"

#define EXSTAR_TRSV_ACC_PTR exstar_i64 *
#define EXSTAR_TRSV_OPS_SFX _atomic
#define EXSTAR_TRSV_MEM
#define EXSTAR_TRSV_SFX _cuda_atomic
#include "core/trsv.inc"

#define EXSTAR_TRSV_ACC_PTR exstar_i64 *
#define EXSTAR_TRSV_OPS_SFX _private
#define EXSTAR_TRSV_MEM
#define EXSTAR_TRSV_SFX _cuda_private
#include "core/trsv.inc"

#ifndef EXSTAR_CUDA_TRSV_THREADS
#define EXSTAR_CUDA_TRSV_THREADS 512
#endif

namespace {

constexpr int kThreads = EXSTAR_CUDA_TRSV_THREADS;
static_assert(kThreads % 32 == 0, "block size");

constexpr unsigned kFull = 0xffffffffu;

// The two signed carry-save passes of the rounding (core/accumulator.h) by one warp, every
// lane its digits: the lane that rounds then only scans and reads a four-digit window.
__device__ __forceinline__ void warp_carry_save_passes(exstar_i64 *sacc, int lane)
{
  constexpr int kRounds = (EXSTAR_ACC_NDIGITS + 31) / 32;
  for (int pass = 0; pass < 2; ++pass) {
    exstar_i64 nd[kRounds];
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const int i = lane + r * 32;
      if (i < EXSTAR_ACC_NDIGITS) nd[r] = exstar_digit_after_pass(sacc[i], i > 0 ? sacc[i - 1] : 0, i);
    }
    __syncwarp();
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const int i = lane + r * 32;
      if (i < EXSTAR_ACC_NDIGITS) sacc[i] = nd[r];
    }
    __syncwarp();
  }
}

struct slow_scratch {
  exstar_i64 acc[EXSTAR_ACC_WORDS];
  int flags, top, low;
};

// RN(acc_r + b_r - Σ in-block terms) the exact way, by one warp (all its lanes call it): a
// shared copy of the accumulator, the terms with atomics, the carry-save passes and the digit
// scans on all lanes, one rounding by lane 0; every lane gets the result.
__device__ __noinline__ double slow_row(slow_scratch &w, const exstar_trsv_shape &s, const double *__restrict__ t,
                                        const exstar_i64 *__restrict__ acc, const double *y, long long fy,
                                        long long incy, long long r, int lane)
{
  for (int k = lane; k < EXSTAR_ACC_WORDS; k += 32) w.acc[k] = acc[k];
  if (lane == 0) w.flags = 0, w.top = -1, w.low = -1;
  __syncwarp();
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = exstar_trsv_row_terms_cuda_atomic(w.acc, fpe, s.forward, s.trans, s.unit, 0, s.nb, r, t, s.t0,
                                                s.ldt, y, fy, incy, lane, 32);
  if (lane == 0) flags |= exstar_sum_step_atomic(w.acc, fpe, y[fy + r * incy]);
  // Merge the warp's expansions by shuffles first: one flush instead of one per lane keeps the
  // shared atomics (all on the same few digits) from serialising.
  exstar_cuda_warp_merge_fpe(w.acc, fpe);
  if (lane == 0) exstar_acc_flush_fpe_atomic(w.acc, fpe);
  flags = (int)__reduce_or_sync(kFull, (unsigned)flags);
  __syncwarp();
  warp_carry_save_passes(w.acc, lane);
  // the rounding's two scans: topmost nonzero digit, then topmost nonzero one below its window
  for (int i = lane; i < EXSTAR_ACC_NDIGITS; i += 32)
    if (w.acc[i] != 0) atomicMax(&w.top, i);
  __syncwarp();
  const int below = w.top >= 0 ? exstar_round_window_low(w.top) : 0;
  for (int i = lane; i < below; i += 32)
    if (w.acc[i] != 0) atomicMax(&w.low, i);
  __syncwarp();
  double v = 0.0;
  if (lane == 0) {
    exstar_acc_add_flags_private(w.acc, flags);
    v = exstar_acc_round_at(w.acc, w.top, w.low);
  }
  return __shfl_sync(kFull, v, 0);
}

__device__ __forceinline__ long long row_of(const exstar_trsv_shape &s, long long step)
{
  return s.forward ? step : s.nb - 1 - step;
}

// Row r's elements in substitution order: t(r, row_of(step)) = p[step * stride].
struct row_walk {
  const double *p;
  long long stride;
};
__device__ __forceinline__ row_walk walk_of(const exstar_trsv_shape &s, const double *t, long long r)
{
  const long long along = s.trans ? 1 : s.ldt; // from column k to column k + 1 of op(T)
  row_walk w;
  w.p = t + s.t0 + (s.trans ? r * s.ldt : r) + (s.forward ? 0 : (s.nb - 1) * along);
  w.stride = s.forward ? along : -along;
  return w;
}

// d += Σ_{k < len} -t(r, step k0 + k)·x_k for a tile (len <= 32): the tile's elements are
// loaded first, all at once (one memory latency, not one a term), then added with two
// independent chains (their latencies overlap), merged at the end. 0 when a term declines.
__device__ __forceinline__ int add_tile_terms(exstar_bdd &d, const row_walk &w, long long k0, int len,
                                              const double *xs)
{
  double a[32];
#pragma unroll
  for (int k = 0; k < 32; ++k) a[k] = k < len ? w.p[(k0 + k) * w.stride] : 0.0;
  exstar_bdd d2 = {0.0, 0.0, 0.0};
  int ok = 1;
#pragma unroll
  for (int k = 0; k < 32; k += 2) {
    if (k < len) ok &= exstar_bdd_add_product(&d, -a[k], xs[k]);
    if (k + 1 < len) ok &= exstar_bdd_add_product(&d2, -a[k + 1], xs[k + 1]);
  }
  exstar_bdd_merge(&d, &d2);
  return ok;
}

// The diagonal block, tile by tile of 32 rows: warp g owns rows 32g.. of a chunk of
// blockDim.x rows, each lane one row with its bounded double-double (core/checked_round.h):
// acc_r + b_r - the terms of the rows solved before. Warp g solves its 32 rows on its own,
// lane after lane (the lane of row j rounds with the checked rounding and divides; a shuffle
// hands x_j to the lanes after it, which add its term): no block barrier inside a tile. Then
// one barrier, and every later warp adds the tile's 32 terms at once. When the check declines
// (ties, zeros, specials; rare), the warp computes row j the exact way (slow_row). Both give
// RN of the same exact value: the same bits as the CPU, for any block or tile size.
__global__ void __launch_bounds__(kThreads) solve_kernel(exstar_trsv_shape s, const double *__restrict__ t,
                                                         const exstar_i64 *__restrict__ accs, double *y,
                                                         long long fy, long long incy)
{
  __shared__ slow_scratch scratch;
  __shared__ double xs[kThreads];
  __shared__ double tile[32][33]; // the tile's op(T)(row, col), read by its warp; padded
  const int me = threadIdx.x, lane = me & 31, warp = me >> 5;
  for (long long c0 = 0; c0 < s.nb; c0 += kThreads) {
    const int len = (int)(s.nb - c0 < kThreads ? s.nb - c0 : kThreads);
    const bool mine = me < len;
    const long long r = mine ? row_of(s, c0 + me) : 0;
    const row_walk w = walk_of(s, t, r);
    exstar_bdd d = {0.0, 0.0, 0.0};
    double diag = 1.0;
    int fast = 0;
    if (mine) {
      if (!s.unit) diag = w.p[(c0 + me) * w.stride];
      fast = exstar_bdd_init_acc(accs + r * EXSTAR_ACC_WORDS, &d) && exstar_bdd_add(&d, y[fy + r * incy]);
      for (long long k = 0; k < c0 && fast; ++k)
        fast = exstar_bdd_add_product(&d, -w.p[k * w.stride], y[fy + row_of(s, k) * incy]);
    }
    for (int g = 0; g * 32 < len; ++g) {
      const int g0 = g * 32, glen = len - g0 < 32 ? len - g0 : 32;
      if (warp == g) {
        // the tile's lower part, one row per lane: tile[lane][j] = t(r, step c0 + g0 + j)
        for (int j = 0; j < lane && j < glen; ++j) tile[lane][j] = w.p[(c0 + g0 + j) * w.stride];
        __syncwarp();
        for (int j = 0; j < glen; ++j) {
          const double tij = tile[lane][j]; // for lane > j
          // lane j divides hi while it checks that hi is the rounding (no dependency between)
          double x = 0.0;
          int ok = 0;
          if (lane == j) {
            ok = fast & exstar_bdd_round_ok(&d);
            x = s.unit ? d.hi : d.hi / diag;
          }
          ok = __shfl_sync(kFull, ok, j);
          x = __shfl_sync(kFull, x, j);
          if (!ok) {
            const long long rj = row_of(s, c0 + g0 + j);
            const double v = slow_row(scratch, s, t, accs + rj * EXSTAR_ACC_WORDS, y, fy, incy, rj, lane);
            x = s.unit ? v : v / __shfl_sync(kFull, diag, j);
          }
          if (lane == j) {
            y[fy + r * incy] = x;
            xs[g0 + j] = x;
          }
          if (lane > j && lane < glen) fast &= exstar_bdd_add_product(&d, -tij, x);
          __syncwarp(); // y and xs written before a slow row reads them
        }
      }
      __syncthreads();
      if (warp > g && mine) fast &= add_tile_terms(d, w, c0 + g0, glen, xs + g0);
    }
    __syncthreads(); // the chunk's x in y before the next chunk reads them
  }
}

__global__ void resid_kernel(exstar_trsv_shape s, const double *__restrict__ t,
                             const exstar_i64 *__restrict__ accs, const double *x, long long fx,
                             long long incx, const double *b, long long fb, long long incb, double *r,
                             long long fr, long long incr)
{
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.nb) return;
  exstar_i64 a[EXSTAR_ACC_WORDS];
  for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) a[w] = accs[i * EXSTAR_ACC_WORDS + w];
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = exstar_sum_step_private(a, fpe, b[fb + i * incb]);
  flags |= exstar_trsv_row_terms_cuda_private(a, fpe, s.forward, s.trans, s.unit, 1, s.nb, i, t, s.t0, s.ldt,
                                              x, fx, incx, 0, 1);
  exstar_acc_flush_fpe_private(a, fpe);
  exstar_acc_add_flags_private(a, flags);
  r[fr + i * incr] = exstar_acc_round_private(a);
}

__global__ void update_kernel(long long n, int add, const double *d, long long fd, long long incd, double *x,
                              long long fx, long long incx)
{
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  x[fx + i * incx] = add ? x[fx + i * incx] + d[fd + i * incd] : d[fd + i * incd]; // one IEEE add: RN
}

int blocks_for(long long n, int threads) { return (int)((n + threads - 1) / threads); }

} // namespace

extern "C" int exstar_cuda_trsv_solve(const exstar_trsv_shape *s, const double *t, const long long *accs,
                                      double *y, int64_t offy, int64_t incy, exstar_cuda_stream stream)
{
  if (s->nb <= 0) return 0;
  if (!t || !accs || !y || incy == 0) return -(int)cudaErrorInvalidValue;
  solve_kernel<<<1, kThreads, 0, (cudaStream_t)stream>>>(*s, t, accs, y, exstar_first_index(s->nb, offy, incy),
                                                         incy);
  return exstar_cuda_check_launch();
}

extern "C" int exstar_cuda_trsv_resid(const exstar_trsv_shape *s, const double *t, const long long *accs,
                                      const double *x, int64_t offx, int64_t incx, const double *b,
                                      int64_t offb, int64_t incb, double *r, int64_t offr, int64_t incr,
                                      exstar_cuda_stream stream)
{
  if (s->nb <= 0) return 0;
  if (!t || !accs || !x || !b || !r || incx == 0 || incb == 0 || incr == 0) return -(int)cudaErrorInvalidValue;
  resid_kernel<<<blocks_for(s->nb, 64), 64, 0, (cudaStream_t)stream>>>(
      *s, t, accs, x, exstar_first_index(s->nb, offx, incx), incx, b, exstar_first_index(s->nb, offb, incb), incb,
      r, exstar_first_index(s->nb, offr, incr), incr);
  return exstar_cuda_check_launch();
}

extern "C" int exstar_cuda_trsv_update(int64_t n, int add, const double *d, int64_t offd, int64_t incd,
                                       double *x, int64_t offx, int64_t incx, exstar_cuda_stream stream)
{
  if (n <= 0) return 0;
  if (!d || !x || incd == 0 || incx == 0) return -(int)cudaErrorInvalidValue;
  update_kernel<<<blocks_for(n, 256), 256, 0, (cudaStream_t)stream>>>(
      n, add, d, exstar_first_index(n, offd, incd), incd, x, exstar_first_index(n, offx, incx), incx);
  return exstar_cuda_check_launch();
}
