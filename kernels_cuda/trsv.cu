// trsv on a CUDA device: diagonal-block solve (one block of threads), residual of refinement
// (one thread per row), refinement update (one thread per element).
//
// Solve, row-parallel: thread i owns row i of a chunk of blockDim.x rows. It reads its row's
// accumulator once as the FPE of core/checked_round.h, adds b_i and the terms of the rows
// solved before its chunk, and then, as each row j of the chunk is solved, the one term
// -t_ij·x_j. Row j's own thread rounds its FPE with the checked rounding and divides: the
// critical path per row is one product, one short FPE and one check, with one __syncthreads.
// When the check declines (ties, zeros, specials, spills; rare), the whole block computes
// row j the exact way (slow_row: a shared copy of the accumulator gets every term with
// atomics and is rounded exactly). Both give RN of the same exact value: identical bits,
// and the same bits as the CPU, for any block size.
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
#define EXSTAR_CUDA_TRSV_THREADS 256
#endif

namespace {

constexpr int kThreads = EXSTAR_CUDA_TRSV_THREADS;
static_assert(kThreads % 32 == 0, "block size");

// The two signed carry-save passes of the rounding (core/accumulator.h), every digit by its
// own thread: the one thread that rounds then only scans and reads a four-digit window.
__device__ __forceinline__ void carry_save_passes(exstar_i64 *sacc)
{
  constexpr int kRounds = (EXSTAR_ACC_NDIGITS + kThreads - 1) / kThreads;
  for (int pass = 0; pass < 2; ++pass) {
    exstar_i64 nd[kRounds];
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const int i = threadIdx.x + r * kThreads;
      if (i < EXSTAR_ACC_NDIGITS) nd[r] = exstar_digit_after_pass(sacc[i], i > 0 ? sacc[i - 1] : 0, i);
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const int i = threadIdx.x + r * kThreads;
      if (i < EXSTAR_ACC_NDIGITS) sacc[i] = nd[r];
    }
    __syncthreads();
  }
}

struct slow_scratch {
  exstar_i64 acc[EXSTAR_ACC_WORDS];
  int flags, top, low;
};

// RN(acc_r + b_r - Σ in-block terms) the exact way, by the whole block (every thread calls
// it; __syncthreads inside): a shared copy of the accumulator, the terms with atomics, the
// carry-save passes and the digit scans on all threads, one rounding by thread 0.
__device__ double slow_row(slow_scratch &w, const exstar_trsv_shape &s, const double *__restrict__ t,
                           const exstar_i64 *__restrict__ acc, const double *y, long long fy, long long incy,
                           long long r)
{
  __shared__ double result;
  for (int k = threadIdx.x; k < EXSTAR_ACC_WORDS; k += blockDim.x) w.acc[k] = acc[k];
  if (threadIdx.x == 0) w.flags = 0, w.top = -1, w.low = -1;
  __syncthreads();
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = exstar_trsv_row_terms_cuda_atomic(w.acc, fpe, s.forward, s.trans, s.unit, 0, s.nb, r, t, s.t0,
                                                s.ldt, y, fy, incy, threadIdx.x, blockDim.x);
  if (threadIdx.x == 0) flags |= exstar_sum_step_atomic(w.acc, fpe, y[fy + r * incy]);
  // Merge the warp's expansions by shuffles first: one flush per warp instead of one per
  // thread keeps the shared atomics (all on the same few digits) from serialising.
  exstar_cuda_warp_merge_fpe(w.acc, fpe);
  if ((threadIdx.x & 31) == 0) exstar_acc_flush_fpe_atomic(w.acc, fpe);
  flags = (int)__reduce_or_sync(0xffffffffu, (unsigned)flags);
  if ((threadIdx.x & 31) == 0 && flags) atomicOr(&w.flags, flags);
  __syncthreads();
  carry_save_passes(w.acc);
  // the rounding's two scans: topmost nonzero digit, then topmost nonzero one below its window
  for (int i = threadIdx.x; i < EXSTAR_ACC_NDIGITS; i += blockDim.x)
    if (w.acc[i] != 0) atomicMax(&w.top, i);
  __syncthreads();
  const int below = w.top >= 0 ? exstar_round_window_low(w.top) : 0;
  for (int i = threadIdx.x; i < below; i += blockDim.x)
    if (w.acc[i] != 0) atomicMax(&w.low, i);
  __syncthreads();
  if (threadIdx.x == 0) {
    exstar_acc_add_flags_private(w.acc, w.flags);
    result = exstar_acc_round_at(w.acc, w.top, w.low);
  }
  __syncthreads();
  return result;
}

