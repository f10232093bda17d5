// Error checks of the GPU benchmarks: a failed CUDA, cuBLAS or exstar kernel call prints where
// and why, and ends the benchmark (exit 1). Benchmarks only: the library never exits.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "kernels_cuda/kernels_cuda.h"

#define CHECK_CUDA(call)                                                                       \
  do {                                                                                         \
    cudaError_t e_ = (call);                                                                   \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));        \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)
#define CHECK_CUBLAS(call)                                                                     \
  do {                                                                                         \
    cublasStatus_t s_ = (call);                                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
      std::fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)s_);          \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)
// an exstar CUDA launcher's status (0, or a negative cudaError_t)
#define CHECK_EXSTAR(call)                                                                     \
  do {                                                                                         \
    int r_ = (call);                                                                           \
    if (r_ != 0) {                                                                             \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, exstar_cuda_error_string(r_));  \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)
