// The CUDA Level-3 micro-benchmark (no StarPU): the exact gemm kernels (exstar_cuda_dgemm) vs
// cublasDgemm on the same device data, in one run, and exact trsm vs cublasDtrsm.
//
//   cuda_gemm_bench [--min-log K] [--max-log K] [--reps R] [--data uniform|wide]
//
// gemm 'N','N', alpha 1, beta 0, n = 2^min .. 2^max (default 2^11 .. 2^13), uniform data in
// [-1, 1) or exponents spread over 2^-40..2^40 ("wide"). CSV on stdout:
//   op,n,backend,implementation,seconds,GBps   (GBps: here the effective TFLOP/s·1000 = 2n³/s/1e9)
// stderr: device, the fraction of entries the exact path took, the ratio to cuBLAS, and a bit
// check of a 512 x 512 x 512 product against the CPU kernel. trsm: side L, lower, no transpose,
// non-unit, n x n with n right-hand sides, n = 2^min .. min(2^max, 4096).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cstring>
#include <random>
#include <vector>
#include "bench/cuda/bench_cuda.hpp"
#include "kernels_cpu/gemm.h"
#include "kernels_cuda/gemm.h"

namespace {

std::vector<double> data(size_t count, bool wide, uint64_t seed)
{
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(count);
  for (double &x : v) x = wide ? std::ldexp(u(g), (int)(g() % 81) - 40) : u(g);
  return v;
}

} // namespace

