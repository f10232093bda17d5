// trsv on a CUDA device: diagonal-block solve (one block of threads), residual of refinement
// (one thread per row), refinement update (one thread per element).
//
// Solve: rows in substitution order; for each row the block adds the in-block terms (each
// thread its share, FPE in registers, spills with shared atomics) to a __shared__ copy of the
// row's accumulator, then thread 0 rounds it once and divides once. Every step is exact, so
// any block size gives the same bits as the CPU.
// Two-component expansions (as dot.cu): a row has at most a block's worth of terms, and the
// warp merge of the expansions is serial work in the critical path. Bits never depend on it.
#ifndef EXSTAR_FPE_N
#define EXSTAR_FPE_N 2
#endif
#include "kernels_cuda/trsv.h"
#include "kernels_cuda/acc_cuda.cuh"

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
#define EXSTAR_CUDA_TRSV_THREADS 128
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

__global__ void __launch_bounds__(kThreads) solve_kernel(exstar_trsv_shape s, const double *__restrict__ t,
                                                         const exstar_i64 *__restrict__ accs, double *y,
                                                         long long fy, long long incy)
{
  __shared__ exstar_i64 sacc[EXSTAR_ACC_WORDS];
  __shared__ int sflags, stop, slow;
  for (long long step = 0; step < s.nb; ++step) {
    const long long r = s.forward ? step : s.nb - 1 - step;
    for (int w = threadIdx.x; w < EXSTAR_ACC_WORDS; w += blockDim.x) sacc[w] = accs[r * EXSTAR_ACC_WORDS + w];
    if (threadIdx.x == 0) sflags = 0;
    __syncthreads();
    double fpe[EXSTAR_FPE_N];
    exstar_fpe_zero(fpe);
    int flags = exstar_trsv_row_terms_cuda_atomic(sacc, fpe, s.forward, s.trans, s.unit, 0, s.nb, r, t, s.t0,
                                                  s.ldt, y, fy, incy, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0) flags |= exstar_sum_step_atomic(sacc, fpe, y[fy + r * incy]);
    // Merge the warp's expansions by shuffles first: one flush per warp instead of one per
    // thread keeps the shared atomics (all on the same few digits) from serialising.
    exstar_cuda_warp_merge_fpe(sacc, fpe);
    if ((threadIdx.x & 31) == 0) exstar_acc_flush_fpe_atomic(sacc, fpe);
    flags = (int)__reduce_or_sync(0xffffffffu, (unsigned)flags);
    if ((threadIdx.x & 31) == 0 && flags) atomicOr(&sflags, flags);
    __syncthreads();
    carry_save_passes(sacc);
    // the rounding's two scans (topmost nonzero digit t, then topmost nonzero digit u below
    // the four-digit window), by every thread
    if (threadIdx.x == 0) stop = -1, slow = -1;
    __syncthreads();
    for (int i = threadIdx.x; i < EXSTAR_ACC_NDIGITS; i += kThreads)
      if (sacc[i] != 0) atomicMax(&stop, i);
    __syncthreads();
    const int low = stop >= 0 ? exstar_round_window_low(stop) : 0;
    for (int i = threadIdx.x; i < low; i += kThreads)
      if (sacc[i] != 0) atomicMax(&slow, i);
    __syncthreads();
    if (threadIdx.x == 0) {
      exstar_acc_add_flags_private(sacc, sflags);
      const double v = exstar_acc_round_at(sacc, stop, slow);
      y[fy + r * incy] = s.unit ? v : v / exstar_trsv_elem_cuda_atomic(t, s.t0, s.ldt, s.trans, r, r);
    }
    __syncthreads(); // y_r written before the next row reads it; sacc free again
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
