// The LU driver's own steps on a CUDA device: the pivot (one block: iamax order of
// core/iamax.h, so the split never changes the winner; then the row interchange) and the
// plain-double column update of the baseline.
#include "kernels_cuda/lu.h"
#include "kernels_cuda/iamax_block.cuh"
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;

int check_launch()
{
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? 0 : -(int)e;
}

__global__ void __launch_bounds__(kThreads) pivot_kernel(long long m, long long j, double *a, long long offa,
                                                         long long lda, int32_t *ipiv, long long offipiv)
{
  __shared__ exstar_i64 skey[kThreads], sidx[kThreads];
  const int tid = threadIdx.x;
  exstar_i64 key = EXSTAR_IAMAX_EMPTY, idx = EXSTAR_IAMAX_EMPTY;
  for (long long i = j + tid; i < m; i += kThreads) {
    const exstar_i64 k = exstar_iamax_key(a[offa + i + j * lda]);
    if (exstar_iamax_beats(k, i, key, idx)) key = k, idx = i;
  }
  exstar_cuda_iamax_block<kThreads>(skey, sidx, key, idx);
  const long long p = sidx[0];
  if (tid == 0) ipiv[offipiv + j] = (int32_t)(p + 1);
  if (p == j) return;
  for (long long c = tid; c <= j; c += kThreads) {
    const double t = a[offa + j + c * lda];
    a[offa + j + c * lda] = a[offa + p + c * lda];
    a[offa + p + c * lda] = t;
  }
}

// a(i,j) -= Σ_{k<kend} a(i,k)·a(k,j) in double (nvcc --fmad=false: no contraction).
__device__ double plain_row(const double *a, long long offa, long long lda, long long i, long long j,
                            long long kend)
{
  double s = a[offa + i + j * lda];
  for (long long k = 0; k < kend; ++k) s -= a[offa + i + k * lda] * a[offa + k + j * lda];
  return s;
}

__global__ void plain_trsv_kernel(long long utop, long long j, double *a, long long offa, long long lda)
{
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (long long i = 0; i < utop; ++i) a[offa + i + j * lda] = plain_row(a, offa, lda, i, j, i);
}

__global__ void plain_gemv_kernel(long long m, long long j, double *a, long long offa, long long lda)
{
  const long long i = j + (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) a[offa + i + j * lda] = plain_row(a, offa, lda, i, j, j);
}
__global__ void plain_getrs_kernel(long long n, long long nrhs, const double *t, long long ldt, const int32_t *ipiv,
                                   double *b, long long ldb)
{
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nrhs) return;
  double *x = b + c * ldb;
  for (long long k = 0; k < n; ++k) {
    const long long p = (long long)ipiv[k] - 1;
    if (p != k && p >= 0 && p < n) {
      const double s = x[k];
      x[k] = x[p];
      x[p] = s;
    }
  }
  for (long long i = 0; i < n; ++i) {
    double s = x[i];
    for (long long k = 0; k < i; ++k) s -= t[i + k * ldt] * x[k];
    x[i] = s;
  }
  for (long long i = n - 1; i >= 0; --i) {
    double s = x[i];
    for (long long k = i + 1; k < n; ++k) s -= t[i + k * ldt] * x[k];
    x[i] = s / t[i + i * ldt];
  }
}
} // namespace

extern "C" int exstar_cuda_lu_pivot(int64_t m, int64_t j, double *a, int64_t offa, int64_t lda, int32_t *ipiv,
                                    int64_t offipiv, exstar_cuda_stream stream)
{
  if (j >= m) return 0;
  pivot_kernel<<<1, kThreads, 0, (cudaStream_t)stream>>>(m, j, a, offa, lda, ipiv, offipiv);
  return check_launch();
}

extern "C" int exstar_cuda_lu_plain_column(int64_t m, int64_t j, double *a, int64_t offa, int64_t lda,
                                           exstar_cuda_stream stream)
{
  const int64_t utop = j < m ? j : m;
  if (utop > 0) {
    plain_trsv_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(utop, j, a, offa, lda);
    if (int e = check_launch()) return e;
  }
  if (j >= m) return 0;
  const int blocks = (int)((m - j + kThreads - 1) / kThreads);
  plain_gemv_kernel<<<blocks, kThreads, 0, (cudaStream_t)stream>>>(m, j, a, offa, lda);
  return check_launch();
}

extern "C" int exstar_cuda_lu_plain_getrs(int64_t n, int64_t nrhs, const double *lu, int64_t offlu, int64_t ldlu,
                                          const int32_t *ipiv, int64_t offipiv, double *b, int64_t offb, int64_t ldb,
                                          exstar_cuda_stream stream)
{
  if (n <= 0 || nrhs <= 0) return 0;
  const int blocks = (int)((nrhs + kThreads - 1) / kThreads);
  plain_getrs_kernel<<<blocks, kThreads, 0, (cudaStream_t)stream>>>(n, nrhs, lu + offlu, ldlu, ipiv + offipiv,
                                                                     b + offb, ldb);
  return check_launch();
}