int main(int argc, char **argv)
{
  sweep_options o{11, 13, 5, false};
  for (int i = 1; i < argc; ++i)
    if (!take_sweep_option(argc, argv, i, o)) {
      std::fprintf(stderr, "usage: cuda_gemm_bench [--min-log K] [--max-log K] [--reps R] [--data uniform|wide]\n");
      return 2;
    }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "# device %s, data %s\n", prop.name, o.wide ? "wide" : "uniform");
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  CHECK_CUBLAS(cublasSetStream(h, s));
  std::printf("op,n,backend,implementation,seconds,GBps\n");
  int status = 0;
  { // bit check against the CPU kernel
    const int n = 512;
    std::vector<double> A = data((size_t)n * n, o.wide, 1), B = data((size_t)n * n, o.wide, 2), C((size_t)n * n),
                        G((size_t)n * n);
    exstar_cpu_dgemm('N', 'N', n, n, n, 1.0, A.data(), 0, n, B.data(), 0, n, 0.0, C.data(), 0, n, 0);
    double *dA, *dB, *dC;
    CHECK_CUDA(cudaMalloc(&dA, A.size() * 8));
    CHECK_CUDA(cudaMalloc(&dB, B.size() * 8));
    CHECK_CUDA(cudaMalloc(&dC, C.size() * 8));
    CHECK_CUDA(cudaMemcpy(dA, A.data(), A.size() * 8, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, B.data(), B.size() * 8, cudaMemcpyHostToDevice));
    if (exstar_cuda_dgemm('N', 'N', n, n, n, 1.0, dA, 0, n, dB, 0, n, 0.0, dC, 0, n, 0, nullptr, s) != 0) return 1;
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK_CUDA(cudaMemcpy(G.data(), dC, G.size() * 8, cudaMemcpyDeviceToHost));
    const bool same = std::memcmp(G.data(), C.data(), G.size() * 8) == 0;
    std::fprintf(stderr, "# bit check 512^3 against the CPU kernel: %s\n", same ? "PASS" : "FAIL");
    status |= !same;
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
  }
  for (int lg = o.min_log; lg <= o.max_log; ++lg) {
    const int64_t n = int64_t(1) << lg;
    const size_t nn = (size_t)(n * n);
    std::vector<double> A = data(nn, o.wide, 3), B = data(nn, o.wide, 4);
    double *dA, *dB, *dC;
    unsigned long long *dr;
    CHECK_CUDA(cudaMalloc(&dA, nn * 8));
    CHECK_CUDA(cudaMalloc(&dB, nn * 8));
    CHECK_CUDA(cudaMalloc(&dC, nn * 8));
    CHECK_CUDA(cudaMalloc(&dr, 8));
    CHECK_CUDA(cudaMemcpy(dA, A.data(), nn * 8, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, B.data(), nn * 8, cudaMemcpyHostToDevice));
    const double flops = 2.0 * (double)n * (double)n * (double)n;
    const int ni = (int)n;
    const double one = 1.0, zero = 0.0;
    double tc = time_stream(s, o.reps, nullptr, [&] {
      CHECK_CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, dA, ni, dB, ni, &zero, dC, ni));
    });
    double te = time_stream(s, o.reps, [&] { CHECK_CUDA(cudaMemsetAsync(dr, 0, 8, s)); }, [&] {
      if (exstar_cuda_dgemm('N', 'N', n, n, n, 1.0, dA, 0, n, dB, 0, n, 0.0, dC, 0, n, 0, dr, s) != 0) std::exit(1);
    });
    unsigned long long rep = 0;
    CHECK_CUDA(cudaMemcpy(&rep, dr, 8, cudaMemcpyDeviceToHost));
    std::printf("gemm,%lld,cuda,cublas,%.6e,%.3f\n", (long long)n, tc, flops / tc / 1e9);
    std::printf("gemm,%lld,cuda,exstar-kernels,%.6e,%.3f\n", (long long)n, te, flops / te / 1e9);
    std::fprintf(stderr, "# gemm n=%lld: exact %.3f ms (%.2f TFLOP/s effective), cublasDgemm %.3f ms (%.2f TFLOP/s): "
                         "ratio %.2fx; exact path took %llu of %lld entries (%.2e)\n",
                 (long long)n, te * 1e3, flops / te / 1e12, tc * 1e3, flops / tc / 1e12, te / tc, rep,
                 (long long)(n * n), (double)rep / (double)(n * n));
    if (n <= 4096) { // trsm, lower, no transpose, non-unit, a dominant diagonal
      std::vector<double> T = data(nn, false, 5);
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) T[i + j * n] = i < j ? 0.0 : i == j ? 2.0 + T[i + j * n] : T[i + j * n] / n;
      double *dT, *dX;
      CHECK_CUDA(cudaMalloc(&dT, nn * 8));
      CHECK_CUDA(cudaMalloc(&dX, nn * 8));
      CHECK_CUDA(cudaMemcpy(dT, T.data(), nn * 8, cudaMemcpyHostToDevice));
      auto reset = [&] { CHECK_CUDA(cudaMemcpyAsync(dX, dB, nn * 8, cudaMemcpyDeviceToDevice, s)); };
      double tt = time_stream(s, o.reps, reset, [&] {
        CHECK_CUBLAS(cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, ni, ni,
                                 &one, dT, ni, dX, ni));
      });
      double tx = time_stream(s, o.reps, reset, [&] {
        if (exstar_cuda_dtrsm('L', 'L', 'N', 'N', n, n, 1.0, dT, 0, n, dX, 0, n, 0, nullptr, s) != 0) std::exit(1);
      });
      std::printf("trsm,%lld,cuda,cublas,%.6e,%.3f\n", (long long)n, tt, flops / 2 / tt / 1e9);
      std::printf("trsm,%lld,cuda,exstar-kernels,%.6e,%.3f\n", (long long)n, tx, flops / 2 / tx / 1e9);
      std::fprintf(stderr, "# trsm n=%lld: exact %.3f ms, cublasDtrsm %.3f ms: ratio %.1fx\n", (long long)n, tx * 1e3,
                   tt * 1e3, tx / tt);
      cudaFree(dT), cudaFree(dX);
    }
    cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dr);
  }
  cublasDestroy(h);
  cudaStreamDestroy(s);
  return status;
}
