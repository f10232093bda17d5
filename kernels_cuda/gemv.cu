// Exact gemv on a CUDA device: per-output exact accumulators (acc_i += Σ_j α·a_ij·x_j) and the
// finish y_i := RN(acc_i + β·y_i).
//
// 'N' (column-major, the common case): threads over rows (a warp reads 32 consecutive entries
// of a column: coalesced), the columns cut into chunks over grid.y so that the GPU is full
// even for few rows. α·x_j is split once per column into s + t (exstar_gemv_scale_x) by the
// block, in shared memory; a term is then a·s (+ a·t), dot terms whose products and errors go
// to two short FPEs per thread (as dot.cu). Spills and the final flushes go straight to the
// row's accumulator in global memory with atomicAdd; a last kernel normalizes the rows.
// 'T': one block per column (and row chunk), a dot with the shared-memory pipeline of dot.cu.
// Any grid, chunking or FPE length gives the same bits: every step is exact.
#ifndef EXSTAR_FPE_N
#define EXSTAR_FPE_N 2 /* this file's FPE length (core/accumulator.h's default is 4) */
#endif
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

constexpr int kRowsPerBlock = 128;   // 'N': threads (rows) per block, also the column tile
constexpr int kThreadsT = 256;       // 'T': threads per block
constexpr int kUnrollN = 4;          // 'N': column loads in flight per thread
constexpr long long kMinColsPerChunk = 128;
constexpr long long kMinRowsPerChunkT = 4096;
static_assert(kThreadsT % 32 == 0 && kThreadsT >= EXSTAR_CUDA_MIN_THREADS, "block size");

__device__ __forceinline__ int add_product_terms(exstar_i64 *acc, double f0[EXSTAR_FPE_N], double f1[EXSTAR_FPE_N],
                                            double a, double b)
{
  double p, e;
  if (!exstar_two_prod_fast(a, b, &p, &e)) return 0;
  exstar_fpe_add_spill_atomic(acc, f0, p);
  if (e != 0.0) exstar_fpe_add_spill_atomic(acc, f1, e);
  return 1;
}

// One term α·a·x with (s, t) = exstar_gemv_scale_x(α, x): the split-FPE dot terms a·s and
// a·t when both are in the TwoProd window, else the core's exact exstar_gemv_term.
__device__ __forceinline__ int term(exstar_i64 *acc, double f0[EXSTAR_FPE_N], double f1[EXSTAR_FPE_N],
                                    double alpha, double a, double x, double s, double t)
{
  if (s != 0.0) {
    double p, e;
    if (exstar_two_prod_fast(a, s, &p, &e)) { // a is finite nonzero here
      exstar_fpe_add_spill_atomic(acc, f0, p);
      if (e != 0.0) exstar_fpe_add_spill_atomic(acc, f1, e);
      if (t != 0.0 && !add_product_terms(acc, f1, f1, a, t)) (void)exstar_dot_step_atomic(acc, f1, a, t);
      return EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
    }
  }
  return exstar_gemv_term_atomic(acc, f0, alpha, a, x, s, t);
}

// f0 += f1 (exact; spills to acc).
__device__ __forceinline__ void merge_fpe(exstar_i64 *acc, double f0[EXSTAR_FPE_N], double f1[EXSTAR_FPE_N])
{
#pragma unroll
  for (int k = 0; k < EXSTAR_FPE_N; ++k)
    if (f1[k] != 0.0) (void)exstar_sum_step_atomic(acc, f0, f1[k]);
}

