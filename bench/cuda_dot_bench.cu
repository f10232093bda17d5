// Micro-benchmark of the exact CUDA dot and nrm2 (no StarPU): exstar_cuda_dot + rounding against
// cublasDdot (device pointer mode) and a device-to-device copy moving the same bytes; the exact
// nrm2 (the dot of x with itself, then the correctly rounded root) against cublasDnrm2.
//
//   cuda_dot_bench [--min-log K] [--max-log K] [--reps R] [--data uniform|wide] [--label S]
//
// For n = 2^min-log .. 2^max-log (default 2^20 .. 2^27) prints CSV lines
//   op,n,backend,implementation,seconds,GBps
// seconds: median of R (default 10) runs after a warm-up, timed with CUDA events on one
// stream; GBps: 16·n bytes / seconds (the bytes a dot reads; the copy reads 8·n and writes
// 8·n; nrm2: 8·n, the bytes of x). The exact dot is timed as zero + dot + round, the whole user-visible operation.
// Data: uniform in [-1, 1) (default) or `wide` (random exponents in [-300, 300], heavy spill).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernels_cuda/kernels_cuda.h"
#include "bench/cuda/bench_cuda.hpp"


namespace {

__device__ unsigned long long mix(unsigned long long z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Deterministic data: uniform in [-1, 1), or random sign, mantissa and exponent in [-300, 300].
__global__ void fill(double *v, long long n, unsigned long long seed, int wide)
{
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    unsigned long long r = mix(seed * 0x100000001b3ULL + (unsigned long long)i);
    double u = (double)(r >> 11) * 0x1p-53; // [0, 1)
    if (!wide) {
      v[i] = 2.0 * u - 1.0;
    } else {
      int e = (int)((r >> 1) % 601) - 300;
      double m = 0.5 + 0.5 * u;
      v[i] = (r & 1) ? -scalbn(m, e) : scalbn(m, e);
    }
  }
}

double median_seconds(cudaStream_t s, int reps, const std::function<void()> &op)
{
  return time_stream(s, reps, nullptr, op);
}

// bytes: what the op reads (16·n for dot and copy, 8·n for nrm2)
void print(const char *op, long long n, const std::string &impl, double sec, double bytes_per_entry = 16.0)
{
  std::printf("%s,%lld,cuda,%s,%.9e,%.2f\n", op, n, impl.c_str(), sec, bytes_per_entry * n / sec * 1e-9);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
  sweep_options sw{20, 27, 10, false};
  std::string label = "exstar";
  for (int i = 1; i < argc; ++i) {
    if (take_sweep_option(argc, argv, i, sw)) continue;
    if (std::string(argv[i]) == "--label") label = option_value(argc, argv, i);
    else {
      std::fprintf(stderr, "usage: %s [--min-log K] [--max-log K] [--reps R] "
                           "[--data uniform|wide] [--label S]\n", argv[0]);
      return 2;
    }
  }
  const int min_log = sw.min_log, max_log = sw.max_log, reps = sw.reps, wide = sw.wide;
  if (min_log < 0 || max_log > 32 || min_log > max_log || reps < 1) {
    std::fprintf(stderr, "bad sizes or reps\n");
    return 2;
  }
  if (wide) label += "_wide";
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);

  const long long nmax = 1LL << max_log;
  double *x, *y, *dst, *res;
  long long *acc;
  CHECK_CUDA(cudaMalloc(&x, nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&y, nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dst, nmax * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&res, 2 * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&acc, 256 * sizeof(long long)));
  fill<<<1024, 256>>>(x, nmax, 1, wide);
  fill<<<1024, 256>>>(y, nmax, 2, wide);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  CHECK_CUBLAS(cublasSetStream(h, s));
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  exstar_cuda_stream es = reinterpret_cast<exstar_cuda_stream>(s);

  std::printf("op,n,backend,implementation,seconds,GBps\n");
  for (int k = min_log; k <= max_log; ++k) {
    const long long n = 1LL << k;
    double t = median_seconds(s, reps, [&] {
      CHECK_EXSTAR(exstar_cuda_acc_zero(acc, 1, es));
      CHECK_EXSTAR(exstar_cuda_dot(n, x, 0, 1, y, 0, 1, acc, es));
      CHECK_EXSTAR(exstar_cuda_acc_round(acc, res, es));
    });
    print("dot", n, label, t);
    t = median_seconds(s, reps, [&] { CHECK_CUBLAS(cublasDdot(h, (int)n, x, 1, y, 1, res + 1)); });
    print("dot", n, "cublas", t);
    t = median_seconds(s, reps, [&] {
      CHECK_CUDA(cudaMemcpyAsync(dst, x, n * sizeof(double), cudaMemcpyDeviceToDevice, s));
    });
    print("copy", n, "memcpy_d2d", t);
    // nrm2: the exact dot of x with itself (its second read of each entry hits the cache),
    // then the correctly rounded root (core/sqrt.h); GBps on the 8·n bytes of x
    t = median_seconds(s, reps, [&] {
      CHECK_EXSTAR(exstar_cuda_acc_zero(acc, 1, es));
      CHECK_EXSTAR(exstar_cuda_dot(n, x, 0, 1, x, 0, 1, acc, es));
      CHECK_EXSTAR(exstar_cuda_acc_round_sqrt(acc, res, es));
    });
    print("nrm2", n, label, t, 8.0);
    t = median_seconds(s, reps, [&] { CHECK_CUBLAS(cublasDnrm2(h, (int)n, x, 1, res + 1)); });
    print("nrm2", n, "cublas", t, 8.0);
    double r[2];
    CHECK_CUDA(cudaMemcpyAsync(r, res, sizeof r, cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    std::fprintf(stderr, "n=2^%d exact %.17g cublas %.17g\n", k, r[0], r[1]);
  }
  cublasDestroy(h);
  cudaStreamDestroy(s);
  cudaFree(x);
  cudaFree(y);
  cudaFree(dst);
  cudaFree(res);
  cudaFree(acc);
  return 0;
}
