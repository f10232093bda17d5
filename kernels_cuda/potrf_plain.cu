// The plain-double tiled Cholesky on the GPU (the baseline of the exact tiled Cholesky: the same
// tiles and graph, vendor kernels inside): cuSOLVER's dpotrf on the diagonal tile, cublasDtrsm
// for a tile below it, cublasDsyrk / cublasDgemm for the updates, on the caller's stream. NOT
// exact, NOT reproducible: for comparison only (as kernels_cpu/potrf_plain_tiled.cpp).
#include "kernels_cuda/potrf_tiled.h"
#include "kernels_cuda/vendor_handles.cuh"

namespace {

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// fail[j] := 1 from the column cuSOLVER's info names (1-based; 0: none), else 0.
__global__ void flags_from_info(const int *info, int32_t *fail, int64_t n)
{
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) fail[j] = *info > 0 && j >= *info - 1 ? 1 : 0;
}

int plain_diag(const exstar_cuda_tiles *v, int64_t K, int32_t *fail, cudaStream_t s)
{
  const int64_t d = K + K * v->mt;
  const int nk = (int)min64(v->nb, v->n - K * v->nb), ld = (int)v->lda[d];
  cusolverDnHandle_t solver;
  if (int r = exstar_vendor::solver_on(s, &solver)) return r;
  int lwork = 0;
  if (cusolverDnDpotrf_bufferSize(solver, CUBLAS_FILL_MODE_LOWER, nk, v->a[d], ld, &lwork) != CUSOLVER_STATUS_SUCCESS)
    return -(int)cudaErrorInvalidValue;
  const size_t wbytes = ((size_t)lwork * sizeof(double) + 255) / 256 * 256;
  char *x = nullptr;
  cudaError_t e = cudaMallocAsync((void **)&x, wbytes + sizeof(int), s);
  if (e != cudaSuccess) return -(int)e;
  int *info = (int *)(x + wbytes);
  int r = 0;
  if (cusolverDnDpotrf(solver, CUBLAS_FILL_MODE_LOWER, nk, v->a[d], ld, (double *)x, lwork, info) !=
      CUSOLVER_STATUS_SUCCESS)
    r = exstar_vendor::fail(cudaGetLastError());
  if (r == 0) {
    flags_from_info<<<(unsigned)((nk + 255) / 256), 256, 0, s>>>(info, fail, nk);
    e = cudaGetLastError();
  }
  const cudaError_t f = cudaFreeAsync(x, s);
  if (r != 0) return r;
  return e != cudaSuccess ? -(int)e : f != cudaSuccess ? -(int)f : 0;
}

} // namespace

extern "C" int exstar_cuda_potrf_plain_panel(const exstar_cuda_tiles *v, int64_t K, int64_t I, int32_t *fail,
                                             exstar_cuda_stream stream)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (I == K) return plain_diag(v, K, fail, s);
  const int64_t d = K + K * v->mt, t = I + K * v->mt;
  const int nk = (int)min64(v->nb, v->n - K * v->nb), ni = (int)min64(v->nb, v->n - I * v->nb);
  cublasHandle_t blas;
  if (int r = exstar_vendor::blas_on(s, &blas)) return r;
  const double one = 1.0;
  const cublasStatus_t st = cublasDtrsm(blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                                        CUBLAS_DIAG_NON_UNIT, ni, nk, &one, v->a[d], (int)v->lda[d], v->a[t],
                                        (int)v->lda[t]);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : exstar_vendor::fail(cudaGetLastError());
}

extern "C" int exstar_cuda_potrf_plain_update(int64_t m, int64_t n, int64_t k, const double *A, int64_t lda,
                                              const double *B, int64_t ldb, double *C, int64_t ldc, int diagonal,
                                              exstar_cuda_stream stream)
{
  cublasHandle_t blas;
  if (int r = exstar_vendor::blas_on((cudaStream_t)stream, &blas)) return r;
  const double minus = -1.0, one = 1.0;
  const cublasStatus_t st =
      diagonal ? cublasDsyrk(blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, (int)n, (int)k, &minus, A, (int)lda, &one, C,
                             (int)ldc)
               : cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, (int)m, (int)n, (int)k, &minus, A, (int)lda, B, (int)ldb,
                             &one, C, (int)ldc);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : exstar_vendor::fail(cudaGetLastError());
}
