// Exact sum on a CUDA device: acc += Σ x_i.
//
// The same pipeline as dot.cu: two FPEs per thread in registers, spills into the block's
// __shared__ digits, block carry and atomicAdd into acc, then a one-thread normalize. Unit
// stride with a 16-byte aligned start (after peeling at most one element) reads double2.
#include "kernels_cuda/kernels_cuda.h"
#include "kernels_cuda/acc_cuda.cuh"

#ifndef EXSTAR_CUDA_SUM_THREADS
#define EXSTAR_CUDA_SUM_THREADS 256
#endif
#ifndef EXSTAR_CUDA_SUM_BLOCKS_PER_SM
#define EXSTAR_CUDA_SUM_BLOCKS_PER_SM 4
#endif
#ifndef EXSTAR_CUDA_SUM_UNROLL /* double2 loads in flight per thread */
#define EXSTAR_CUDA_SUM_UNROLL 4
#endif

namespace {

constexpr int kThreads = EXSTAR_CUDA_SUM_THREADS;
constexpr int kUnroll = EXSTAR_CUDA_SUM_UNROLL;
constexpr int kBlocksPerSm = EXSTAR_CUDA_SUM_BLOCKS_PER_SM;
static_assert(kThreads % 32 == 0 && kThreads >= EXSTAR_CUDA_MIN_THREADS, "block size");

// Elements x[2i], x[2i+1] for i < npairs of the aligned x2; the global thread 0 also takes
// the up to two single elements px[single0], px[single1] (k < nsingle).
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) sum_pairs_kernel(
    long long npairs, const double2 *__restrict__ x2, const double *__restrict__ px,
    int nsingle, long long single0, long long single1, exstar_i64 *__restrict__ acc)
{
  __shared__ exstar_i64 sacc[EXSTAR_ACC_NDIGITS];
  double f0[EXSTAR_FPE_N], f1[EXSTAR_FPE_N];
  exstar_cuda_block_begin(sacc, f0, f1);
  int flags = 0;
  const long long gstride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    if (nsingle > 0) flags |= exstar_sum_step_atomic(sacc, f0, px[single0]);
    if (nsingle > 1) flags |= exstar_sum_step_atomic(sacc, f1, px[single1]);
  }
  for (; i + (kUnroll - 1) * gstride < npairs; i += kUnroll * gstride) {
    double2 a[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) a[u] = __ldg(x2 + i + u * gstride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      flags |= exstar_sum_step_atomic(sacc, f0, a[u].x);
      flags |= exstar_sum_step_atomic(sacc, f1, a[u].y);
    }
  }
  for (; i < npairs; i += gstride) {
    double2 a = __ldg(x2 + i);
    flags |= exstar_sum_step_atomic(sacc, f0, a.x);
    flags |= exstar_sum_step_atomic(sacc, f1, a.y);
  }
  exstar_cuda_block_finish2(sacc, f0, f1, flags, acc);
}

// Any stride: element i is x[first + i*inc].
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) sum_strided_kernel(
    long long n, const double *__restrict__ x, long long first, long long inc,
    exstar_i64 *__restrict__ acc)
{
  __shared__ exstar_i64 sacc[EXSTAR_ACC_NDIGITS];
  double f0[EXSTAR_FPE_N], f1[EXSTAR_FPE_N];
  exstar_cuda_block_begin(sacc, f0, f1);
  int flags = 0;
  const long long gstride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  constexpr int kU = 2 * kUnroll;
  for (; i + (kU - 1) * gstride < n; i += kU * gstride) {
    double a[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) a[u] = __ldg(x + first + (i + u * gstride) * inc);
#pragma unroll
    for (int u = 0; u < kU; u += 2) {
      flags |= exstar_sum_step_atomic(sacc, f0, a[u]);
      flags |= exstar_sum_step_atomic(sacc, f1, a[u + 1]);
    }
  }
  for (; i < n; i += gstride) flags |= exstar_sum_step_atomic(sacc, f0, __ldg(x + first + i * inc));
  exstar_cuda_block_finish2(sacc, f0, f1, flags, acc);
}

} // namespace

extern "C" int exstar_cuda_sum(int64_t n, const double *x, int64_t offx, int64_t incx,
                               long long *acc, exstar_cuda_stream stream)
{
  if (n <= 0) return 0; // nothing to add; acc stays as it is (normalized by contract)
  if (x == nullptr || acc == nullptr || incx == 0) return -(int)cudaErrorInvalidValue;
  cudaStream_t s = (cudaStream_t)stream;
  const long long first = exstar_first_index(n, offx, incx);
  int grid = 0;
  int rc = exstar_cuda_grid_size(n, kThreads, kBlocksPerSm, &grid);
  if (rc) return rc;
  const double *px = x + first;
  const unsigned ax = (unsigned)((uintptr_t)px & 15);
  if (incx == 1 && (ax & 7) == 0) {
    const long long peel = ax ? 1 : 0;
    const long long npairs = (n - peel) / 2;
    const long long tail = n - peel - 2 * npairs; // 0 or 1
    long long singles[2] = {0, 0};
    int nsingle = 0;
    if (peel) singles[nsingle++] = 0;
    if (tail) singles[nsingle++] = n - 1;
    sum_pairs_kernel<<<grid, kThreads, 0, s>>>(
        npairs, reinterpret_cast<const double2 *>(px + peel), px, nsingle, singles[0],
        singles[1], acc);
  } else {
    sum_strided_kernel<<<grid, kThreads, 0, s>>>(n, x, first, incx, acc);
  }
  rc = exstar_cuda_check_launch();
  if (rc) return rc;
  return exstar_cuda_launch_normalize(acc, s);
}