// 'N': block (bx, by) = rows [bx*128, +128) x columns of chunk by. The block splits α·x_j of
// a tile of 128 columns into shared memory; when the whole tile has t == 0 (α a power of two,
// e.g. ±1, and no extreme x_j) every term is one dot term.
__global__ void __launch_bounds__(kRowsPerBlock) gemv_n_kernel(long long m, long long n, long long cols_per_chunk,
                                                               double alpha, const double *__restrict__ A,
                                                               long long offa, long long lda,
                                                               const double *__restrict__ x, long long fx,
                                                               long long incx, exstar_i64 *__restrict__ acc)
{
  __shared__ double sx[kRowsPerBlock], ss[kRowsPerBlock], st[kRowsPerBlock];
  const long long i = (long long)blockIdx.x * kRowsPerBlock + threadIdx.x;
  const long long c0 = (long long)blockIdx.y * cols_per_chunk;
  const long long c1 = c0 + cols_per_chunk < n ? c0 + cols_per_chunk : n;
  exstar_i64 *ai = acc + (i < m ? i : 0) * EXSTAR_ACC_WORDS;
  const double *col = A + offa + (i < m ? i : 0);
  double f0[EXSTAR_FPE_N], f1[EXSTAR_FPE_N];
  exstar_fpe_zero(f0);
  exstar_fpe_zero(f1);
  int flags = 0;
  for (long long j0 = c0; j0 < c1; j0 += kRowsPerBlock) {
    const int len = (int)(c1 - j0 < kRowsPerBlock ? c1 - j0 : kRowsPerBlock);
    __syncthreads(); // the previous tile is consumed
    int simple = 1;
    if ((int)threadIdx.x < len) {
      const double xj = x[fx + (j0 + threadIdx.x) * incx];
      double t;
      const double s = exstar_gemv_scale_x(alpha, xj, &t);
      sx[threadIdx.x] = xj;
      ss[threadIdx.x] = s;
      st[threadIdx.x] = t;
      simple = s != 0.0 && t == 0.0;
    }
    simple = __syncthreads_and(simple);
    if (i >= m) continue;
    int k = 0;
    if (simple) {
      for (; k + kUnrollN <= len; k += kUnrollN) {
        double a[kUnrollN];
#pragma unroll
        for (int u = 0; u < kUnrollN; ++u) a[u] = __ldg(col + (j0 + k + u) * lda);
#pragma unroll
        for (int u = 0; u < kUnrollN; ++u)
          if (!add_product_terms(ai, f0, f1, a[u], ss[k + u]))
            flags |= exstar_dot_step_atomic(ai, f0, a[u], ss[k + u]);
          else
            flags |= EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
      }
      for (; k < len; ++k) {
        const double a = __ldg(col + (j0 + k) * lda);
        if (!add_product_terms(ai, f0, f1, a, ss[k])) flags |= exstar_dot_step_atomic(ai, f0, a, ss[k]);
        else flags |= EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
      }
    } else {
      for (; k + kUnrollN <= len; k += kUnrollN) {
        double a[kUnrollN];
#pragma unroll
        for (int u = 0; u < kUnrollN; ++u) a[u] = __ldg(col + (j0 + k + u) * lda);
#pragma unroll
        for (int u = 0; u < kUnrollN; ++u) flags |= term(ai, f0, f1, alpha, a[u], sx[k + u], ss[k + u], st[k + u]);
      }
      for (; k < len; ++k) flags |= term(ai, f0, f1, alpha, __ldg(col + (j0 + k) * lda), sx[k], ss[k], st[k]);
    }
  }
  if (i >= m) return;
  merge_fpe(ai, f0, f1);
  exstar_acc_flush_fpe_atomic(ai, f0);
  if (flags) exstar_acc_add_flags_atomic(ai, flags); // the normalize makes it 0/1
}

// 'T': block (bx, by) = column bx, rows of chunk by: a dot into the block's shared digits,
// then the block pipeline of acc_cuda.cuh into the column's accumulator.
__global__ void __launch_bounds__(kThreadsT) gemv_t_kernel(long long m, long long rows_per_chunk, double alpha,
                                                           const double *__restrict__ A, long long offa,
                                                           long long lda, const double *__restrict__ x,
                                                           long long fx, long long incx,
                                                           exstar_i64 *__restrict__ acc)
{
  __shared__ exstar_i64 sacc[EXSTAR_ACC_NDIGITS];
  exstar_cuda_block_zero(sacc);
  __syncthreads();
  const long long j = blockIdx.x;
  const long long r0 = (long long)blockIdx.y * rows_per_chunk;
  const long long r1 = r0 + rows_per_chunk < m ? r0 + rows_per_chunk : m;
  const double *col = A + offa + j * lda;
  double f0[EXSTAR_FPE_N], f1[EXSTAR_FPE_N];
  exstar_fpe_zero(f0);
  exstar_fpe_zero(f1);
  int flags = 0;
  for (long long i = r0 + threadIdx.x; i < r1; i += kThreadsT) {
    const double xi = __ldg(x + fx + i * incx);
    double t;
    const double s = exstar_gemv_scale_x(alpha, xi, &t);
    flags |= term(sacc, f0, f1, alpha, __ldg(col + i), xi, s, t);
  }
  merge_fpe(sacc, f0, f1);
  exstar_cuda_block_finish(sacc, f0, flags, acc + j * EXSTAR_ACC_WORDS);
}

