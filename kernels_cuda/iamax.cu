// iamax on a CUDA device: each block reduces its grid-stride share to one (key, index) pair
// (core/iamax.h) in shared memory and writes it to a stream-ordered temporary; one thread
// then folds the pairs into the state. Every step keeps the winner of a strict total order,
// so the geometry never changes the result.
#include "kernels_cuda/level1.h"
#include "kernels_cuda/level1_util.cuh"
#include "kernels_cuda/iamax_block.cuh"
#include "core/strides.h"

namespace {
constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__global__ void __launch_bounds__(kThreads) iamax_part_kernel(long long n, const double *x, long long fx,
                                                              long long incx, long long base, exstar_i64 *part)
{
  __shared__ exstar_i64 skey[kThreads], sidx[kThreads];
  exstar_i64 key = EXSTAR_IAMAX_EMPTY, idx = EXSTAR_IAMAX_EMPTY;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const exstar_i64 k = exstar_iamax_key(x[fx + i * incx]);
    if (exstar_iamax_beats(k, base + i, key, idx)) key = k, idx = base + i;
  }
  exstar_cuda_iamax_block<kThreads>(skey, sidx, key, idx);
  if (threadIdx.x == 0) {
    part[2 * blockIdx.x] = skey[0];
    part[2 * blockIdx.x + 1] = sidx[0];
  }
}

// One thread: state := winner of the state and the nparts pairs (also the redux, nparts 1).
__global__ void iamax_combine_kernel(const exstar_i64 *part, int nparts, exstar_i64 *state)
{
  exstar_i64 key = state[0], idx = state[1];
  for (int g = 0; g < nparts; ++g)
    if (exstar_iamax_beats(part[2 * g], part[2 * g + 1], key, idx)) key = part[2 * g], idx = part[2 * g + 1];
  state[0] = key;
  state[1] = idx;
}

__global__ void iamax_init_kernel(exstar_i64 *state)
{
  state[0] = EXSTAR_IAMAX_EMPTY;
  state[1] = EXSTAR_IAMAX_EMPTY;
}
__global__ void iamax_index_kernel(const exstar_i64 *state, long long *out) { *out = state[1]; }
__global__ void iamax_ipiv_kernel(const exstar_i64 *state, int32_t *ipiv, long long base)
{
  *ipiv = (int32_t)(state[1] + base);
}
} // namespace

extern "C" int exstar_cuda_iamax(int64_t n, const double *x, int64_t offx, int64_t incx, int64_t base,
                                 long long *state, exstar_cuda_stream stream)
{
  if (n <= 0) return 0;
  if (!x || !state || incx == 0) return -(int)cudaErrorInvalidValue;
  cudaStream_t s = (cudaStream_t)stream;
  long long blocks = (n + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  exstar_i64 *part = nullptr;
  cudaError_t e = cudaMallocAsync((void **)&part, (size_t)blocks * 2 * sizeof(exstar_i64), s);
  if (e != cudaSuccess) return -(int)e;
  iamax_part_kernel<<<(int)blocks, kThreads, 0, s>>>(n, x, exstar_first_index(n, offx, incx), incx, base, part);
  int rc = exstar_cuda_l1::check_launch();
  if (rc == 0) {
    iamax_combine_kernel<<<1, 1, 0, s>>>(part, (int)blocks, (exstar_i64 *)state);
    rc = exstar_cuda_l1::check_launch();
  }
  e = cudaFreeAsync(part, s);
  return rc ? rc : (e == cudaSuccess ? 0 : -(int)e);
}

extern "C" int exstar_cuda_iamax_init(long long *state, exstar_cuda_stream stream)
{
  iamax_init_kernel<<<1, 1, 0, (cudaStream_t)stream>>>((exstar_i64 *)state);
  return exstar_cuda_l1::check_launch();
}

extern "C" int exstar_cuda_iamax_merge(long long *dst, const long long *src, exstar_cuda_stream stream)
{
  iamax_combine_kernel<<<1, 1, 0, (cudaStream_t)stream>>>((const exstar_i64 *)src, 1, (exstar_i64 *)dst);
  return exstar_cuda_l1::check_launch();
}

extern "C" int exstar_cuda_iamax_index(const long long *state, long long *out, exstar_cuda_stream stream)
{
  iamax_index_kernel<<<1, 1, 0, (cudaStream_t)stream>>>((const exstar_i64 *)state, out);
  return exstar_cuda_l1::check_launch();
}

extern "C" int exstar_cuda_iamax_ipiv(const long long *state, int32_t *ipiv, int64_t base,
                                      exstar_cuda_stream stream)
{
  iamax_ipiv_kernel<<<1, 1, 0, (cudaStream_t)stream>>>((const exstar_i64 *)state, ipiv, base);
  return exstar_cuda_l1::check_launch();
}
