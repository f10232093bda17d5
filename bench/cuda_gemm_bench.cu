// The CUDA Level-3 micro-benchmark (no StarPU): the exact gemm kernels (exstar_cuda_dgemm) vs
// cublasDgemm on the same device data, in one run, and exact trsm vs cublasDtrsm.
//
//   cuda_gemm_bench [--min-log K] [--max-log K] [--reps R] [--data uniform|wide|both]
//                   [--trsm N1,N2,...] [--trsm-nb B1,B2,...] [--state M1,M2,...] [--cfg-sweep] [--csv FILE]
//
// gemm 'N','N', alpha 1, beta 0, n = 2^min .. 2^max (default 2^11 .. 2^13), data uniform in
// [-1, 1) or with exponents spread over 2^-40..2^40 ("wide"; default: both). Times: medians of R
// (default 5) runs after 3 warm-ups, CUDA events on one stream; the exact gemm is timed whole
// (exponent codes, fast kernel, repair, stream-ordered scratch). TFLOP/s "effective": 2n^3 / s.
// trsm: side L, lower, no transpose, non-unit, n x n with n right-hand sides, uniform data and a
// dominant diagonal, n in --trsm (default 4096,8192), for each block size in --trsm-nb (default
// the library's; EXSTAR_CUDA_TRSM_NB; the CSV's config column holds it).
// --state: the tiled LU's update of a block column, st(m x 512) -= L(m x 512) U(512 x 512)
// (exstar_cuda_gemm_state_add), through the FP64 kernel and the integer path (EXSTAR_CUDA_GEMM_CRT
// 0 and 1), against cublasDgemm of the same shape (default: none).
// --cfg-sweep: first times the fast kernel's configurations (EXSTAR_CUDA_GEMM_CFG 0, 1, 2) at the
// largest gemm size and keeps the fastest for the rest.
// CSV (stdout and --csv FILE):
//   op,n,data,implementation,config,seconds,tflops_effective,ratio_to_cublas,repaired_fraction
// stderr: device, a bit check of 512^3 products against the CPU kernel (each data kind), summaries.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
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

FILE *g_csv = nullptr;

std::vector<long long> parse_list(const std::string &v)
{
  std::vector<long long> out;
  for (size_t p = 0; p < v.size();) {
    const size_t q = v.find(',', p);
    const std::string t = v.substr(p, q == std::string::npos ? std::string::npos : q - p);
    if (!t.empty() && std::atoll(t.c_str()) > 0) out.push_back(std::atoll(t.c_str()));
    p = q == std::string::npos ? v.size() : q + 1;
  }
  return out;
}

void row(const char *op, long long n, const char *kind, const char *impl, int cfg, double sec, double flops, double ratio,
         double repaired)
{
  char line[512];
  std::snprintf(line, sizeof line, "%s,%lld,%s,%s,%d,%.6e,%.4f,%.3f,%.3e\n", op, n, kind, impl, cfg, sec,
                flops / sec / 1e12, ratio, repaired);
  std::fputs(line, stdout);
  if (g_csv) std::fputs(line, g_csv);
}

int current_cfg()
{
  const char *v = std::getenv("EXSTAR_CUDA_GEMM_CFG");
  return v ? std::atoi(v) : 0;
}

struct dbuf {
  double *p = nullptr;
  explicit dbuf(size_t count) { CHECK_CUDA(cudaMalloc(&p, count * 8 + 8)); }
  ~dbuf() { cudaFree(p); }
};

} // namespace