// One warp per accumulator: canonical form (digits carried, special counters 0/1).
__global__ void __launch_bounds__(32) normalize_rows_kernel(exstar_i64 *acc)
{
  __shared__ exstar_i64 w[EXSTAR_ACC_WORDS];
  acc += (long long)blockIdx.x * EXSTAR_ACC_WORDS;
  for (int k = threadIdx.x; k < EXSTAR_ACC_WORDS; k += 32) w[k] = acc[k];
  __syncwarp();
  if (threadIdx.x == 0) exstar_acc_normalize_private(w);
  __syncwarp();
  for (int k = threadIdx.x; k < EXSTAR_ACC_WORDS; k += 32) acc[k] = w[k];
}

// One warp per entry: y_i := RN(acc_i + β·y_i) on a shared copy.
__global__ void __launch_bounds__(32) finish_kernel(double beta, double *y, long long fy, long long incy,
                                                   const exstar_i64 *acc)
{
  __shared__ exstar_i64 w[EXSTAR_ACC_WORDS];
  acc += (long long)blockIdx.x * EXSTAR_ACC_WORDS;
  for (int k = threadIdx.x; k < EXSTAR_ACC_WORDS; k += 32) w[k] = acc[k];
  __syncwarp();
  if (threadIdx.x == 0) {
    double *yi = y + fy + (long long)blockIdx.x * incy;
    exstar_acc_add_beta_y_private(w, beta, beta != 0.0 ? *yi : 0.0);
    *yi = exstar_acc_round_private(w);
  }
}

int sm_count(int *sms)
{
  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
  return e == cudaSuccess ? 0 : -(int)e;
}

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

int launch_normalize(exstar_i64 *acc, long long count, cudaStream_t s)
{
  if (count > 0x7fffffffLL) return -(int)cudaErrorInvalidValue;
  normalize_rows_kernel<<<(unsigned)count, 32, 0, s>>>(acc);
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
  exstar_i64 *a0 = acc + offacc * EXSTAR_ACC_WORDS;
  const long long fx = exstar_first_index(lenx, offx, incx);
  int sms = 0;
  if (int rc = sm_count(&sms)) return rc;
  if (lenx > 0) {
    if (notrans) {
      const long long row_blocks = ceil_div(m, kRowsPerBlock);
      long long chunks = ceil_div((long long)sms * 1024, m);             // about 1024 threads per SM
      const long long max_chunks = n / kMinColsPerChunk > 0 ? n / kMinColsPerChunk : 1;
      if (chunks > max_chunks) chunks = max_chunks;
      if (chunks > 65535) chunks = 65535;
      if (chunks < 1) chunks = 1;
      const long long cols = ceil_div(n, chunks);
      chunks = ceil_div(n, cols);
      if (row_blocks > 0x7fffffffLL) return -(int)cudaErrorInvalidValue;
      gemv_n_kernel<<<dim3((unsigned)row_blocks, (unsigned)chunks), kRowsPerBlock, 0, s>>>(m, n, cols, alpha, A, offa,
                                                                                          lda, x, fx, incx, a0);
    } else {
      long long chunks = ceil_div(4LL * sms, n);                          // at least 4 blocks per SM
      const long long max_chunks = m / kMinRowsPerChunkT > 0 ? m / kMinRowsPerChunkT : 1;
      if (chunks > max_chunks) chunks = max_chunks;
      const long long min_chunks = ceil_div(m, EXSTAR_CUDA_MAX_TERMS_PER_BLOCK);
      if (chunks < min_chunks) chunks = min_chunks;
      if (chunks > 65535 || n > 0x7fffffffLL) return -(int)cudaErrorInvalidValue;
      const long long rows = ceil_div(m, chunks);
      chunks = ceil_div(m, rows);
      gemv_t_kernel<<<dim3((unsigned)n, (unsigned)chunks), kThreadsT, 0, s>>>(m, rows, alpha, A, offa, lda, x, fx,
                                                                              incx, a0);
    }
    if (int rc = exstar_cuda_check_launch()) return rc;
  }
  return launch_normalize(a0, leny, s);
}

extern "C" int exstar_cuda_gemv_finish(int64_t n, double beta, double *y, int64_t offy, int64_t incy,
                                       const long long *acc, int64_t offacc, exstar_cuda_stream stream)
{
  if (n <= 0) return 0;
  if (y == nullptr || acc == nullptr || incy == 0 || n > 0x7fffffffLL) return -(int)cudaErrorInvalidValue;
  const long long fy = exstar_first_index(n, offy, incy);
  finish_kernel<<<(unsigned)n, 32, 0, (cudaStream_t)stream>>>(beta, y, fy, incy, acc + offacc * EXSTAR_ACC_WORDS);
  return exstar_cuda_check_launch();
}