__device__ __forceinline__ long long row_of(const exstar_trsv_shape &s, long long step)
{
  return s.forward ? step : s.nb - 1 - step;
}

__device__ __forceinline__ double elem(const exstar_trsv_shape &s, const double *__restrict__ t, long long r,
                                       long long k)
{
  return exstar_trsv_elem_cuda_atomic(t, s.t0, s.ldt, s.trans, r, k);
}

// The diagonal block comes from DRAM once, column by column, one column per row step: each
// thread asks for its element kPrefetch steps ahead into L1, so that no step waits on DRAM.
constexpr int kPrefetch = 8;
__device__ __forceinline__ void prefetch_elem(const exstar_trsv_shape &s, const double *t, long long r, long long k)
{
  const double *p = t + (s.trans ? s.t0 + k + r * s.ldt : s.t0 + r + k * s.ldt);
  asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
}

// Row j's x from its thread's FPE plus its last term -t·x_prev (prev < 0: no such term):
// RN, then one division. Returns 0 when the checked rounding declines.
__device__ __forceinline__ int fast_x(const exstar_trsv_shape &s, int fast, const double fpe[EXSTAR_FPE_N],
                                      double bound, double t_last, double x_prev, double diag, double *x)
{
  double v;
  if (!fast) return 0;
  if (!exstar_fpe_round_checked_product(fpe, -t_last, x_prev, bound, &v)) return 0;
  *x = s.unit ? v : v / diag;
  return 1;
}

__global__ void __launch_bounds__(kThreads) solve_kernel(exstar_trsv_shape s, const double *__restrict__ t,
                                                         const exstar_i64 *__restrict__ accs, double *y,
                                                         long long fy, long long incy)
{
  __shared__ slow_scratch scratch;
  __shared__ double xs[kThreads];
  __shared__ int declined[kThreads];
  const int me = threadIdx.x;
  for (long long c0 = 0; c0 < s.nb; c0 += kThreads) {
    const int len = (int)(s.nb - c0 < kThreads ? s.nb - c0 : kThreads);
    const long long r = me < len ? row_of(s, c0 + me) : 0;
    // Row state: acc_r + b_r - the terms of every row solved before this chunk.
    double fpe[EXSTAR_FPE_N], bound = 0.0, diag = 1.0;
    int fast = 0;
    if (me < len) {
      if (!s.unit) diag = elem(s, t, r, r);
      fast = exstar_row_fast_init(accs + r * EXSTAR_ACC_WORDS, fpe, &bound) &&
             exstar_fpe_add_checked(fpe, y[fy + r * incy]);
      for (long long k = 0; k < c0 && fast; ++k) {
        const long long rk = row_of(s, k);
        fast = exstar_fpe_add_product_checked(fpe, -elem(s, t, r, rk), y[fy + rk * incy]);
      }
    }
    for (int k = 1; k <= kPrefetch && k < me && me < len; ++k) prefetch_elem(s, t, r, row_of(s, c0 + k));
    double tnext = me < len && me > 0 ? elem(s, t, r, row_of(s, c0)) : 0.0; // t(r, the next row solved)
    if (me == 0) {
      double x = 0.0;
      declined[0] = !fast_x(s, fast, fpe, bound, 0.0, 0.0, diag, &x);
      if (!declined[0]) xs[0] = y[fy + r * incy] = x;
    }
    __syncthreads();
    // Iteration j: x_j is known (or computed now, the slow way); thread j+1 finishes its row
    // with the term of x_j, the threads after it add that term to their FPE.
    for (int j = 0; j < len; ++j) {
      const long long rj = row_of(s, c0 + j);
      if (declined[j]) { // the same for every thread
        const double v = slow_row(scratch, s, t, accs + rj * EXSTAR_ACC_WORDS, y, fy, incy, rj);
        if (me == 0) xs[j] = y[fy + rj * incy] = s.unit ? v : v / elem(s, t, rj, rj);
        __syncthreads();
      }
      const double xj = xs[j];
      if (me == j + 1) {
        double x = 0.0;
        declined[me] = !fast_x(s, fast, fpe, bound, tnext, xj, diag, &x);
        if (!declined[me]) xs[me] = y[fy + r * incy] = x;
      } else if (me > j + 1 && me < len) {
        const double tij = tnext;
        tnext = elem(s, t, r, row_of(s, c0 + j + 1)); // j + 1 < me < len
        if (j + 1 + kPrefetch < me) prefetch_elem(s, t, r, row_of(s, c0 + j + 1 + kPrefetch));
        if (fast) fast = exstar_fpe_add_product_checked(fpe, -tij, xj);
      }
      __syncthreads();
    }
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
