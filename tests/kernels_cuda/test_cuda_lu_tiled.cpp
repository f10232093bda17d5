// The CUDA kernels of the tiled exact LU (panel, U block row, interchanges) and of the tiled exact
// Cholesky (diagonal tile, tile below it) against the CPU kernels, bit for bit, at every step of
// a whole factorization: the right-looking sequence is
// driven on the host with the CPU kernels, and before each panel, U block row and interchange
// the same input (tiles and states) is also handed to the CUDA kernel, whose tiles and pivots
// must equal the CPU kernel's. Inputs that decline (wide exponents, NaN/inf, exact zeros,
// forced exact path) included. Exits 77 ("SKIP: no CUDA device") where there is no device.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>
#include <cublas_v2.h>
#include <cmath>
#include <cstdio>
#include <string>
#include <algorithm>
#include <cstdlib>
#include <vector>
#include "tests/cases.hpp"
#include "tests/chol_cases.hpp"
#include "kernels_cpu/gemm.h"
#include "kernels_cpu/lu_tiled.h"
#include "kernels_cuda/lu_tiled.h"
#include "kernels_cuda/lu.h"
#include "kernels_cpu/potrf_tiled.h"
#include "kernels_cuda/potrf_tiled.h"
#include "kernels_cuda/gemm.h"

using namespace exstar_test;

