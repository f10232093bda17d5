// trsv on a CUDA device: diagonal-block solve (one block of threads), residual of refinement
// (one thread per row), refinement update (one thread per element).
//
// Solve, row-parallel: thread i owns row i of a chunk of blockDim.x rows. It reads its row's
// accumulator once into the bounded double-double of core/checked_round.h, adds b_i and the
// terms of the rows solved before its chunk, and then, as each row j of the chunk is solved,
// the one term -t_ij·x_j. Row j's own thread rounds with the checked rounding and divides: the
// critical path per row is one product, a short chain of additions, one check, one division
// and one __syncthreads. When the check declines (ties, zeros, specials; rare), the whole block
// computes row j the exact way (slow_row: a shared copy of the accumulator gets every term with
// atomics and is rounded exactly). Both give RN of the same exact value: identical bits, and
// the same bits as the CPU, for any block size.
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
__device__ __noinline__ double slow_row(slow_scratch &w, const exstar_trsv_shape &s, const double *__restrict__ t,
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
__device__ __forceinline__ void prefetch_l1(const double *p) { asm volatile("prefetch.global.L1 [%0];" ::"l"(p)); }

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
    const row_walk w = walk_of(s, t, r);
    double *const yr = y + fy + r * incy;
    // Row state: acc_r + b_r - the terms of every row solved before this chunk.
    exstar_bdd d;
    double diag = 1.0;
    int fast = 0;
    if (me < len) {
      if (!s.unit) diag = w.p[(c0 + me) * w.stride];
      fast = exstar_bdd_init_acc(accs + r * EXSTAR_ACC_WORDS, &d) && exstar_bdd_add(&d, *yr);
      for (long long k = 0; k < c0 && fast; ++k)
        fast = exstar_bdd_add_product(&d, -w.p[k * w.stride], y[fy + row_of(s, k) * incy]);
    }
    const double *pnext = w.p + c0 * w.stride; // t(r, the row solved next)
    for (int k = 1; k <= kPrefetch && k < me && me < len; ++k) prefetch_l1(pnext + k * w.stride);
    double tnext = me < len && me > 0 ? *pnext : 0.0;
    // Iteration j: row j is finished by its thread (or the slow way, by the whole block); then
    // every later row adds the term of x_j.
    for (int j = 0; j < len; ++j) {
      if (me == j) {
        double v;
        declined[j] = !(fast && exstar_bdd_round(&d, &v));
        if (!declined[j]) xs[j] = *yr = s.unit ? v : v / diag;
      }
      __syncthreads();
      if (declined[j]) { // the same for every thread
        const long long rj = row_of(s, c0 + j);
        const double v = slow_row(scratch, s, t, accs + rj * EXSTAR_ACC_WORDS, y, fy, incy, rj);
        if (me == 0) xs[j] = y[fy + rj * incy] = s.unit ? v : v / elem(s, t, rj, rj);
        __syncthreads();
      }
      if (me > j && me < len) {
        const double tij = tnext;
        pnext += w.stride;
        if (me > j + 1) tnext = *pnext;
        if (j + 1 + kPrefetch < me) prefetch_l1(pnext + kPrefetch * w.stride);
        fast &= exstar_bdd_add_product(&d, -tij, xs[j]);
      }
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
