// The CUDA Level-3 kernels against the CPU kernels, bit for bit: gemm on every input class,
// transpose, alpha/beta and shape (the fast path and the forced exact path), the state, trsm in
// all 16 variants. Exits 77 ("SKIP: no CUDA device") where there is no usable device.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

// EXSTAR_CUDA_GEMM_CRT=1: every product through the integer path (its checks differ from the
// FP64 kernel's, its bits do not).
bool crt_forced()
{
  const char *v = std::getenv("EXSTAR_CUDA_GEMM_CRT");
  return v && v[0] == '1';
}

// Sets an environment variable for one scope (the kernels read theirs at every launch).
struct scoped_env {
  std::string name;
  std::string old;
  bool had;
  scoped_env(const char *n, const char *v) : name(n)
  {
    const char *o = std::getenv(n);
    had = o != nullptr;
    if (had) old = o;
    setenv(n, v, 1);
  }
  ~scoped_env() { had ? (void)setenv(name.c_str(), old.c_str(), 1) : (void)unsetenv(name.c_str()); }
};

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
                                st.data(), 0, c.m, 0);
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

// ---- larger shapes: several tiles of the fast kernel, several blocks of trsm ------------------

namespace {

// A column-major rows x cols matrix with ld = rows + extra (padding NaN: never read).
std::vector<double> mat(int rows, int cols, int extra, const value_gen &g, Rng &rng, int *ld)
{
  return stored_matrix(rows, cols, extra, g, rng, ld);
}

struct gemm_run {
  std::vector<double> C;
  unsigned long long repaired = 0;
};

gemm_run run_gpu_gemm(char ta, char tb, int m, int n, int k, double alpha, const std::vector<double> &A, int lda,
                      const std::vector<double> &B, int ldb, double beta, const std::vector<double> &C, int ldc, int exact)
{
  dev dA(A.size() * 8), dB(B.size() * 8), dC(C.size() * 8), dr(8);
  put(dA, A), put(dB, B), put(dC, C);
  REQUIRE(cudaMemset(dr.p, 0, 8) == cudaSuccess);
  REQUIRE(exstar_cuda_dgemm(ta, tb, m, n, k, alpha, (double *)dA.p, 0, lda, (double *)dB.p, 0, ldb, beta, (double *)dC.p,
                            0, ldc, exact, (unsigned long long *)dr.p, nullptr) == 0);
  gemm_run r;
  r.C = C;
  get(r.C, dC);
  std::vector<unsigned long long> rep(1);
  get(rep, dr);
  r.repaired = rep[0];
  return r;
}

} // namespace

TEST_CASE("CUDA gemm: shapes across tiles, every transpose, ld > rows, alpha and beta", "[cuda][gemm][tiles]")
{
  Rng rng(424242);
  const int shapes[][3] = {{130, 67, 65}, {65, 130, 33}, {1, 130, 7}, {130, 1, 200}, {64, 64, 16}, {63, 65, 17}, {7, 33, 1}};
  const double ab[][2] = {{1, 0}, {-1, 1}, {0.5, -1}, {3, 0.5}, {1e300, 3}, {1, 1e300}, {0, 1}, {0, 0}};
  const std::vector<value_class> &classes = level3_classes();
  int q = 0;
  for (const auto &sh : shapes)
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'}) {
        const int m = sh[0], n = sh[1], k = sh[2];
        const value_class &vc = classes[(size_t)q % classes.size()];
        const double alpha = ab[q % 8][0], beta = ab[q % 8][1];
        ++q;
        int lda, ldb, ldc;
        std::vector<double> A = ta == 'T' ? mat(k, m, 3, vc.gen, rng, &lda) : mat(m, k, 3, vc.gen, rng, &lda);
        std::vector<double> B = tb == 'T' ? mat(n, k, 1, vc.gen, rng, &ldb) : mat(k, n, 1, vc.gen, rng, &ldb);
        std::vector<double> C = mat(m, n, 2, [](int c, Rng &r) { return gen_uniform(c, r); }, rng, &ldc);
        const std::string name = vc.name + " " + ta + tb + " " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                                 std::to_string(k) + " alpha " + std::to_string(alpha) + " beta " + std::to_string(beta);
        std::vector<double> cpu = C;
        const int64_t rep_cpu = exstar_cpu_dgemm(ta, tb, m, n, k, alpha, A.data(), 0, lda, B.data(), 0, ldb, beta,
                                                 cpu.data(), 0, ldc, 0);
        const gemm_run fast = run_gpu_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, 0);
        const gemm_run exact = run_gpu_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, 1);
        same(fast.C, cpu, name);
        same(exact.C, cpu, name + " (exact path)");
        INFO(name);
        if (!crt_forced()) CHECK(fast.repaired == (unsigned long long)rep_cpu); // the same sums, the same checks
        CHECK(exact.repaired == (unsigned long long)m * n);
      }
}

