// The cuBLAS and cuSOLVER handles of the plain-double baselines (kernels_cuda/lu_plain.cu,
// potrf_plain.cu): one of each per host thread (StarPU drives a device from one thread), created
// on first use and bound to the caller's stream at every call. Inline functions with their own
// thread_local handle: one per thread for the whole library, whichever file asks.
#ifndef EXSTAR_KERNELS_CUDA_VENDOR_HANDLES_CUH
#define EXSTAR_KERNELS_CUDA_VENDOR_HANDLES_CUH
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

namespace exstar_vendor {

// *h := this thread's cuBLAS handle on stream s; 0 or -(cudaError_t).
inline int blas_on(cudaStream_t s, cublasHandle_t *h)
{
  static thread_local cublasHandle_t blas = nullptr;
  if (!blas && cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) return -(int)cudaErrorInitializationError;
  *h = blas;
  return cublasSetStream(blas, s) == CUBLAS_STATUS_SUCCESS ? 0 : -(int)cudaErrorInvalidValue;
}

// *h := this thread's cuSOLVER handle on stream s; 0 or -(cudaError_t).
inline int solver_on(cudaStream_t s, cusolverDnHandle_t *h)
{
  static thread_local cusolverDnHandle_t solver = nullptr;
  if (!solver && cusolverDnCreate(&solver) != CUSOLVER_STATUS_SUCCESS) return -(int)cudaErrorInitializationError;
  *h = solver;
  return cusolverDnSetStream(solver, s) == CUSOLVER_STATUS_SUCCESS ? 0 : -(int)cudaErrorInvalidValue;
}

// A failed vendor call's status: the CUDA error behind it, else a launch failure.
inline int fail(cudaError_t e) { return e == cudaSuccess ? -(int)cudaErrorLaunchFailure : -(int)e; }

} // namespace exstar_vendor
#endif