namespace {

using state = exstar_gemm_state_entry;

// A matrix as tiles on the host (ld = rows + 2) with a state per tile, all tiles in one buffer
// (and all states in another), and a device mirror of both.
struct tiled {
  int64_t m, n, nb, mt, nt;
  std::vector<double> abuf;
  std::vector<state> sbuf;
  std::vector<size_t> aoff, soff;
  std::vector<int64_t> lda, ldst;
  std::vector<double *> ha, da;
  std::vector<state *> hst, dst;
  double *dabuf = nullptr;
  state *dsbuf = nullptr;
  tiled(int64_t m_, int64_t n_, int64_t nb_, const std::vector<double> &A)
      : m(m_), n(n_), nb(nb_), mt((m_ + nb_ - 1) / nb_), nt((n_ + nb_ - 1) / nb_)
  {
    const size_t t = (size_t)(mt * nt);
    aoff.resize(t), soff.resize(t), lda.resize(t), ldst.resize(t), ha.resize(t), da.resize(t), hst.resize(t), dst.resize(t);
    size_t na = 0, ns = 0;
    for (int64_t J = 0; J < nt; ++J)
      for (int64_t I = 0; I < mt; ++I) {
        const size_t x = (size_t)(I + J * mt);
        lda[x] = rows(I) + 2, ldst[x] = rows(I) + 1;
        aoff[x] = na, soff[x] = ns;
        na += (size_t)(lda[x] * cols(J)), ns += (size_t)(ldst[x] * cols(J));
      }
    abuf.assign(na, std::nan("")), sbuf.resize(ns);
    REQUIRE(cudaMalloc((void **)&dabuf, na * sizeof(double)) == cudaSuccess);
    REQUIRE(cudaMalloc((void **)&dsbuf, ns * sizeof(state)) == cudaSuccess);
    for (int64_t J = 0; J < nt; ++J)
      for (int64_t I = 0; I < mt; ++I) {
        const size_t x = (size_t)(I + J * mt);
        ha[x] = abuf.data() + aoff[x], hst[x] = sbuf.data() + soff[x];
        da[x] = dabuf + aoff[x], dst[x] = dsbuf + soff[x];
        for (int64_t j = 0; j < cols(J); ++j)
          for (int64_t i = 0; i < rows(I); ++i) ha[x][i + j * lda[x]] = A[(size_t)(I * nb + i + (J * nb + j) * m)];
        exstar_cpu_gemm_state_init(rows(I), cols(J), ha[x], 0, lda[x], hst[x], 0, ldst[x]);
      }
  }
  ~tiled() { cudaFree(dabuf), cudaFree(dsbuf); }
  tiled(const tiled &) = delete;
  tiled &operator=(const tiled &) = delete;
  int64_t rows(int64_t I) const { return std::min(nb, m - I * nb); }
  int64_t cols(int64_t J) const { return std::min(nb, n - J * nb); }
  exstar_tile_view host() const
  {
    return exstar_tile_view{m, n, nb, mt, nt, ha.data(), lda.data(), hst.data(), ldst.data(), nullptr, nullptr, nullptr};
  }
  exstar_cuda_tiles dev() const
  {
    return exstar_cuda_tiles{m, n, nb, mt, nt, da.data(), lda.data(), (void *const *)dst.data(), ldst.data(),
                             nullptr, nullptr, nullptr};
  }
  void upload() const
  {
    REQUIRE(cudaMemcpy(dabuf, abuf.data(), abuf.size() * sizeof(double), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemcpy(dsbuf, sbuf.data(), sbuf.size() * sizeof(state), cudaMemcpyHostToDevice) == cudaSuccess);
  }
  // The device tiles against the host's: the number of entries whose bits differ.
  int64_t differ() const
  {
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<double> d(abuf.size());
    REQUIRE(cudaMemcpy(d.data(), dabuf, d.size() * sizeof(double), cudaMemcpyDeviceToHost) == cudaSuccess);
    int64_t bad = 0;
    for (size_t q = 0; q < d.size(); ++q) bad += !same_bits(d[q], abuf[q]);
    return bad;
  }
};

struct counts {
  int64_t cpu_repaired = 0;
  unsigned long long gpu_repaired = 0;
};

// The whole factorization on the host, every panel, U block row and interchange also on the GPU.
void check_factorization(const std::string &name, int64_t m, int64_t n, int64_t nb, const std::vector<double> &A,
                         int exact_only, counts &cnt)
{
  INFO(name << ", " << m << " x " << n << ", nb " << nb << (exact_only ? ", exact only" : ""));
  tiled t(m, n, nb, A);
  const exstar_tile_view hv = t.host();
  const exstar_cuda_tiles dv = t.dev();
  const int64_t kt = (std::min(m, n) + nb - 1) / nb;
  int32_t *dipiv;
  unsigned long long *drep;
  REQUIRE(cudaMalloc((void **)&dipiv, (size_t)nb * sizeof(int32_t)) == cudaSuccess);
  REQUIRE(cudaMalloc((void **)&drep, sizeof(unsigned long long)) == cudaSuccess);
  REQUIRE(cudaMemset(drep, 0, sizeof(unsigned long long)) == cudaSuccess);
  std::vector<int32_t> ipiv((size_t)nb), gpiv((size_t)nb);
  for (int64_t K = 0; K < kt; ++K) {
    const int64_t npiv = std::min(std::min(m, n), K * nb + nb) - K * nb;
    t.upload();
    // every other panel on a third of the multiprocessors (beside other kernels): the same bits
    REQUIRE(exstar_cuda_lu_panel(&dv, K, dipiv, exact_only, (int)(K % 2), drep, nullptr) == 0);
    int64_t info;
    cnt.cpu_repaired += exstar_cpu_lu_panel(&hv, K, ipiv.data(), &info, exact_only);
    {
      INFO("panel " << K);
      CHECK(t.differ() == 0);
      REQUIRE(cudaMemcpy(gpiv.data(), dipiv, (size_t)npiv * sizeof(int32_t), cudaMemcpyDeviceToHost) == cudaSuccess);
      for (int64_t q = 0; q < npiv; ++q) CHECK(gpiv[(size_t)q] == ipiv[(size_t)q]);
    }
    for (int64_t J = 0; J < t.nt; ++J) {
      if (J == K) continue;
      t.upload();
      REQUIRE(exstar_cuda_lu_laswp_tiles(&dv, K, J, dipiv, nullptr) == 0);
      exstar_cpu_lu_laswp(&hv, K, J, ipiv.data());
      INFO("laswp " << K << ", " << J);
      CHECK(t.differ() == 0);
    }
    for (int64_t J = K + 1; J < t.nt; ++J) {
      t.upload();
      REQUIRE(exstar_cuda_lu_urow(&dv, K, J, exact_only, drep, nullptr) == 0);
      cnt.cpu_repaired += exstar_cpu_lu_urow(&hv, K, J, exact_only);
      INFO("urow " << K << ", " << J);
      CHECK(t.differ() == 0);
    }
    for (int64_t J = K + 1; J < t.nt; ++J)
      for (int64_t I = K + 1; I < t.mt; ++I) {
        const size_t l = (size_t)(I + K * t.mt), u = (size_t)(K + J * t.mt), c = (size_t)(I + J * t.mt);
        exstar_cpu_gemm_state_add('N', 'N', t.rows(I), t.cols(J), npiv, -1.0, t.ha[l], 0, t.lda[l], t.ha[u], 0,
                                  t.lda[u], t.hst[c], 0, t.ldst[c], 0);
      }
  }
  unsigned long long r = 0;
  REQUIRE(cudaMemcpy(&r, drep, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess);
  cnt.gpu_repaired += r;
  cudaFree(dipiv), cudaFree(drep);
}

struct problem {
  std::string name;
  int64_t m, n;
  std::vector<double> A;
};

std::vector<problem> problems()
{
  Rng rng(20261124);
  std::vector<problem> ps;
  ps.push_back({"uniform", 40, 40, gen_uniform(1600, rng)});
  ps.push_back({"exponents -3..3 (m > n)", 37, 29, gen_exp_spread(37 * 29, -3, 3, rng)});
  ps.push_back({"uniform (m < n)", 23, 41, gen_uniform(23 * 41, rng)});
  ps.push_back({"wide exponents -300..300", 45, 45, gen_exp_spread(45 * 45, -300, 300, rng)});
  ps.push_back({"wide exponents -1000..1000 (m > n)", 50, 33, gen_exp_spread(50 * 33, -1000, 1000, rng)});
  { // ill-conditioned columns: the ORO dots' x and y side by side
    std::vector<double> d = gen_uniform(30 * 30, rng);
    for (int c = 0; c + 1 < 30; c += 2) {
      DotProblem q = gen_dot_cond(30, 1e30, rng);
      for (int i = 0; i < 30; ++i) d[i + (size_t)c * 30] = q.x[(size_t)i], d[i + (size_t)(c + 1) * 30] = q.y[(size_t)i];
    }
    ps.push_back({"cond 1e30", 30, 30, d});
  }
  { // exactly singular: column 5 = column 2 + column 3 in integers
    std::vector<double> d(30 * 30);
    for (double &x : d) x = (double)(int)(rand_below(rng, 17)) - 8.0;
    for (int i = 0; i < 30; ++i) d[i + 5 * 30] = d[i + 2 * 30] + d[i + 3 * 30];
    ps.push_back({"singular", 30, 30, d});
  }
  { // NaN and inf inside
    std::vector<double> d = gen_uniform(26 * 26, rng);
    d[3 + 7 * 26] = std::nan("");
    d[20 + 4 * 26] = INFINITY;
    ps.push_back({"NaN and inf", 26, 26, d});
  }
  ps.push_back({"uniform, several blocks of rows", 600, 300, gen_uniform(600 * 300, rng)});
  return ps;
}

// The tiled Cholesky on the host (the lower tiles, a state per tile), every diagonal tile and
// tile below it also on the GPU from the same input: tiles and root flags must be the CPU's.
void check_cholesky(const std::string &name, int64_t n, int64_t nb, const std::vector<double> &A, int exact_only,
                    counts &cnt)
{
  INFO(name << ", n " << n << ", nb " << nb << (exact_only ? ", exact only" : ""));
  tiled t(n, n, nb, A);
  const exstar_tile_view hv = t.host();
  const exstar_cuda_tiles dv = t.dev();
  int32_t *dfail;
  unsigned long long *drep;
  REQUIRE(cudaMalloc((void **)&dfail, (size_t)nb * sizeof(int32_t)) == cudaSuccess);
  REQUIRE(cudaMalloc((void **)&drep, sizeof(unsigned long long)) == cudaSuccess);
  REQUIRE(cudaMemset(drep, 0, sizeof(unsigned long long)) == cudaSuccess);
  std::vector<int32_t> fail((size_t)nb), gfail((size_t)nb);
  for (int64_t K = 0; K < t.nt; ++K) {
    for (int64_t I = K; I < t.mt; ++I) {
      t.upload();
      REQUIRE(exstar_cuda_potrf_panel(&dv, K, I, I + 1, dfail, exact_only, drep, nullptr) == 0);
      cnt.cpu_repaired += exstar_cpu_potrf_panel(&hv, K, I, I + 1, fail.data(), exact_only);
      INFO((I == K ? "diagonal tile " : "tile below, row ") << I << ", panel " << K);
      CHECK(t.differ() == 0);
      if (I == K) {
        REQUIRE(cudaMemcpy(gfail.data(), dfail, (size_t)t.cols(K) * sizeof(int32_t), cudaMemcpyDeviceToHost) ==
                cudaSuccess);
        for (int64_t q = 0; q < t.cols(K); ++q) CHECK(gfail[(size_t)q] == fail[(size_t)q]);
      }
    }
    for (int64_t J = K + 1; J < t.nt; ++J)
      for (int64_t I = J; I < t.mt; ++I) {
        const size_t l = (size_t)(I + K * t.mt), u = (size_t)(J + K * t.mt), c = (size_t)(I + J * t.mt);
        exstar_cpu_gemm_state_add('N', 'T', t.rows(I), t.rows(J), t.cols(K), -1.0, t.ha[l], 0, t.lda[l], t.ha[u], 0,
                                  t.lda[u], t.hst[c], 0, t.ldst[c], I == J ? 'L' : 0);
      }
  }
  unsigned long long r = 0;
  REQUIRE(cudaMemcpy(&r, drep, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess);
  cnt.gpu_repaired += r;
  cudaFree(dfail), cudaFree(drep);
}

std::vector<problem> chol_problems()
{
  Rng rng(20261128);
  std::vector<problem> ps;
  auto add = [&](std::string name, int n, std::vector<double> A) {
    ps.push_back({std::move(name), n, n, std::move(A)});
  };
  add("random SPD", 40, random_spd(40, rng));
  add("exact factor, cond > 1e40", 33, from_factor(33, 60, rng));
  add("exactly singular at 17", 30, from_factor(30, 2, rng, 17, -1.0));
  add("barely indefinite at 24", 25, from_factor(25, 2, rng, 24, -1.0 - 0x1p-30));
  add("wide exponents -250..250", 41, scaled(41, random_spd(41, rng), -250, 250, rng));
  add("subnormal range", 20, scaled(20, random_spd(20, rng), -545, -520, rng));
  add("huge, squares overflow", 20, scaled(20, random_spd(20, rng), 480, 500, rng));
  {
    std::vector<double> A = random_spd(26, rng);
    A[5 + 11 * 26] = A[11 + 5 * 26] = std::nan("");
    A[20 + 20 * 26] = INFINITY;
    add("NaN and inf", 26, A);
  }
  {
    std::vector<double> A = random_spd(24, rng);
    for (int i = 0; i < 24; ++i) A[i + 9 * 24] = A[9 + i * 24] = 0.0;
    A[9 + 9 * 24] = -0.0;
    add("a zero row, -0 on the diagonal", 24, A);
  }
  add("random SPD, several tiles", 300, scaled(300, random_spd(300, rng), -20, 20, rng));
  return ps;
}

} // namespace

TEST_CASE("CUDA tiled Cholesky kernels: the CPU kernels' bits at every step", "[cuda][potrf]")
{
  counts all;
  for (const problem &p : chol_problems()) {
    const bool big = p.n > 100;
    for (int64_t nb : {1, 7, 16, 32, 128}) {
      if (nb == 1 && p.n > 30) continue;
      if (big && nb < 32) continue;
      for (int exact : {0, 1}) {
        if (big && exact) continue;
        counts c;
        check_cholesky(p.name, p.n, nb, p.A, exact, c);
        all.cpu_repaired += c.cpu_repaired, all.gpu_repaired += c.gpu_repaired;
      }
    }
  }
  std::printf("Cholesky exact-path entries: CPU %lld, GPU %llu\n", (long long)all.cpu_repaired, all.gpu_repaired);
  CHECK(all.gpu_repaired > 0);
}

TEST_CASE("CUDA tiled LU kernels: the CPU kernels' bits at every step", "[cuda][lu]")
{
  counts all;
  for (const problem &p : problems()) {
    const bool big = p.m * p.n > 20000;
    for (int64_t nb : {1, 7, 16, 32, 128}) {
      if (nb == 1 && p.m * p.n > 1000) continue;
      if (big && nb < 32) continue;
      for (int exact : {0, 1}) {
        if (big && exact) continue;
        counts c;
        check_factorization(p.name, p.m, p.n, nb, p.A, exact, c);
        all.cpu_repaired += c.cpu_repaired, all.gpu_repaired += c.gpu_repaired;
      }
    }
  }
  std::printf("exact-path entries: CPU %lld, GPU %llu\n", (long long)all.cpu_repaired, all.gpu_repaired);
  CHECK(all.gpu_repaired > 0);
}

// A panel of 512 columns is a tree of nodes up to 256 columns wide (lu_panel.cu, walk_phases):
// U rows solved 256 at a time, states taking 16 groups' terms in one pass; 520 leaves a part
// group at the end, and fewer rows than columns in the last panel.
TEST_CASE("CUDA tiled LU kernels: wide panels, the CPU kernels' bits", "[cuda][lu]")
{
  Rng rng(20261127);
  const std::vector<problem> ps = {{"uniform", 700, 560, gen_uniform(700 * 560, rng)},
                                   {"wide exponents -300..300", 560, 600, gen_exp_spread(560 * 600, -300, 300, rng)}};
  counts all;
  for (const problem &p : ps)
    for (int64_t nb : {512, 520})
      for (int exact : {0, 1}) {
        if (exact && nb == 520) continue;
        check_factorization(p.name, p.m, p.n, nb, p.A, exact, all);
      }
  std::printf("wide panels: exact-path entries: CPU %lld, GPU %llu\n", (long long)all.cpu_repaired, all.gpu_repaired);
}

// The load beside a timed panel (EXSTAR_LU_TIME_BESIDE, measurements), EXSTAR_LU_TIME_BESIDE_N
// items (default 24) of: "urow", U block rows of another matrix; "gemm", block-column state
// updates (m x nb x nb, the LU's; the integer path with EXSTAR_CUDA_GEMM_CRT=1); "copy", 1 GiB
// device copies; "int8", cuBLAS's int8 GEMMs alone. Queued on a stream of the least priority
// before the panel starts on one of the greatest, as the LU's streams run them: how much the
// other columns' kernels slow the panel, and which (bench/results/h200-2026-11-29-s10).
struct beside_load {
  std::string kind;
  int n = 24;
  cudaStream_t ps = nullptr, ls = nullptr; // the panel's stream, the load's
  int64_t m = 0, nb = 0;
  tiled *t2 = nullptr;
  double *A = nullptr, *B = nullptr;
  void *st = nullptr;
  int32_t *ipiv = nullptr;
  unsigned long long *rep = nullptr;
  cublasHandle_t blas = nullptr;
  cudaEvent_t l0 = nullptr, l1 = nullptr; // around the queued items
  beside_load(int64_t m_, int64_t nb_) : m(m_), nb(nb_)
  {
    const char *k = std::getenv("EXSTAR_LU_TIME_BESIDE");
    const char *c = std::getenv("EXSTAR_LU_TIME_BESIDE_N");
    kind = k ? k : "";
    if (c && std::atoi(c) > 0) n = std::atoi(c);
    int lo = 0, hi = 0;
    cudaDeviceGetStreamPriorityRange(&lo, &hi);
    cudaStreamCreateWithPriority(&ps, cudaStreamNonBlocking, hi);
    cudaStreamCreateWithPriority(&ls, cudaStreamNonBlocking, lo);
    cudaMalloc((void **)&rep, sizeof(unsigned long long)), cudaMemset(rep, 0, sizeof(unsigned long long));
    Rng rng(5);
    if (kind == "urow") {
      t2 = new tiled(2 * nb, 2 * nb, nb, gen_uniform((int)(4 * nb * nb), rng));
      cudaMalloc((void **)&ipiv, (size_t)nb * sizeof(int32_t));
    } else if (kind == "copy") { // device memory's bandwidth alone: 1 GiB copied an item
      cudaMalloc((void **)&A, (size_t)1 << 30), cudaMalloc((void **)&B, (size_t)1 << 30);
      cudaMemset(A, 0, (size_t)1 << 30);
    } else if (kind == "int8") { // the tensor cores' GEMMs alone, little memory: 26 x (2048 x 1024 x 8192)
      cudaMalloc((void **)&A, (size_t)26 * 2048 * 8192), cudaMalloc((void **)&B, (size_t)26 * 1024 * 8192);
      cudaMalloc(&st, (size_t)26 * 2048 * 1024 * 4);
      cudaMemset(A, 1, (size_t)26 * 2048 * 8192), cudaMemset(B, 1, (size_t)26 * 1024 * 8192);
      cublasCreate(&blas), cublasSetStream(blas, ls);
    } else if (kind == "gemm") {
      const std::vector<double> a = gen_uniform((int)(m * nb), rng), b = gen_uniform((int)(nb * nb), rng);
      cudaMalloc((void **)&A, a.size() * sizeof(double)), cudaMalloc((void **)&B, b.size() * sizeof(double));
      cudaMalloc(&st, (size_t)(m * nb) * sizeof(state));
      cudaMemcpy(A, a.data(), a.size() * sizeof(double), cudaMemcpyHostToDevice);
      cudaMemcpy(B, b.data(), b.size() * sizeof(double), cudaMemcpyHostToDevice);
      cudaMemset(st, 0, (size_t)(m * nb) * sizeof(state));
    }
  }
  ~beside_load()
  {
    delete t2;
    if (blas) cublasDestroy(blas);
    if (l0) cudaEventDestroy(l0), cudaEventDestroy(l1);
    cudaFree(A), cudaFree(B), cudaFree(st), cudaFree(ipiv), cudaFree(rep);
    cudaStreamDestroy(ps), cudaStreamDestroy(ls);
  }
  // Queues the load (after a fresh factored L(0, 0) for the U rows, outside the time), between
  // two events (its own time).
  int queue()
  {
    if (kind.empty()) return 0;
    if (!l0) cudaEventCreate(&l0), cudaEventCreate(&l1);
    const int e = queue_items();
    cudaEventRecord(l1, ls);
    return e;
  }
  // The load alone: its time an item, printed.
  int time_alone()
  {
    if (kind.empty()) return 0;
    for (int rep = 0; rep < 2; ++rep) { // the first warms up (handles, pool)
      if (queue()) return 1;
      cudaStreamSynchronize(ls);
    }
    float x = 0;
    cudaEventElapsedTime(&x, l0, l1);
    std::printf("  load %s alone: %.3f ms an item\n", kind.c_str(), x / n);
    return 0;
  }
  int queue_items()
  {
    if (kind == "urow") {
      t2->upload();
      const exstar_cuda_tiles d2 = t2->dev();
      if (exstar_cuda_lu_panel(&d2, 0, ipiv, 0, 0, rep, ls) || cudaStreamSynchronize(ls) != cudaSuccess) return 1;
      cudaEventRecord(l0, ls);
      for (int q = 0; q < n; ++q)
        if (exstar_cuda_lu_urow(&d2, 0, 1, 0, rep, ls)) return 1;
    } else if (kind == "copy") {
      cudaEventRecord(l0, ls);
      for (int q = 0; q < n; ++q)
        if (cudaMemcpyAsync(B, A, (size_t)1 << 30, cudaMemcpyDeviceToDevice, ls) != cudaSuccess) return 1;
    } else if (kind == "int8") {
      cudaEventRecord(l0, ls);
      const int32_t one = 1, zero = 0;
      for (int q = 0; q < n; ++q)
        if (cublasGemmStridedBatchedEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, 2048, 1024, 8192, &one, A, CUDA_R_8I, 8192,
                                       (int64_t)2048 * 8192, B, CUDA_R_8I, 8192, (int64_t)1024 * 8192, &zero, st,
                                       CUDA_R_32I, 2048, (int64_t)2048 * 1024, 26, CUBLAS_COMPUTE_32I,
                                       CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
          return 1;
    } else if (kind == "gemm") {
      cudaEventRecord(l0, ls);
      for (int q = 0; q < n; ++q)
        if (exstar_cuda_gemm_state_add('N', 'N', m, nb, nb, -1.0, A, 0, m, B, 0, nb, st, 0, m, ls)) return 1;
    }
    return 0;
  }
  // Waits for the load; its time and exact entries (the load must not decline its way to a crawl).
  void finish(const char *what)
  {
    cudaStreamSynchronize(ls);
    unsigned long long r = 0;
    cudaMemcpy(&r, rep, sizeof r, cudaMemcpyDeviceToHost);
    float x = 0;
    if (l0) cudaEventElapsedTime(&x, l0, l1);
    if (!kind.empty() && what)
      std::printf("  beside %s x%d: %.3f ms an item, %llu exact entries in the load\n", kind.c_str(), n, x / n, r);
  }
};

// "[.time]" with EXSTAR_LU_TIME="M NB": the CUDA panel (K = 0, M rows) and one U block row
// (NB x NB), CUDA events, median of 5 after a warm-up (uniform [-1, 1)); not a test. With
// EXSTAR_LU_TIME_BESIDE, the panel beside a load (beside_load).
static int time_kernels(int64_t m, int64_t nb)
{
  beside_load load(m, nb);
  if (load.time_alone()) return 1;
  unsigned long long *drep;
  if (cudaMalloc((void **)&drep, sizeof(unsigned long long)) != cudaSuccess) return 1;
  Rng rng(7);
  const int64_t n = 2 * nb;
  tiled t(m, n, nb, gen_uniform((int)(m * n), rng));
  const exstar_cuda_tiles dv = t.dev();
  int32_t *dipiv;
  if (cudaMalloc((void **)&dipiv, (size_t)nb * sizeof(int32_t)) != cudaSuccess) return 1;
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  for (int what = 0; what < 2; ++what) {
    std::vector<float> ms;
    for (int r = 0; r < 6; ++r) {
      t.upload();
      cudaMemset(drep, 0, sizeof(unsigned long long));
      if (what == 0 && load.queue()) return 1;
      cudaStream_t ps = load.ps;
      cudaEventRecord(a, ps);
      const int s = what == 0 ? exstar_cuda_lu_panel(&dv, 0, dipiv, 0, !load.kind.empty(), drep, ps)
                              : exstar_cuda_lu_urow(&dv, 0, 1, 0, drep, ps);
      cudaEventRecord(b, ps);
      cudaEventSynchronize(b);
      if (what == 0) load.finish(r == 5 ? "last" : nullptr);
      float x = 0;
      cudaEventElapsedTime(&x, a, b);
      if (s != 0) return 1;
      if (r > 0) ms.push_back(x);
    }
    std::sort(ms.begin(), ms.end());
    unsigned long long rep = 0;
    cudaMemcpy(&rep, drep, sizeof rep, cudaMemcpyDeviceToHost);
    std::printf("%s m=%lld nb=%lld: %.3f ms, %llu exact entries\n", what == 0 ? "panel" : "urow", (long long)m,
                (long long)nb, ms[ms.size() / 2], rep);
  }
  { // the trailing update's state gemm on one tile, for comparison
    double *A, *B;
    void *st;
    cudaMalloc((void **)&A, (size_t)(nb * nb) * sizeof(double)), cudaMalloc((void **)&B, (size_t)(nb * nb) * sizeof(double));
    cudaMalloc(&st, (size_t)(nb * nb) * sizeof(state));
    cudaMemcpy(A, t.da[0], (size_t)(nb * nb) * sizeof(double), cudaMemcpyDeviceToDevice);
    cudaMemcpy(B, t.da[0], (size_t)(nb * nb) * sizeof(double), cudaMemcpyDeviceToDevice);
    cudaMemset(st, 0, (size_t)(nb * nb) * sizeof(state));
    std::vector<float> ms;
    for (int r = 0; r < 6; ++r) {
      cudaEventRecord(a, nullptr);
      for (int q = 0; q < 10; ++q)
        if (exstar_cuda_gemm_state_add('N', 'N', nb, nb, nb, -1.0, A, 0, nb, B, 0, nb, st, 0, nb, nullptr)) return 1;
      cudaEventRecord(b, nullptr);
      cudaEventSynchronize(b);
      float x = 0;
      cudaEventElapsedTime(&x, a, b);
      if (r > 0) ms.push_back(x / 10);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("state gemm nb=%lld: %.3f ms\n", (long long)nb, ms[ms.size() / 2]);
    cudaFree(A), cudaFree(B), cudaFree(st);
  }
  cudaFree(dipiv), cudaFree(drep);
  return 0;
}

// "[.timelu]" with EXSTAR_LU_TIME="N NB": the whole right-looking factorization with the CUDA
// kernels on one stream (no StarPU), the time of each kind of step summed (CUDA events); with
// EXSTAR_LU_TIME_STEPS set, each panel step's too. plain: the plain-double baseline's kernels
// (cuSOLVER's panel, cublasDtrsm, cublasDgemm a tile) on the same steps.
static int time_lu(int64_t n, int64_t nb, bool plain)
{
  Rng rng(11);
  tiled t(n, n, nb, gen_uniform((int)(n * n), rng));
  const exstar_cuda_tiles dv = t.dev();
  t.upload();
  int32_t *dipiv;
  unsigned long long *drep;
  cudaMalloc((void **)&dipiv, (size_t)nb * sizeof(int32_t)), cudaMalloc((void **)&drep, sizeof(unsigned long long));
  cudaMemset(drep, 0, sizeof(unsigned long long));
  cudaEvent_t ev[5];
  for (cudaEvent_t &e : ev) cudaEventCreate(&e);
  double sum[4] = {0, 0, 0, 0};
  const int64_t kt = t.nt;
  const bool per_step = std::getenv("EXSTAR_LU_TIME_STEPS") != nullptr;
  for (int64_t K = 0; K < kt; ++K) {
    const int64_t npiv = std::min(nb, n - K * nb);
    cudaEventRecord(ev[0], nullptr);
    if (plain ? exstar_cuda_lu_plain_panel(&dv, K, dipiv, nullptr) : exstar_cuda_lu_panel(&dv, K, dipiv, 0, 0, drep, nullptr))
      return 1;
    cudaEventRecord(ev[1], nullptr);
    for (int64_t J = 0; J < t.nt; ++J)
      if (J != K && exstar_cuda_lu_laswp_tiles(&dv, K, J, dipiv, nullptr)) return 1;
    cudaEventRecord(ev[2], nullptr);
    for (int64_t J = K + 1; J < t.nt; ++J)
      if (plain ? exstar_cuda_lu_plain_urow(&dv, K, J, nullptr) : exstar_cuda_lu_urow(&dv, K, J, 0, drep, nullptr))
        return 1;
    cudaEventRecord(ev[3], nullptr);
    for (int64_t J = K + 1; J < t.nt; ++J)
      for (int64_t I = K + 1; I < t.mt; ++I) {
        const size_t l = (size_t)(I + K * t.mt), u = (size_t)(K + J * t.mt), c = (size_t)(I + J * t.mt);
        if (plain ? exstar_cuda_lu_plain_gemm(t.rows(I), t.cols(J), npiv, t.da[l], t.lda[l], t.da[u], t.lda[u], t.da[c],
                                              t.lda[c], nullptr)
                  : exstar_cuda_gemm_state_add('N', 'N', t.rows(I), t.cols(J), npiv, -1.0, t.da[l], 0, t.lda[l], t.da[u],
                                               0, t.lda[u], t.dst[c], 0, t.ldst[c], nullptr))
          return 1;
      }
    cudaEventRecord(ev[4], nullptr);
    cudaEventSynchronize(ev[4]);
    float step[4] = {0, 0, 0, 0};
    for (int q = 0; q < 4; ++q) {
      cudaEventElapsedTime(&step[q], ev[q], ev[q + 1]);
      sum[q] += step[q];
    }
    if (per_step) { // where the time goes as the panels get shorter and their entries' sums longer
      unsigned long long rep = 0;
      cudaMemcpy(&rep, drep, sizeof rep, cudaMemcpyDeviceToHost);
      std::printf("  K=%lld rows %lld: panel %.2f ms, laswp %.2f, urow %.2f, gemm %.2f; exact entries so far %llu\n",
                  (long long)K, (long long)(n - K * nb), step[0], step[1], step[2], step[3], rep);
    }
  }
  unsigned long long rep = 0;
  cudaMemcpy(&rep, drep, sizeof rep, cudaMemcpyDeviceToHost);
  std::printf("%sLU n=%lld nb=%lld on one stream: panels %.1f ms, laswp %.1f ms, urow %.1f ms, gemm %.1f ms; %llu exact "
              "entries\n", plain ? "plain-double " : "", (long long)n, (long long)nb, sum[0], sum[1], sum[2], sum[3], rep);
  cudaFree(dipiv), cudaFree(drep);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

TEST_CASE("time the CUDA kernels of a whole factorization (EXSTAR_LU_TIME=\"N NB\")", "[.timelu]")
{
  const char *e = std::getenv("EXSTAR_LU_TIME");
  long long n = 0, nb = 0;
  REQUIRE((e && std::sscanf(e, "%lld %lld", &n, &nb) == 2));
  REQUIRE(time_lu(n, nb, false) == 0);
}

TEST_CASE("time the plain-double baseline's CUDA kernels of a whole factorization (EXSTAR_LU_TIME=\"N NB\")",
          "[.timeplain]")
{
  const char *e = std::getenv("EXSTAR_LU_TIME");
  long long n = 0, nb = 0;
  REQUIRE((e && std::sscanf(e, "%lld %lld", &n, &nb) == 2));
  REQUIRE(time_lu(n, nb, true) == 0);
}

// "[.timechol]" with EXSTAR_CHOL_TIME="N NB": the whole tiled Cholesky with the CUDA kernels on one
// stream (no StarPU; matrix B·Bᵀ + n·I as gpu_bench's), the time of the diagonal tiles, the tiles
// below them and the state updates summed (CUDA events); EXSTAR_LU_TIME_STEPS: each step's too.
static int time_chol(int64_t n, int64_t nb)
{
  Rng rng(13);
  std::vector<double> A = gen_uniform((int)(n * n), rng);
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < j; ++i) A[(size_t)(i + j * n)] = A[(size_t)(j + i * n)];
    A[(size_t)(j + j * n)] = (double)n;
  }
  tiled t(n, n, nb, A);
  const exstar_cuda_tiles dv = t.dev();
  t.upload();
  int32_t *dfail;
  unsigned long long *drep;
  cudaMalloc((void **)&dfail, (size_t)nb * sizeof(int32_t)), cudaMalloc((void **)&drep, sizeof(unsigned long long));
  cudaMemset(drep, 0, sizeof(unsigned long long));
  cudaEvent_t ev[4];
  for (cudaEvent_t &e : ev) cudaEventCreate(&e);
  double sum[3] = {0, 0, 0};
  const bool per_step = std::getenv("EXSTAR_LU_TIME_STEPS") != nullptr;
  for (int64_t K = 0; K < t.nt; ++K) {
    cudaEventRecord(ev[0], nullptr);
    if (exstar_cuda_potrf_panel(&dv, K, K, K + 1, dfail, 0, drep, nullptr)) return 1;
    cudaEventRecord(ev[1], nullptr);
    for (int64_t I = K + 1; I < t.mt; ++I)
      if (exstar_cuda_potrf_panel(&dv, K, I, I + 1, dfail, 0, drep, nullptr)) return 1;
    cudaEventRecord(ev[2], nullptr);
    for (int64_t J = K + 1; J < t.nt; ++J)
      for (int64_t I = J; I < t.mt; ++I) {
        const size_t l = (size_t)(I + K * t.mt), u = (size_t)(J + K * t.mt), c = (size_t)(I + J * t.mt);
        if (exstar_cuda_gemm_state_add('N', 'T', t.rows(I), t.rows(J), t.cols(K), -1.0, t.da[l], 0, t.lda[l], t.da[u],
                                       0, t.lda[u], t.dst[c], 0, t.ldst[c], nullptr))
          return 1;
      }
    cudaEventRecord(ev[3], nullptr);
    cudaEventSynchronize(ev[3]);
    float step[3] = {0, 0, 0};
    for (int q = 0; q < 3; ++q) {
      cudaEventElapsedTime(&step[q], ev[q], ev[q + 1]);
      sum[q] += step[q];
    }
    if (per_step)
      std::printf("  K=%lld: diagonal %.2f ms, below %.2f, updates %.2f\n", (long long)K, step[0], step[1], step[2]);
  }
  unsigned long long rep = 0;
  cudaMemcpy(&rep, drep, sizeof rep, cudaMemcpyDeviceToHost);
  std::printf("Cholesky n=%lld nb=%lld on one stream: diagonal tiles %.1f ms, tiles below %.1f ms, updates %.1f ms; "
              "%llu exact entries\n", (long long)n, (long long)nb, sum[0], sum[1], sum[2], rep);
  cudaFree(dfail), cudaFree(drep);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

TEST_CASE("time the CUDA kernels of a whole Cholesky (EXSTAR_CHOL_TIME=\"N NB\")", "[.timechol]")
{
  const char *e = std::getenv("EXSTAR_CHOL_TIME");
  long long n = 0, nb = 0;
  REQUIRE((e && std::sscanf(e, "%lld %lld", &n, &nb) == 2));
  REQUIRE(time_chol(n, nb) == 0);
}

TEST_CASE("time the CUDA panel and U block row (EXSTAR_LU_TIME=\"M NB\")", "[.time]")
{
  const char *e = std::getenv("EXSTAR_LU_TIME");
  long long m = 0, nb = 0;
  REQUIRE((e && std::sscanf(e, "%lld %lld", &m, &nb) == 2));
  REQUIRE(time_kernels(m, nb) == 0);
}

int main(int argc, char **argv)
{
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("SKIP: no CUDA device\n");
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