TEST_CASE("CUDA gemm: uniform 512^3 takes the fast path for more than 99.9% of the entries", "[cuda][gemm]")
{
  Rng rng(77);
  const int n = 512;
  const value_gen uni = [](int q, Rng &r) { return gen_uniform(q, r); };
  int lda, ldb, ldc;
  std::vector<double> A = mat(n, n, 0, uni, rng, &lda), B = mat(n, n, 0, uni, rng, &ldb), C = mat(n, n, 0, uni, rng, &ldc);
  std::vector<double> cpu = C;
  exstar_cpu_dgemm('N', 'N', n, n, n, 1.0, A.data(), 0, lda, B.data(), 0, ldb, 0.0, cpu.data(), 0, ldc, 0);
  const gemm_run g = run_gpu_gemm('N', 'N', n, n, n, 1.0, A, lda, B, ldb, 0.0, C, ldc, 0);
  same(g.C, cpu, "512^3");
  INFO("repaired " << g.repaired << " of " << n * n);
  CHECK(g.repaired * 1000ull < (unsigned long long)n * n);
}

TEST_CASE("CUDA gemm: more declined entries than the list holds (the mask beyond it)", "[cuda][gemm][overflow]")
{
  // exact zeros decline (their sign needs the exact path): every one of 1500^2 > 2^21 entries
  Rng rng(5);
  const int m = 1500, n = 1500, k = 3;
  std::vector<double> A((size_t)m * k, 0.0), B = gen_uniform(k * n, rng), C((size_t)m * n, 0.0);
  for (size_t x = 0; x < A.size(); x += 7) A[x] = -0.0;
  std::vector<double> cpu = C;
  const int64_t rep_cpu = exstar_cpu_dgemm('N', 'N', m, n, k, 1.0, A.data(), 0, m, B.data(), 0, k, 0.0, cpu.data(), 0, m, 0);
  const gemm_run g = run_gpu_gemm('N', 'N', m, n, k, 1.0, A, m, B, k, 0.0, C, m, 0);
  same(g.C, cpu, "1500 x 1500, all declined");
  CHECK(g.repaired == (unsigned long long)rep_cpu);
  CHECK(rep_cpu == (int64_t)m * n);
}

TEST_CASE("CUDA state: the CPU kernel's states and roundings across tiles", "[cuda][state][tiles]")
{
  Rng rng(99);
  const std::vector<value_class> &classes = level3_classes();
  int q = 0;
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'})
      for (size_t cl = 0; cl < 3; ++cl) {
        const int m = 130, n = 67, k = 90;
        const value_class &vc = classes[cl];
        int lda, ldb, ldc;
        std::vector<double> A = ta == 'T' ? mat(k, m, 2, vc.gen, rng, &lda) : mat(m, k, 2, vc.gen, rng, &lda);
        std::vector<double> B = tb == 'T' ? mat(n, k, 1, vc.gen, rng, &ldb) : mat(k, n, 1, vc.gen, rng, &ldb);
        std::vector<double> C0 = mat(m, n, 0, [](int c, Rng &r) { return gen_uniform(c, r); }, rng, &ldc);
        const size_t mn = (size_t)m * n;
        std::vector<exstar_gemm_state_entry> st(mn);
        exstar_cpu_gemm_state_init(m, n, C0.data(), 0, m, st.data(), 0, m);
        dev dA(A.size() * 8), dB(B.size() * 8), dC(mn * 8), dS(mn * 32), dM(mn), dD(8);
        put(dA, A), put(dB, B), put(dC, C0);
        REQUIRE(cudaMemset(dD.p, 0, 8) == cudaSuccess);
        REQUIRE(exstar_cuda_gemm_state_init(m, n, (double *)dC.p, 0, m, dS.p, 0, m, nullptr) == 0);
        const int cuts[] = {0, 41, k};
        for (int p = 0; p < 2; ++p) {
          const int l0 = cuts[p], len = cuts[p + 1] - cuts[p];
          const int64_t oa = ta == 'N' ? (int64_t)l0 * lda : l0, ob = tb == 'N' ? l0 : (int64_t)l0 * ldb;
          const double sign = p ? 1.0 : -1.0;
          exstar_cpu_gemm_state_add(ta, tb, m, n, len, sign, A.data(), oa, lda, B.data(), ob, ldb, st.data(), 0, m, 0);
          REQUIRE(exstar_cuda_gemm_state_add(ta, tb, m, n, len, sign, (double *)dA.p, oa, lda, (double *)dB.p, ob, ldb,
                                             dS.p, 0, m, nullptr) == 0);
        }
        std::vector<exstar_gemm_state_entry> gst(mn);
        get(gst, dS);
        std::vector<double> cpu = C0, gpu = C0;
        std::vector<unsigned char> mc(mn), mg(mn);
        const int64_t dec = exstar_cpu_gemm_state_round(m, n, st.data(), 0, m, cpu.data(), 0, m, mc.data());
        REQUIRE(exstar_cuda_gemm_state_round(m, n, dS.p, 0, m, (double *)dC.p, 0, m, (unsigned char *)dM.p,
                                             (unsigned long long *)dD.p, nullptr) == 0);
        get(gpu, dC);
        get(mg, dM);
        std::vector<unsigned long long> gd(1);
        get(gd, dD);
        INFO(vc.name << " " << ta << tb);
        // the same terms in the same order per entry: the very same states
        CHECK(std::memcmp(gst.data(), st.data(), mn * sizeof(exstar_gemm_state_entry)) == 0);
        CHECK(mg == mc);
        CHECK(gd[0] == (unsigned long long)dec);
        same(gpu, cpu, vc.name + " state rounding");
        ++q;
      }
}

