// The CUDA Level-3 kernels against the CPU kernels, bit for bit: gemm on every input class,
// transpose, alpha/beta and shape (the fast path and the forced exact path), the state, trsm in
// all 16 variants. Exits 77 ("SKIP: no CUDA device") where there is no usable device.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>
#include <cstdio>
#include <cstring>
#include "tests/level3/level3_cases.hpp"
#include "kernels_cpu/gemm.h"
#include "kernels_cuda/gemm.h"

using namespace exstar_test;

namespace {

struct dev {
  void *p = nullptr;
  explicit dev(size_t bytes) { REQUIRE(cudaMalloc(&p, bytes ? bytes : 8) == cudaSuccess); }
  ~dev() { cudaFree(p); }
  dev(const dev &) = delete;
  dev &operator=(const dev &) = delete;
};

template <class T>
void put(dev &d, const std::vector<T> &v)
{
  if (!v.empty()) REQUIRE(cudaMemcpy(d.p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
}
template <class T>
void get(std::vector<T> &v, const dev &d)
{
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  if (!v.empty()) REQUIRE(cudaMemcpy(v.data(), d.p, v.size() * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
}

void same(const std::vector<double> &a, const std::vector<double> &b, const std::string &what)
{
  REQUIRE(a.size() == b.size());
  size_t bad = 0;
  for (size_t x = 0; x < a.size(); ++x) bad += !same_bits(a[x], b[x]);
  INFO(what << ": " << bad << " entries differ");
  CHECK(bad == 0);
}

const std::vector<gemm_case> &gcases()
{
  static const std::vector<gemm_case> cs = gemm_cases();
  return cs;
}

} // namespace

TEST_CASE("CUDA gemm: the CPU kernel's bits, fast and exact paths", "[cuda][gemm]")
{
  for (const gemm_case &c : gcases())
    for (int exact : {0, 1}) {
      std::vector<double> cpu = c.C, gpu = c.C;
      exstar_cpu_dgemm(c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A.data(), 0, c.lda, c.B.data(), 0, c.ldb, c.beta,
                       cpu.data(), 0, c.ldc, 0);
      dev dA(c.A.size() * 8), dB(c.B.size() * 8), dC(c.C.size() * 8);
      put(dA, c.A), put(dB, c.B), put(dC, c.C);
      REQUIRE(exstar_cuda_dgemm(c.transa, c.transb, c.m, c.n, c.k, c.alpha, (double *)dA.p, 0, c.lda, (double *)dB.p, 0,
                                c.ldb, c.beta, (double *)dC.p, 0, c.ldc, exact, nullptr, nullptr) == 0);
      get(gpu, dC);
      same(gpu, cpu, c.name + (exact ? " (exact path)" : ""));
    }
}

TEST_CASE("CUDA gemm: large uniform products take the fast path", "[cuda][gemm]")
{
  Rng rng(8);
  const int n = 300;
  const value_gen uni = [](int q, Rng &r) { return gen_uniform(q, r); };
  int lda, ldb;
  std::vector<double> A = stored_matrix(n, n, 0, uni, rng, &lda), B = stored_matrix(n, n, 0, uni, rng, &ldb);
  std::vector<double> cpu((size_t)n * n), gpu((size_t)n * n);
  exstar_cpu_dgemm('N', 'T', n, n, n, 1.0, A.data(), 0, n, B.data(), 0, n, 0.0, cpu.data(), 0, n, 0);
  dev dA(A.size() * 8), dB(B.size() * 8), dC(gpu.size() * 8), dr(8);
  put(dA, A), put(dB, B);
  REQUIRE(cudaMemset(dr.p, 0, 8) == cudaSuccess);
  REQUIRE(exstar_cuda_dgemm('N', 'T', n, n, n, 1.0, (double *)dA.p, 0, n, (double *)dB.p, 0, n, 0.0, (double *)dC.p, 0,
                            n, 0, (unsigned long long *)dr.p, nullptr) == 0);
  get(gpu, dC);
  std::vector<unsigned long long> rep(1);
  get(rep, dr);
  same(gpu, cpu, "300 x 300 x 300");
  CHECK(rep[0] <= (unsigned long long)(n * n / 1000));
}

TEST_CASE("CUDA state: init, add in pieces, round equal the CPU kernels", "[cuda][state]")
{
  for (const gemm_case &c : gcases()) {
    if (c.m == 0 || c.n == 0 || c.k < 3) continue;
    const size_t mn = (size_t)c.m * c.n;
    std::vector<double> C0(mn);
    for (int j = 0; j < c.n; ++j)
      for (int i = 0; i < c.m; ++i) C0[(size_t)i + (size_t)j * c.m] = c.beta != 0.0 ? c.C[(size_t)i + (size_t)j * c.ldc] : 0.5;
    std::vector<exstar_gemm_state_entry> st(mn);
    exstar_cpu_gemm_state_init(c.m, c.n, C0.data(), 0, c.m, st.data(), 0, c.m);
    dev dA(c.A.size() * 8), dB(c.B.size() * 8), dC(mn * 8), dS(mn * 32), dM(mn);
    put(dA, c.A), put(dB, c.B), put(dC, C0);
    REQUIRE(exstar_cuda_gemm_state_init(c.m, c.n, (double *)dC.p, 0, c.m, dS.p, 0, c.m, nullptr) == 0);
    const int cuts[] = {0, c.k / 3, c.k};
    for (int p = 0; p < 2; ++p) {
      const int l0 = cuts[p], len = cuts[p + 1] - cuts[p];
      const int64_t oa = c.transa == 'N' ? (int64_t)l0 * c.lda : l0, ob = c.transb == 'N' ? l0 : (int64_t)l0 * c.ldb;
      exstar_cpu_gemm_state_add(c.transa, c.transb, c.m, c.n, len, -1.0, c.A.data(), oa, c.lda, c.B.data(), ob, c.ldb,
                                st.data(), 0, c.m);
      REQUIRE(exstar_cuda_gemm_state_add(c.transa, c.transb, c.m, c.n, len, -1.0, (double *)dA.p, oa, c.lda,
                                         (double *)dB.p, ob, c.ldb, dS.p, 0, c.m, nullptr) == 0);
    }
    std::vector<double> cpu = C0, gpu = C0;
    std::vector<unsigned char> mc(mn), mg(mn);
    exstar_cpu_gemm_state_round(c.m, c.n, st.data(), 0, c.m, cpu.data(), 0, c.m, mc.data());
    REQUIRE(exstar_cuda_gemm_state_round(c.m, c.n, dS.p, 0, c.m, (double *)dC.p, 0, c.m, (unsigned char *)dM.p, nullptr,
                                         nullptr) == 0);
    get(gpu, dC);
    get(mg, dM);
    // a rounding either side proves is RN(exact): where both proved it, the same bits
    size_t bad = 0;
    for (size_t x = 0; x < mn; ++x) bad += !mc[x] && !mg[x] && !same_bits(cpu[x], gpu[x]);
    INFO(c.name);
    CHECK(bad == 0);
  }
}

TEST_CASE("CUDA trsm: the CPU kernel's bits in all 16 variants", "[cuda][trsm]")
{
  for (const trsm_case &c : trsm_cases())
    for (int exact : {0, 1}) {
      std::vector<double> cpu = c.B, gpu = c.B;
      exstar_cpu_dtrsm(c.side, c.uplo, c.transa, c.diag, c.m, c.n, c.alpha, c.T.data(), 0, c.ldt, cpu.data(), 0, c.ldb,
                       0);
      dev dT(c.T.size() * 8), dB(c.B.size() * 8);
      put(dT, c.T), put(dB, c.B);
      REQUIRE(exstar_cuda_dtrsm(c.side, c.uplo, c.transa, c.diag, c.m, c.n, c.alpha, (double *)dT.p, 0, c.ldt,
                                (double *)dB.p, 0, c.ldb, exact, nullptr, nullptr) == 0);
      get(gpu, dB);
      same(gpu, cpu, c.name + (exact ? " (exact path)" : ""));
    }
}

int main(int argc, char **argv)
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIP: no CUDA device\n");
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