int main(int argc, char **argv)
{
  sweep_options o{11, 13, 5, false};
  bool both = true, sweep = false;
  std::vector<long long> trsm_sizes = {4096, 8192}, trsm_nbs = {0}, state_rows;
  const char *csv = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--data") {
      const std::string v = option_value(argc, argv, i);
      both = v == "both";
      o.wide = v == "wide";
    } else if (a == "--trsm") {
      trsm_sizes = parse_list(option_value(argc, argv, i));
    } else if (a == "--trsm-nb") {
      trsm_nbs = parse_list(option_value(argc, argv, i));
    } else if (a == "--state") {
      state_rows = parse_list(option_value(argc, argv, i));
    } else if (a == "--cfg-sweep") sweep = true;
    else if (a == "--csv") csv = option_value(argc, argv, i);
    else if (!take_sweep_option(argc, argv, i, o)) {
      std::fprintf(stderr, "usage: cuda_gemm_bench [--min-log K] [--max-log K] [--reps R] [--data uniform|wide|both] "
                           "[--trsm N1,N2] [--trsm-nb B1,B2] [--state M1,M2] [--cfg-sweep] [--csv FILE]\n");
      return 2;
    }
  }
  if (csv && !(g_csv = std::fopen(csv, "w"))) {
    std::fprintf(stderr, "cannot write %s\n", csv);
    return 1;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "# device %s (%d SMs)\n", prop.name, prop.multiProcessorCount);
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  CHECK_CUBLAS(cublasSetStream(h, s));
  const char *header = "op,n,data,implementation,config,seconds,tflops_effective,ratio_to_cublas,repaired_fraction\n";
  std::fputs(header, stdout);
  if (g_csv) std::fputs(header, g_csv);
  std::vector<bool> kinds;
  if (both) kinds = {false, true};
  else kinds = {o.wide};
  int status = 0;
  for (bool wide : kinds) { // bit check against the CPU kernel
    const int n = 512;
    std::vector<double> A = data((size_t)n * n, wide, 1), B = data((size_t)n * n, wide, 2), C((size_t)n * n),
                        G((size_t)n * n);
    exstar_cpu_dgemm('N', 'N', n, n, n, 1.0, A.data(), 0, n, B.data(), 0, n, 0.0, C.data(), 0, n, 0);
    dbuf dA(A.size()), dB(B.size()), dC(C.size());
    CHECK_CUDA(cudaMemcpy(dA.p, A.data(), A.size() * 8, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB.p, B.data(), B.size() * 8, cudaMemcpyHostToDevice));
    for (int cfg = 0; cfg < (sweep ? 3 : 1); ++cfg) {
      if (sweep) setenv("EXSTAR_CUDA_GEMM_CFG", std::to_string(cfg).c_str(), 1);
      CHECK_EXSTAR(exstar_cuda_dgemm('N', 'N', n, n, n, 1.0, dA.p, 0, n, dB.p, 0, n, 0.0, dC.p, 0, n, 0, nullptr, s));
      CHECK_CUDA(cudaStreamSynchronize(s));
      CHECK_CUDA(cudaMemcpy(G.data(), dC.p, G.size() * 8, cudaMemcpyDeviceToHost));
      const bool same = std::memcmp(G.data(), C.data(), G.size() * 8) == 0;
      std::fprintf(stderr, "# bit check 512^3 (%s, config %d) against the CPU kernel: %s\n", wide ? "wide" : "uniform",
                   current_cfg(), same ? "PASS" : "FAIL");
      status |= !same;
    }
  }
  const double one = 1.0, zero = 0.0;
  if (sweep) { // the fast kernel's configurations at the largest size, uniform data
    const int64_t n = int64_t(1) << o.max_log;
    const size_t nn = (size_t)(n * n);
    std::vector<double> A = data(nn, false, 3), B = data(nn, false, 4);
    dbuf dA(nn), dB(nn), dC(nn);
    CHECK_CUDA(cudaMemcpy(dA.p, A.data(), nn * 8, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB.p, B.data(), nn * 8, cudaMemcpyHostToDevice));
    int best = 0;
    double tbest = 1e30;
    for (int cfg = 0; cfg < 3; ++cfg) {
      setenv("EXSTAR_CUDA_GEMM_CFG", std::to_string(cfg).c_str(), 1);
      const double t = time_stream(s, 3, nullptr, [&] {
        CHECK_EXSTAR(exstar_cuda_dgemm('N', 'N', n, n, n, 1.0, dA.p, 0, n, dB.p, 0, n, 0.0, dC.p, 0, n, 0, nullptr, s));
      });
      std::fprintf(stderr, "# config %d: n=%lld %.3f ms, %.3f TFLOP/s effective\n", cfg, (long long)n, t * 1e3,
                   2.0 * n * n * n / t / 1e12);
      row("gemm-config", n, "uniform", "exstar-kernels", cfg, t, 2.0 * n * n * n, 0.0, 0.0);
      if (t < tbest) tbest = t, best = cfg;
    }
    setenv("EXSTAR_CUDA_GEMM_CFG", std::to_string(best).c_str(), 1);
    std::fprintf(stderr, "# using config %d\n", best);
  }
  for (bool wide : kinds)
    for (int lg = o.min_log; lg <= o.max_log; ++lg) {
      const int64_t n = int64_t(1) << lg;
      const size_t nn = (size_t)(n * n);
      std::vector<double> A = data(nn, wide, 3), B = data(nn, wide, 4);
      dbuf dA(nn), dB(nn), dC(nn);
      unsigned long long *dr;
      CHECK_CUDA(cudaMalloc(&dr, 8));
      CHECK_CUDA(cudaMemcpy(dA.p, A.data(), nn * 8, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dB.p, B.data(), nn * 8, cudaMemcpyHostToDevice));
      const double flops = 2.0 * (double)n * (double)n * (double)n;
      const int ni = (int)n;
      const double tc = time_stream(s, o.reps, nullptr, [&] {
        CHECK_CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, dA.p, ni, dB.p, ni, &zero, dC.p, ni));
      });
      const double te = time_stream(s, o.reps, [&] { CHECK_CUDA(cudaMemsetAsync(dr, 0, 8, s)); }, [&] {
        CHECK_EXSTAR(exstar_cuda_dgemm('N', 'N', n, n, n, 1.0, dA.p, 0, n, dB.p, 0, n, 0.0, dC.p, 0, n, 0, dr, s));
      });
      unsigned long long rep = 0;
      CHECK_CUDA(cudaMemcpy(&rep, dr, 8, cudaMemcpyDeviceToHost));
      const double frac = (double)rep / (double)(n * n);
      const char *kind = wide ? "wide" : "uniform";
      row("gemm", n, kind, "cublas", -1, tc, flops, 1.0, 0.0);
      row("gemm", n, kind, "exstar-kernels", current_cfg(), te, flops, te / tc, frac);
      std::fprintf(stderr, "# gemm n=%lld %s: exact %.3f ms (%.2f TFLOP/s effective), cublasDgemm %.3f ms (%.2f TFLOP/s): "
                           "ratio %.2fx; %llu of %lld entries repaired (%.2e)\n",
                   (long long)n, kind, te * 1e3, flops / te / 1e12, tc * 1e3, flops / tc / 1e12, te / tc, rep,
                   (long long)(n * n), frac);
      cudaFree(dr);
    }
  for (long long m : state_rows) { // the LU's update of a block column
    const int64_t nb = 512;
    std::vector<double> L = data((size_t)(m * nb), false, 7), U = data((size_t)(nb * nb), false, 8);
    dbuf dL(L.size()), dU(U.size()), dC((size_t)(m * nb));
    void *st = nullptr;
    CHECK_CUDA(cudaMalloc(&st, (size_t)(m * nb) * 32));
    CHECK_CUDA(cudaMemcpy(dL.p, L.data(), L.size() * 8, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dU.p, U.data(), U.size() * 8, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dC.p, 0, (size_t)(m * nb) * 8));
    CHECK_EXSTAR(exstar_cuda_gemm_state_init(m, nb, dC.p, 0, m, st, 0, m, s));
    const int mi = (int)m, ni = (int)nb;
    const double flops = 2.0 * (double)m * nb * nb;
    const double tc = time_stream(s, o.reps, nullptr, [&] {
      CHECK_CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, mi, ni, ni, &one, dL.p, mi, dU.p, ni, &zero, dC.p, mi));
    });
    row("state", m, "uniform", "cublas", -1, tc, flops, 1.0, 0.0);
    for (int crt = 0; crt < 2; ++crt) {
      setenv("EXSTAR_CUDA_GEMM_CRT", crt ? "1" : "0", 1);
      const double te = time_stream(s, o.reps, nullptr, [&] {
        CHECK_EXSTAR(exstar_cuda_gemm_state_add('N', 'N', m, nb, nb, -1.0, dL.p, 0, m, dU.p, 0, nb, st, 0, m, s));
      });
      row("state", m, "uniform", crt ? "exstar-crt" : "exstar-fp64", -1, te, flops, te / tc, 0.0);
      std::fprintf(stderr, "# state m=%lld x 512 x 512 %s: %.3f ms (%.2f TFLOP/s effective), cublasDgemm %.3f ms\n", m,
                   crt ? "integer path" : "FP64 kernel", te * 1e3, flops / te / 1e12, tc * 1e3);
    }
    unsetenv("EXSTAR_CUDA_GEMM_CRT");
    cudaFree(st);
  }
  for (long long n : trsm_sizes) { // trsm, lower, no transpose, non-unit, a dominant diagonal
    const size_t nn = (size_t)(n * n);
    std::vector<double> T = data(nn, false, 5), B = data(nn, false, 6);
    for (long long j = 0; j < n; ++j)
      for (long long i = 0; i < n; ++i) T[i + j * n] = i < j ? 0.0 : i == j ? 2.0 + T[i + j * n] : T[i + j * n] / n;
    dbuf dT(nn), dB(nn), dX(nn);
    unsigned long long *dr;
    CHECK_CUDA(cudaMalloc(&dr, 8));
    CHECK_CUDA(cudaMemcpy(dT.p, T.data(), nn * 8, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB.p, B.data(), nn * 8, cudaMemcpyHostToDevice));
    const int ni = (int)n;
    const int reps = n > 4096 ? 3 : o.reps;
    auto reset = [&] {
      CHECK_CUDA(cudaMemcpyAsync(dX.p, dB.p, nn * 8, cudaMemcpyDeviceToDevice, s));
      CHECK_CUDA(cudaMemsetAsync(dr, 0, 8, s));
    };
    const double tt = time_stream(s, reps, reset, [&] {
      CHECK_CUBLAS(cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, ni, ni,
                               &one, dT.p, ni, dX.p, ni));
    });
    row("trsm", n, "uniform", "cublas", -1, tt, (double)n * n * n, 1.0, 0.0);
    for (long long nb : trsm_nbs) {
      if (nb > 0) setenv("EXSTAR_CUDA_TRSM_NB", std::to_string(nb).c_str(), 1);
      const double tx = time_stream(s, reps, reset, [&] {
        CHECK_EXSTAR(exstar_cuda_dtrsm('L', 'L', 'N', 'N', n, n, 1.0, dT.p, 0, n, dX.p, 0, n, 0, dr, s));
      });
      unsigned long long rep = 0;
      CHECK_CUDA(cudaMemcpy(&rep, dr, 8, cudaMemcpyDeviceToHost));
      const double flops = (double)n * (double)n * (double)n, frac = (double)rep / (double)nn;
      row("trsm", n, "uniform", "exstar-kernels", nb > 0 ? (int)nb : 128, tx, flops, tx / tt, frac);
      std::fprintf(stderr, "# trsm n=%lld nb=%lld: exact %.3f ms (%.2f TFLOP/s effective), cublasDtrsm %.3f ms: ratio "
                           "%.1fx; %llu rows repaired (%.2e)\n",
                   n, nb > 0 ? nb : 128, tx * 1e3, flops / tx / 1e12, tt * 1e3, tx / tt, rep, frac);
    }
    cudaFree(dr);
  }
  if (g_csv) std::fclose(g_csv);
  cublasDestroy(h);
  cudaStreamDestroy(s);
  return status;
}