TEST_CASE("CUDA trsm: several blocks of rows, all 16 variants, fast and exact paths", "[cuda][trsm][blocks]")
{
  Rng rng(31337);
  const value_gen uni = [](int q, Rng &r) { return gen_uniform(q, r); };
  const value_gen small = [](int q, Rng &r) {
    std::vector<double> v = gen_uniform(q, r);
    for (double &x : v) x = std::ldexp(x, -8);
    return v;
  };
  const value_gen wide = [](int q, Rng &r) { return gen_exp_spread(q, -30, -8, r); };
  for (char side : {'L', 'R'})
    for (char uplo : {'L', 'U'})
      for (char ta : {'N', 'T'})
        for (char diag : {'N', 'U'}) {
          const std::string tag = std::string(1, side) + uplo + ta + diag;
          const int N = 300, nrhs = 37;
          for (int w = 0; w < 2; ++w) {
            trsm_case c = make_trsm((w ? "wide " : "uniform ") + tag, side, uplo, ta, diag, side == 'L' ? N : nrhs,
                                    side == 'L' ? nrhs : N, w ? -0.75 : 1.0, w ? wide : small, uni, rng);
            std::vector<double> cpu = c.B;
            exstar_cpu_dtrsm(c.side, c.uplo, c.transa, c.diag, c.m, c.n, c.alpha, c.T.data(), 0, c.ldt, cpu.data(), 0,
                             c.ldb, 0);
            for (int exact : {0, 1}) {
              std::vector<double> gpu = c.B;
              dev dT(c.T.size() * 8), dB(c.B.size() * 8);
              put(dT, c.T), put(dB, c.B);
              REQUIRE(exstar_cuda_dtrsm(c.side, c.uplo, c.transa, c.diag, c.m, c.n, c.alpha, (double *)dT.p, 0, c.ldt,
                                        (double *)dB.p, 0, c.ldb, exact, nullptr, nullptr) == 0);
              get(gpu, dB);
              same(gpu, cpu, c.name + (exact ? " (exact path)" : ""));
            }
          }
        }
}

