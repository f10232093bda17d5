// The plain-double tiled LU on the GPU (the baseline of the exact tiled LU: the same tiles and
// graph, vendor kernels inside): cuSOLVER's dgetrf on the gathered panel, cublasDtrsm for a block
// row of U, cublasDgemm for the updates, on the caller's stream. NOT exact, NOT reproducible: for
// comparison only.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include "kernels_cuda/lu.h"
#include "kernels_cuda/lu_tiled.h"
#include "kernels_cuda/vendor_handles.cuh"

namespace {
using exstar_vendor::fail;

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// The panel's pivots, 1-based in the panel, made 1-based rows of the matrix.
__global__ void offset_pivots(int32_t *ipiv, int64_t n, int64_t c0)
{
  const int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (q < n) ipiv[q] += (int32_t)c0;
}

// The panel's tiles (rows [c0, m) of block column K) to or from P (rows x w, column-major).
cudaError_t move_panel(const exstar_cuda_tiles *v, int64_t K, double *P, int64_t rows, int64_t w, bool back,
                       cudaStream_t s)
{
  const int64_t c0 = K * v->nb;
  for (int64_t I = K; I < v->mt; ++I) {
    const int64_t t = I + K * v->mt, r0 = I * v->nb - c0, nr = min64(v->nb, v->m - I * v->nb);
    double *tile = v->a[t], *part = P + r0;
    const size_t tp = (size_t)v->lda[t] * sizeof(double), pp = (size_t)rows * sizeof(double);
    const cudaError_t e = back ? cudaMemcpy2DAsync(tile, tp, part, pp, (size_t)nr * sizeof(double), (size_t)w,
                                                   cudaMemcpyDeviceToDevice, s)
                               : cudaMemcpy2DAsync(part, pp, tile, tp, (size_t)nr * sizeof(double), (size_t)w,
                                                   cudaMemcpyDeviceToDevice, s);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
// Whether the panel's tiles lie one after the other in memory with one leading dimension (a
// column-major array's tiles): then cuSOLVER factors them in place.
bool panel_contiguous(const exstar_cuda_tiles *v, int64_t K)
{
  const int64_t t0 = K + K * v->mt;
  for (int64_t I = K + 1; I < v->mt; ++I) {
    const int64_t t = I + K * v->mt;
    if (v->lda[t] != v->lda[t0] || v->a[t] != v->a[t0] + (I - K) * v->nb) return false;
  }
  return true;
}
} // namespace

extern "C" int exstar_cuda_lu_plain_gemm(int64_t m, int64_t n, int64_t k, const double *L, int64_t ldl,
                                         const double *U, int64_t ldu, double *C, int64_t ldc,
                                         exstar_cuda_stream stream)
{
  cublasHandle_t blas;
  if (int r = exstar_vendor::blas_on((cudaStream_t)stream, &blas)) return r;
  const double minus = -1.0, one = 1.0;
  cublasStatus_t s = cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &minus, L, (int)ldl, U,
                                 (int)ldu, &one, C, (int)ldc);
  return s == CUBLAS_STATUS_SUCCESS ? 0 : -(int)cudaErrorLaunchFailure;
}

extern "C" int exstar_cuda_lu_plain_panel(const exstar_cuda_tiles *v, int64_t K, int32_t *ipiv,
                                          exstar_cuda_stream stream)
{
  cudaStream_t s = (cudaStream_t)stream;
  const int64_t c0 = K * v->nb, w = min64(v->nb, v->n - c0), rows = v->m - c0, npiv = min64(rows, w);
  if (rows <= 0 || w <= 0) return 0;
  cusolverDnHandle_t solver;
  if (int r = exstar_vendor::solver_on(s, &solver)) return r;
  const bool in_place = panel_contiguous(v, K);
  const int64_t ldp = in_place ? v->lda[K + K * v->mt] : rows;
  int lwork = 0;
  if (cusolverDnDgetrf_bufferSize(solver, (int)rows, (int)w, nullptr, (int)ldp, &lwork) != CUSOLVER_STATUS_SUCCESS)
    return -(int)cudaErrorInvalidValue;
  // scratch: the gathered panel (unless it is factored in place), cuSOLVER's workspace, its info
  const size_t pbytes = in_place ? 0 : (size_t)(rows * w) * sizeof(double), wbytes = (size_t)lwork * sizeof(double);
  char *x = nullptr;
  cudaError_t e = cudaMallocAsync((void **)&x, pbytes + wbytes + sizeof(int), s);
  if (e != cudaSuccess) return -(int)e;
  double *P = in_place ? v->a[K + K * v->mt] : (double *)x, *work = (double *)(x + pbytes);
  int *info = (int *)(x + pbytes + wbytes);
  int r = 0;
  if (!in_place) e = move_panel(v, K, P, rows, w, false, s);
  if (e == cudaSuccess &&
      cusolverDnDgetrf(solver, (int)rows, (int)w, P, (int)ldp, work, (int *)ipiv, info) != CUSOLVER_STATUS_SUCCESS)
    r = fail(cudaGetLastError());
  if (e == cudaSuccess && r == 0) {
    offset_pivots<<<(unsigned)((npiv + 255) / 256), 256, 0, s>>>(ipiv, npiv, c0);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess && r == 0 && !in_place) e = move_panel(v, K, P, rows, w, true, s);
  if (e == cudaSuccess && r == 0 && v->lc && v->lc[K]) // the column copy the updates read
    e = cudaMemcpy2DAsync(v->lc[K], (size_t)v->ldlc[K] * sizeof(double), P, (size_t)ldp * sizeof(double),
                          (size_t)rows * sizeof(double), (size_t)w, cudaMemcpyDeviceToDevice, s);
  const cudaError_t f = cudaFreeAsync(x, s);
  if (r != 0) return r;
  return e != cudaSuccess ? -(int)e : f != cudaSuccess ? -(int)f : 0;
}

extern "C" int exstar_cuda_lu_plain_urow(const exstar_cuda_tiles *v, int64_t K, int64_t J, exstar_cuda_stream stream)
{
  const int64_t tl = K + K * v->mt, tu = K + J * v->mt;
  const int m = (int)min64(v->nb, v->m - K * v->nb), n = (int)min64(v->nb, v->n - J * v->nb);
  if (m <= 0 || n <= 0) return 0;
  cublasHandle_t blas;
  if (int r = exstar_vendor::blas_on((cudaStream_t)stream, &blas)) return r;
  const double one = 1.0;
  cublasStatus_t st = cublasDtrsm(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, m, n,
                                  &one, v->a[tl], (int)v->lda[tl], v->a[tu], (int)v->lda[tu]);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : -(int)cudaErrorLaunchFailure;
}
