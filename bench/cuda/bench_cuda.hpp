// What the GPU benchmarks share: error checks (a failed CUDA, cuBLAS or exstar kernel call
// prints where and why and ends the benchmark, exit 1; benchmarks only, the library never
// exits), the options of a size sweep, and the timing of a call on a stream.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

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

// The options of a micro-benchmark's sweep: --min-log K, --max-log K, --reps R, --data uniform|wide.
struct sweep_options {
  int min_log, max_log, reps;
  bool wide;
};

// The value of option argv[i] (i moves onto it); a missing value ends the benchmark (exit 2).
inline const char *option_value(int argc, char **argv, int &i)
{
  if (i + 1 >= argc) {
    std::fprintf(stderr, "%s needs a value\n", argv[i]);
    std::exit(2);
  }
  return argv[++i];
}

// Takes argv[i] (and its value) when it is a sweep option; false otherwise.
inline bool take_sweep_option(int argc, char **argv, int &i, sweep_options &o)
{
  const std::string a = argv[i];
  if (a == "--min-log") o.min_log = std::atoi(option_value(argc, argv, i));
  else if (a == "--max-log") o.max_log = std::atoi(option_value(argc, argv, i));
  else if (a == "--reps") o.reps = std::atoi(option_value(argc, argv, i));
  else if (a == "--data") o.wide = std::strcmp(option_value(argc, argv, i), "wide") == 0;
  else return false;
  return true;
}

inline double median(std::vector<double> t)
{
  std::sort(t.begin(), t.end());
  const size_t n = t.size();
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

// Median seconds of reps calls of op on stream s (CUDA events), after three warm-up calls;
// prepare (untimed, may be empty) runs before each call.
inline double time_stream(cudaStream_t s, int reps, const std::function<void()> &prepare,
                          const std::function<void()> &op)
{
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  std::vector<double> t;
  for (int r = -3; r < reps; ++r) {
    if (prepare) prepare();
    CHECK_CUDA(cudaEventRecord(a, s));
    op();
    CHECK_CUDA(cudaEventRecord(b, s));
    CHECK_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
    if (r >= 0) t.push_back(ms * 1e-3);
  }
  CHECK_CUDA(cudaEventDestroy(a));
  CHECK_CUDA(cudaEventDestroy(b));
  return median(t);
}