TEST_CASE("CUDA gemm: the integer path (int8 tensor cores, CRT) gives the CPU kernel's bits", "[cuda][gemm][crt]")
{
  scoped_env on("EXSTAR_CUDA_GEMM_CRT", "1");
  Rng rng(2026112701);
  const value_gen uni = [](int q, Rng &r) { return gen_uniform(q, r); };
  const value_gen mid = [](int q, Rng &r) { return gen_exp_spread(q, -40, 40, r); };
  struct shape {
    int m, n, k;
    const char *chunk; // lines a chunk of C (the kernels' own choice when empty)
  };
  const shape shapes[] = {{520, 512, 700, ""}, {300, 260, 333, "128"}, {70, 9, 65, "128"}, {1, 1, 1, ""}};
  const std::vector<value_class> &classes = level3_classes();
  int q = 0;
  for (const shape &sh : shapes)
    for (size_t cl = 0; cl <= classes.size(); ++cl)
      for (char ta : {'N', 'T'}) {
        if (sh.m > 500 && cl != 0 && cl != classes.size()) continue; // the large one: uniform and 2^-40..2^40
        const char tb = q % 3 == 0 ? 'T' : 'N';
        const value_gen &g = cl == classes.size() ? mid : classes[cl].gen;
        const std::string cname = cl == classes.size() ? "exponents 2^-40..2^40" : classes[cl].name;
        const double alpha = q % 4 == 3 ? -0.75 : 1.0, beta = q % 5 == 4 ? 2.0 : 0.0;
        ++q;
        scoped_env chunk("EXSTAR_CUDA_CRT_CHUNK", sh.chunk);
        int lda, ldb, ldc;
        std::vector<double> A = ta == 'T' ? mat(sh.k, sh.m, 3, g, rng, &lda) : mat(sh.m, sh.k, 3, g, rng, &lda);
        std::vector<double> B = tb == 'T' ? mat(sh.n, sh.k, 1, g, rng, &ldb) : mat(sh.k, sh.n, 1, g, rng, &ldb);
        std::vector<double> C = mat(sh.m, sh.n, 2, uni, rng, &ldc);
        std::vector<double> cpu = C;
        exstar_cpu_dgemm(ta, tb, sh.m, sh.n, sh.k, alpha, A.data(), 0, lda, B.data(), 0, ldb, beta, cpu.data(), 0, ldc, 0);
        const gemm_run g8 = run_gpu_gemm(ta, tb, sh.m, sh.n, sh.k, alpha, A, lda, B, ldb, beta, C, ldc, 0);
        const std::string name = cname + " " + ta + tb + " " + std::to_string(sh.m) + "x" + std::to_string(sh.n) + "x" +
                                 std::to_string(sh.k);
        same(g8.C, cpu, name);
        if (cl == 0 && sh.m * sh.n >= 100000) {
          INFO(name << ": repaired " << g8.repaired);
          CHECK(g8.repaired * 1000ull < (unsigned long long)sh.m * sh.n); // uniform: the integer path proves them
        }
      }
}

TEST_CASE("CUDA state: the integer path's states round to the CPU kernel's bits", "[cuda][state][crt]")
{
  Rng rng(2026112702);
  const std::vector<value_class> &classes = level3_classes();
  for (size_t cl = 0; cl < classes.size(); ++cl) {
    const int m = 300, n = 130, k = 700;
    const char ta = cl % 2 ? 'T' : 'N', tb = 'N';
    int lda, ldb, ldc;
    std::vector<double> A = ta == 'T' ? mat(k, m, 2, classes[cl].gen, rng, &lda) : mat(m, k, 2, classes[cl].gen, rng, &lda);
    std::vector<double> B = mat(k, n, 1, classes[cl].gen, rng, &ldb);
    std::vector<double> C0 = mat(m, n, 0, [](int c, Rng &r) { return gen_uniform(c, r); }, rng, &ldc);
    const size_t mn = (size_t)m * n;
    std::vector<exstar_gemm_state_entry> st(mn);
    exstar_cpu_gemm_state_init(m, n, C0.data(), 0, m, st.data(), 0, m);
    dev dA(A.size() * 8), dB(B.size() * 8), dC(mn * 8), dS(mn * 32), dM(mn);
    put(dA, A), put(dB, B), put(dC, C0);
    REQUIRE(exstar_cuda_gemm_state_init(m, n, (double *)dC.p, 0, m, dS.p, 0, m, nullptr) == 0);
    const int cuts[] = {0, 290, k};
    for (int p = 0; p < 2; ++p) {
      const int l0 = cuts[p], len = cuts[p + 1] - cuts[p];
      const int64_t oa = ta == 'N' ? (int64_t)l0 * lda : l0, ob = l0;
      exstar_cpu_gemm_state_add(ta, tb, m, n, len, -1.0, A.data(), oa, lda, B.data(), ob, ldb, st.data(), 0, m, 0);
      scoped_env on("EXSTAR_CUDA_GEMM_CRT", p ? "1" : "0"); // one piece each way
      REQUIRE(exstar_cuda_gemm_state_add(ta, tb, m, n, len, -1.0, (double *)dA.p, oa, lda, (double *)dB.p, ob, ldb, dS.p,
                                         0, m, nullptr) == 0);
    }
    std::vector<double> cpu = C0, gpu = C0;
    std::vector<unsigned char> mc(mn), mg(mn);
    exstar_cpu_gemm_state_round(m, n, st.data(), 0, m, cpu.data(), 0, m, mc.data());
    REQUIRE(exstar_cuda_gemm_state_round(m, n, dS.p, 0, m, (double *)dC.p, 0, m, (unsigned char *)dM.p, nullptr,
                                         nullptr) == 0);
    get(gpu, dC);
    get(mg, dM);
    size_t bad = 0, gpu_declined = 0;
    for (size_t x = 0; x < mn; ++x) bad += !mc[x] && !mg[x] && !same_bits(cpu[x], gpu[x]), gpu_declined += mg[x];
    INFO(classes[cl].name << ": " << gpu_declined << " declined");
    CHECK(bad == 0);
    if (cl == 0) CHECK(gpu_declined * 1000 < mn);
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
