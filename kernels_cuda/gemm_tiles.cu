// The exact gemm on tiled operands (exstar_dgemm_desc_insert's tasks) on the GPU: a tile row of
// op(A) and a tile column of op(B) copied into one stream-ordered strip each (core/strides.h),
// then exstar_cuda_dgemm, whose bits are every back end's. The copies move (m + n)·k words at
// device bandwidth, against the product's 2·m·n·k operations.
#include <cuda_runtime.h>
#include "kernels_cuda/gemm.h"
#include "core/strides.h"
#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"
#include "kernels_cuda/gemm_internal.cuh"

namespace {

bool is_trans(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

int gather(bool along_rows, const double *const *X, const int64_t *ld, int64_t kt, int64_t kb, int64_t k, int64_t w,
           double *strip, cudaStream_t s)
{
  const int64_t sld = exstar_strip_ld(along_rows, k, w);
  for (int64_t l = 0; l < kt; ++l) {
    exstar_i64 off, rows, cols;
    exstar_strip_tile(along_rows, l, kb, k, w, &off, &rows, &cols);
    const cudaError_t e = cudaMemcpy2DAsync(strip + off, (size_t)sld * sizeof(double), X[l], (size_t)ld[l] * sizeof(double),
                                            (size_t)rows * sizeof(double), (size_t)cols, cudaMemcpyDeviceToDevice, s);
    if (e != cudaSuccess) return -(int)e;
  }
  return 0;
}

} // namespace

extern "C" int exstar_cuda_dgemm_tiles(char transa, char transb, int64_t m, int64_t n, int64_t k, int64_t kb,
                                       int64_t kt, double alpha, const double *const *A, const int64_t *lda,
                                       const double *const *B, const int64_t *ldb, double beta, double *C, int64_t ldc,
                                       int exact_only, unsigned long long *repaired, exstar_cuda_stream stream)
{
  if (kt <= 1 || k == 0)
    return exstar_cuda_dgemm(transa, transb, m, n, k, alpha, kt ? A[0] : nullptr, 0, kt ? lda[0] : 1,
                             kt ? B[0] : nullptr, 0, kt ? ldb[0] : 1, beta, C, 0, ldc, exact_only, repaired, stream);
  if (m <= 0 || n <= 0) return 0;
  cudaStream_t s = (cudaStream_t)stream;
  const bool ar = is_trans(transa), br = !is_trans(transb);
  double *a = nullptr;
  cudaMemPool_t pool;
  if (int r = exstar_cuda_l3::scratch_pool(&pool)) return r;
  const cudaError_t e = cudaMallocFromPoolAsync((void **)&a, (size_t)((m + n) * k) * sizeof(double), pool, s);
  if (e != cudaSuccess) return -(int)e;
  double *b = a + m * k;
  int r = gather(ar, A, lda, kt, kb, k, m, a, s);
  if (r == 0) r = gather(br, B, ldb, kt, kb, k, n, b, s);
  if (r == 0)
    r = exstar_cuda_dgemm(transa, transb, m, n, k, alpha, a, 0, exstar_strip_ld(ar, k, m), b, 0,
                          exstar_strip_ld(br, k, n), beta, C, 0, ldc, exact_only, repaired, stream);
  cudaFreeAsync(a, s);
  return r;
}
