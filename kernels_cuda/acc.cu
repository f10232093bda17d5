// Accumulator housekeeping on a CUDA device: zero, exact merge, normalize, rounding.
#include "kernels_cuda/kernels_cuda.h"
#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"
#include "core/sqrt.h"

namespace {

// One warp loads the words into shared memory, one thread carries them (134 dependent
// steps on shared memory, a few microseconds), the warp writes them back.
__global__ void __launch_bounds__(32) normalize_kernel(exstar_i64 *acc)
{
  __shared__ exstar_i64 w[EXSTAR_ACC_WORDS];
  for (int i = threadIdx.x; i < EXSTAR_ACC_WORDS; i += 32) w[i] = acc[i];
  __syncwarp();
  if (threadIdx.x == 0) exstar_acc_normalize_private(w);
  __syncwarp();
  for (int i = threadIdx.x; i < EXSTAR_ACC_WORDS; i += 32) acc[i] = w[i];
}

// dst += src word by word, then the same normalize as above; block k merges accumulator k.
__global__ void __launch_bounds__(32) merge_kernel(exstar_i64 *dst, const exstar_i64 *src)
{
  __shared__ exstar_i64 w[EXSTAR_ACC_WORDS];
  dst += (long long)blockIdx.x * EXSTAR_ACC_WORDS;
  src += (long long)blockIdx.x * EXSTAR_ACC_WORDS;
  for (int i = threadIdx.x; i < EXSTAR_ACC_WORDS; i += 32) w[i] = dst[i] + src[i];
  __syncwarp();
  if (threadIdx.x == 0) exstar_acc_normalize_private(w);
  __syncwarp();
  for (int i = threadIdx.x; i < EXSTAR_ACC_WORDS; i += 32) dst[i] = w[i];
}

// One thread rounds a private copy: from its head when the bound proves it (core/checked_round.h),
// else the exact way (exstar_acc_round_private normalizes the copy in place). H200, the 2^27-term
// nrm2: ~17 us the exact way alone.
__global__ void __launch_bounds__(32) round_kernel(const exstar_i64 *acc, double *result)
{
  __shared__ exstar_i64 w[EXSTAR_ACC_WORDS];
  for (int i = threadIdx.x; i < EXSTAR_ACC_WORDS; i += 32) w[i] = acc[i];
  __syncwarp();
  double y;
  if (threadIdx.x == 0) *result = exstar_acc_round_fast(w, &y) ? y : exstar_acc_round_private(w);
}

// One thread: RN(sqrt(acc)) from a copy in shared memory, from its head when the bound proves it,
// else the exact way (core/sqrt.h; its scratch in shared memory too). H200: ~23 us the exact way.
__global__ void __launch_bounds__(32) round_sqrt_kernel(const exstar_i64 *acc, double *result)
{
  __shared__ exstar_i64 w[EXSTAR_ACC_WORDS], work[EXSTAR_ACC_WORDS];
  for (int i = threadIdx.x; i < EXSTAR_ACC_WORDS; i += 32) w[i] = acc[i];
  __syncwarp();
  double y;
  if (threadIdx.x == 0) *result = exstar_acc_round_sqrt_fast(w, &y) ? y : exstar_acc_round_sqrt_private(w, work);
}

} // namespace

int exstar_cuda_check_launch(void)
{
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? 0 : -(int)e;
}

int exstar_cuda_grid_size(long long n, int threads, int blocks_per_sm, int *grid)
{
  int dev = 0, sms = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e != cudaSuccess) return -(int)e;
  long long g = (long long)sms * blocks_per_sm;
  long long small = (n + 8LL * threads - 1) / (8LL * threads); // >= 8 terms per thread
  if (small < g) g = small;
  long long big = (n + EXSTAR_CUDA_MAX_TERMS_PER_BLOCK - 1) / EXSTAR_CUDA_MAX_TERMS_PER_BLOCK;
  if (big > g) g = big;
  if (g < 1) g = 1;
  if (g > 0x7fffffffLL) return -(int)cudaErrorInvalidValue;
  *grid = (int)g;
  return 0;
}

int exstar_cuda_launch_normalize(exstar_i64 *acc, cudaStream_t stream)
{
  normalize_kernel<<<1, 32, 0, stream>>>(acc);
  return exstar_cuda_check_launch();
}

extern "C" {

int exstar_cuda_acc_zero(long long *acc, int64_t count, exstar_cuda_stream stream)
{
  if (count <= 0) return 0;
  if (acc == nullptr) return -(int)cudaErrorInvalidValue;
  cudaError_t e = cudaMemsetAsync(acc, 0, sizeof(exstar_i64) * EXSTAR_ACC_WORDS * (size_t)count,
                                  (cudaStream_t)stream);
  return e == cudaSuccess ? 0 : -(int)e;
}

int exstar_cuda_acc_merge(long long *dst, const long long *src, int64_t count,
                          exstar_cuda_stream stream)
{
  if (count <= 0) return 0;
  if (dst == nullptr || src == nullptr || count > 0x7fffffff) return -(int)cudaErrorInvalidValue;
  merge_kernel<<<(unsigned)count, 32, 0, (cudaStream_t)stream>>>(dst, src);
  return exstar_cuda_check_launch();
}

int exstar_cuda_acc_round(const long long *acc, double *result, exstar_cuda_stream stream)
{
  round_kernel<<<1, 32, 0, (cudaStream_t)stream>>>(acc, result);
  return exstar_cuda_check_launch();
}

int exstar_cuda_acc_round_sqrt(const long long *acc, double *result, exstar_cuda_stream stream)
{
  round_sqrt_kernel<<<1, 32, 0, (cudaStream_t)stream>>>(acc, result);
  return exstar_cuda_check_launch();
}

const char *exstar_cuda_error_string(int code)
{
  if (code == 0) return "no error";
  return cudaGetErrorString((cudaError_t)(code < 0 ? -code : code));
}

} // extern "C"

extern "C" int exstar_cuda_memset2d(void *p, size_t pitch, size_t width, size_t height, exstar_cuda_stream stream)
{
  return -(int)cudaMemset2DAsync(p, pitch, 0, width, height, (cudaStream_t)stream);
}

extern "C" int exstar_cuda_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                  size_t height, exstar_cuda_stream stream)
{
  return -(int)cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, cudaMemcpyDeviceToDevice,
                                 (cudaStream_t)stream);
}
