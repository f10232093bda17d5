// The plain-double tiled LU's update on the GPU (the baseline of the exact tiled LU): C −= L·U by
// cublasDgemm on the caller's stream. NOT exact: for comparison only.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "kernels_cuda/lu.h"

namespace {
// One cuBLAS handle per host thread (a StarPU CUDA worker is one thread): created on first use.
thread_local cublasHandle_t handle = nullptr;
}

extern "C" int exstar_cuda_lu_plain_gemm(int64_t m, int64_t n, int64_t k, const double *L, int64_t ldl,
                                         const double *U, int64_t ldu, double *C, int64_t ldc,
                                         exstar_cuda_stream stream)
{
  if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return -(int)cudaErrorInitializationError;
  if (cublasSetStream(handle, (cudaStream_t)stream) != CUBLAS_STATUS_SUCCESS) return -(int)cudaErrorInvalidValue;
  const double minus = -1.0, one = 1.0;
  cublasStatus_t s = cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &minus, L, (int)ldl, U,
                                 (int)ldu, &one, C, (int)ldc);
  return s == CUBLAS_STATUS_SUCCESS ? 0 : -(int)cudaErrorLaunchFailure;
}
