// Level 3 through StarPU on the back ends under test (EXSTAR_TEST_BACKENDS): gemm, trsm and the
// GEMM-accumulate state, bit for bit the MPFR results of level3.h's definitions, under every
// scheduler and worker count, for several tile splits of the same product.
#include <catch2/catch.hpp>
#include "tests/level3/level3_cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <exstar/exstar.hpp>
#include <cstring>

using namespace exstar_test;

namespace {

std::vector<int> cpu_counts()
{
  if (test_backends() & EXSTAR_BACKEND_CPU) return {1, 2};
  return {-1};
}

void check_bits(const std::vector<double> &got, const std::vector<double> &expected, int m, const std::string &what)
{
  REQUIRE(got.size() == expected.size());
  for (size_t x = 0; x < got.size(); ++x) {
    INFO(what << ": entry (" << x % (size_t)std::max(m, 1) << ", " << x / (size_t)std::max(m, 1) << "): got " << got[x]
              << " expected " << expected[x]);
    CHECK(same_bits(got[x], expected[x]));
  }
}

std::vector<double> compact(const std::vector<double> &X, int m, int n, int ld)
{
  std::vector<double> out((size_t)m * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) out[(size_t)i + (size_t)j * m] = X[(size_t)i + (size_t)j * ld];
  return out;
}

std::vector<double> blocking_gemm(const gemm_case &c)
{
  std::vector<double> C = c.C;
  int s = exstar_dgemm(c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A.data(), c.lda, c.B.data(), c.ldb, c.beta,
                       C.data(), c.ldc);
  INFO(exstar_last_error());
  REQUIRE(s == EXSTAR_SUCCESS);
  return compact(C, c.m, c.n, c.ldc);
}

starpu_data_handle_t reg(const std::vector<double> &X, int ld, int rows, int cols)
{
  starpu_data_handle_t h;
  starpu_matrix_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)X.data(), (uint32_t)ld, (uint32_t)std::max(rows, 1),
                              (uint32_t)std::max(cols, 1), sizeof(double));
  return h;
}

// The product as a grid of tb x tb tiles of C, each one exstar_dgemm_insert task on the user's
// handles (A, B whole, with block origins; C one handle, tiles by origin).
std::vector<double> tiled_gemm(const gemm_case &c, int tb)
{
  std::vector<double> C = c.C;
  const bool ta = c.transa == 'T', tbb = c.transb == 'T';
  starpu_data_handle_t hA = reg(c.A, c.lda, ta ? c.k : c.m, ta ? c.m : c.k);
  starpu_data_handle_t hB = reg(c.B, c.ldb, tbb ? c.n : c.k, tbb ? c.k : c.n);
  starpu_data_handle_t hC = reg(C, c.ldc, c.m, c.n);
  for (int j0 = 0; j0 < c.n; j0 += tb)
    for (int i0 = 0; i0 < c.m; i0 += tb) {
      const int mt = std::min(tb, c.m - i0), nt = std::min(tb, c.n - j0);
      int s = exstar_dgemm_insert(c.transa, c.transb, mt, nt, c.k, c.alpha, hA, ta ? 0 : i0, ta ? i0 : 0, hB,
                                  tbb ? j0 : 0, tbb ? 0 : j0, c.beta, hC, i0, j0);
      INFO(exstar_last_error());
      REQUIRE(s == EXSTAR_SUCCESS);
    }
  starpu_data_unregister(hC);
  starpu_data_unregister(hB);
  starpu_data_unregister(hA);
  return compact(C, c.m, c.n, c.ldc);
}

// The product on descriptors of nb x nb tiles over copies of A, B and C
// (exstar_dgemm_desc_insert), waited for by the descriptors' destruction.
std::vector<double> desc_gemm(const gemm_case &c, int nb)
{
  std::vector<double> A = c.A, B = c.B, C = c.C;
  const bool ta = c.transa == 'T', tbb = c.transb == 'T';
  exstar_desc dA = nullptr, dB = nullptr, dC = nullptr;
  REQUIRE(exstar_desc_create(&dA, ta ? c.k : c.m, ta ? c.m : c.k, nb, A.data(), c.lda) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create(&dB, tbb ? c.n : c.k, tbb ? c.k : c.n, nb, B.data(), c.ldb) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create(&dC, c.m, c.n, nb, C.data(), c.ldc) == EXSTAR_SUCCESS);
  const int s = exstar_dgemm_desc_insert(c.transa, c.transb, c.alpha, dA, dB, c.beta, dC);
  INFO(exstar_last_error());
  CHECK(s == EXSTAR_SUCCESS);
  CHECK(exstar_desc_wait(dC) == EXSTAR_SUCCESS);
  exstar_desc_destroy(dC), exstar_desc_destroy(dB), exstar_desc_destroy(dA);
  CHECK(std::memcmp(A.data(), c.A.data(), A.size() * sizeof(double)) == 0); // A read only (NaN padding: bytes)
  return compact(C, c.m, c.n, c.ldc);
}

const std::vector<gemm_case> &gcases()
{
  static const std::vector<gemm_case> cs = gemm_cases();
  return cs;
}

const std::vector<trsm_case> &tcases()
{
  static const std::vector<trsm_case> cs = trsm_cases();
  return cs;
}

// A product with several output tiles in the blocking call (tiles of at least 128).
const gemm_case &large_case()
{
  static const gemm_case c = [] {
    Rng rng(99);
    return make_gemm("300x260x40 wide", 'N', 'T', 300, 260, 40, 1.0, 1.0,
                     [](int q, Rng &r) { return gen_exp_spread(q, -60, 60, r); },
                     [](int q, Rng &r) { return gen_uniform(q, r); }, rng);
  }();
  return c;
}

std::vector<double> blocking_trsm(const trsm_case &c)
{
  std::vector<double> B = c.B;
  int s = exstar_dtrsm(c.side, c.uplo, c.transa, c.diag, c.m, c.n, c.alpha, c.T.data(), c.ldt, B.data(), c.ldb);
  INFO(exstar_last_error());
  REQUIRE(s == EXSTAR_SUCCESS);
  return compact(B, c.m, c.n, c.ldb);
}

} // namespace

TEST_CASE("gemm through StarPU is correctly rounded, whole and tiled", "[gemm]")
{
  session s("eager");
  for (const gemm_case &c : gcases()) {
    INFO(c.name << ", back ends " << backends_name(test_backends()));
    check_bits(blocking_gemm(c), c.expected, c.m, c.name);
    if (c.m > 0 && c.n > 0) check_bits(tiled_gemm(c, 4), c.expected, c.m, c.name + " tiles of 4");
  }
}

TEST_CASE("gemm and trsm under every scheduler and worker count", "[gemm][trsm][sched]")
{
  const std::vector<int> counts = cpu_counts();
  for (size_t si = 0; si < schedulers().size(); ++si) {
    const std::string &sched = schedulers()[si];
    const int ncpus = counts[si % counts.size()];
    session s(sched.c_str(), ncpus);
    const std::string where = ", scheduler " + sched + ", ncpus " + std::to_string(ncpus);
    check_bits(blocking_gemm(large_case()), large_case().expected, large_case().m, large_case().name + where);
    check_bits(tiled_gemm(large_case(), 97), large_case().expected, large_case().m, large_case().name + " tiles 97" + where);
    for (size_t k = si; k < tcases().size(); k += 5)
      check_bits(blocking_trsm(tcases()[k]), tcases()[k].expected, tcases()[k].m, tcases()[k].name + where);
  }
}

TEST_CASE("gemm on descriptors: every entry is exstar_dgemm's for every tile size", "[gemm][desc]")
{
  {
    session s("dmda");
    for (const gemm_case &c : gcases()) {
      if (c.m == 0 || c.n == 0) continue;
      INFO(c.name << ", back ends " << backends_name(test_backends()));
      for (int nb : {1, 5, 16}) check_bits(desc_gemm(c, nb), c.expected, c.m, c.name + " nb " + std::to_string(nb));
    }
  }
  for (const char *sched : {"eager", "random", "ws", "lws", "prio"}) {
    session t(sched, cpu_counts().back());
    check_bits(desc_gemm(large_case(), 64), large_case().expected, large_case().m,
               large_case().name + " nb 64, scheduler " + sched);
  }
}

TEST_CASE("gemm on descriptors rejects bad arguments before submitting", "[gemm][desc][args]")
{
  session s("eager");
  std::vector<double> a(64, 1.0), b(64, 1.0), c(64, 0.0);
  exstar_desc A = nullptr, B = nullptr, C = nullptr, D = nullptr;
  REQUIRE(exstar_desc_create(&A, 4, 3, 2, a.data(), 4) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create(&B, 3, 5, 2, b.data(), 3) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create(&C, 4, 5, 2, c.data(), 4) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create(&D, 4, 5, 3, c.data() + 20, 4) == EXSTAR_SUCCESS);
  CHECK(exstar_dgemm_desc_insert('X', 'N', 1.0, A, B, 0.0, C) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemm_desc_insert('N', 'Q', 1.0, A, B, 0.0, C) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemm_desc_insert('N', 'N', 1.0, nullptr, B, 0.0, C) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemm_desc_insert('N', 'N', 1.0, A, B, 0.0, A) == EXSTAR_ERR_ARG); // C is A
  CHECK(exstar_dgemm_desc_insert('T', 'N', 1.0, A, B, 0.0, C) == EXSTAR_ERR_ARG); // op(A) 3 x 4
  CHECK(std::string(exstar_last_error()).find("shapes") != std::string::npos);
  CHECK(exstar_dgemm_desc_insert('N', 'N', 1.0, A, B, 0.0, D) == EXSTAR_ERR_ARG); // nb 3
  CHECK(exstar_dgemm_desc_insert('N', 'N', 2.0, A, B, 0.0, C) == EXSTAR_SUCCESS);
  exstar_desc_destroy(D), exstar_desc_destroy(C), exstar_desc_destroy(B), exstar_desc_destroy(A);
  CHECK(c[0] == 6.0); // 2 * (1 * 1 * 3)
  CHECK(c[19] == 6.0);
  // the C++ form throws with the message, and computes the same
  std::vector<double> c2(20, 1.0);
  {
    exstar::desc a2(4, 3, 2, a.data(), 4), b2(3, 5, 2, b.data(), 3), c2d(4, 5, 2, c2.data(), 4);
    CHECK_THROWS_AS(exstar::gemm_insert('T', 'N', 1.0, a2, b2, 0.0, c2d), exstar::error);
    exstar::gemm_insert('N', 'N', 2.0, a2, b2, -1.0, c2d);
    exstar::wait(c2d);
  }
  CHECK(exstar_desc_wait(nullptr) == EXSTAR_ERR_ARG);
  CHECK(c2[0] == 5.0); // 2 * 3 - 1
}

TEST_CASE("trsm through StarPU: every column or row is trsv's", "[trsm]")
{
  session s("dmda");
  for (const trsm_case &c : tcases()) check_bits(blocking_trsm(c), c.expected, c.m, c.name);
}

TEST_CASE("the exact path alone gives the same bits through StarPU", "[gemm][trsm][exact]")
{
  session s("lws");
  exstar_set_exact_only(1);
  for (size_t k = 0; k < gcases().size(); k += 3) check_bits(blocking_gemm(gcases()[k]), gcases()[k].expected, gcases()[k].m, gcases()[k].name);
  for (size_t k = 0; k < tcases().size(); k += 3) check_bits(blocking_trsm(tcases()[k]), tcases()[k].expected, tcases()[k].m, tcases()[k].name);
  exstar_set_exact_only(0);
}

TEST_CASE("the GEMM-accumulate state through StarPU: split sums round to the gemm bits", "[state]")
{
  session s("ws");
  const gemm_case &c = large_case(); // alpha 1, beta 1
  const int ta = 0;
  (void)ta;
  std::vector<double> C = c.C;
  starpu_data_handle_t hA = reg(c.A, c.lda, c.m, c.k), hB = reg(c.B, c.ldb, c.n, c.k), hC = reg(C, c.ldc, c.m, c.n);
  starpu_data_handle_t st, mask;
  REQUIRE(exstar_state_register(&st, c.m, c.n) == EXSTAR_SUCCESS);
  std::vector<unsigned char> maskv((size_t)c.m * c.n, 9);
  starpu_vector_data_register(&mask, STARPU_MAIN_RAM, (uintptr_t)maskv.data(), (uint32_t)maskv.size(), 1);
  REQUIRE(exstar_state_init_insert(c.m, c.n, hC, 0, 0, st, 0, 0) == EXSTAR_SUCCESS);
  for (int l0 = 0; l0 < c.k; l0 += 15) // 'N','T': A(i, l), B(j, l)
    REQUIRE(exstar_state_gemm_insert('N', 'T', c.m, c.n, std::min(15, c.k - l0), 1.0, hA, 0, l0, hB, 0, l0, st, 0, 0) ==
            EXSTAR_SUCCESS);
  REQUIRE(exstar_state_round_insert(c.m, c.n, st, 0, 0, hC, 0, 0, mask) == EXSTAR_SUCCESS);
  starpu_data_unregister(mask);
  starpu_data_unregister(st);
  starpu_data_unregister(hC);
  starpu_data_unregister(hB);
  starpu_data_unregister(hA);
  std::vector<double> got = compact(C, c.m, c.n, c.ldc);
  int64_t declined = 0;
  for (size_t x = 0; x < got.size(); ++x) {
    REQUIRE(maskv[x] <= 1);
    declined += maskv[x];
    if (!maskv[x]) CHECK(same_bits(got[x], c.expected[x]));
  }
  CHECK(declined <= (int64_t)got.size() / 100);
}

TEST_CASE("a state initialized from stacked tiles by one task holds the tiles' values", "[state]")
{
  session s("eager");
  Rng rng(20261128);
  const int rows[3] = {7, 7, 5}, m = 19, n = 6;
  std::vector<double> C = gen_uniform(m * n, rng), D((size_t)m * n, 0.0);
  std::vector<starpu_data_handle_t> tiles;
  for (int t = 0, r0 = 0; t < 3; r0 += rows[t++]) {
    starpu_data_handle_t h;
    starpu_matrix_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)(C.data() + r0), (uint32_t)m, (uint32_t)rows[t],
                                (uint32_t)n, sizeof(double));
    tiles.push_back(h);
  }
  starpu_data_handle_t st, hD = reg(D, m, m, n), mask;
  REQUIRE(exstar_state_register(&st, m, n) == EXSTAR_SUCCESS);
  std::vector<unsigned char> maskv((size_t)m * n, 9);
  starpu_vector_data_register(&mask, STARPU_MAIN_RAM, (uintptr_t)maskv.data(), (uint32_t)maskv.size(), 1);
  std::vector<starpu_data_descr> descr;
  for (starpu_data_handle_t h : tiles) descr.push_back(starpu_data_descr{h, STARPU_R});
  descr.push_back(starpu_data_descr{st, STARPU_W});
  exstar_state_init_tiles_args a{3};
  REQUIRE(starpu_task_insert(&exstar_state_init_tiles_cl, STARPU_DATA_MODE_ARRAY, descr.data(), (int)descr.size(),
                             STARPU_VALUE, &a, sizeof a, 0) == 0);
  REQUIRE(exstar_state_round_insert(m, n, st, 0, 0, hD, 0, 0, mask) == EXSTAR_SUCCESS);
  for (starpu_data_handle_t h : {mask, st, hD}) starpu_data_unregister(h);
  for (starpu_data_handle_t h : tiles) starpu_data_unregister(h);
  for (size_t x = 0; x < C.size(); ++x) {
    INFO("entry " << x);
    CHECK(maskv[x] == 0);
    CHECK(same_bits(D[x], C[x]));
  }
}

TEST_CASE("Level 3 rejects bad arguments before submitting", "[gemm][trsm][args]")
{
  session s("eager");
  std::vector<double> A(16, 1.0), B(16, 1.0), C(16, 0.0), T(16, 1.0);
  CHECK(exstar_dgemm('X', 'N', 2, 2, 2, 1.0, A.data(), 2, B.data(), 2, 0.0, C.data(), 2) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemm('N', 'N', -1, 2, 2, 1.0, A.data(), 2, B.data(), 2, 0.0, C.data(), 2) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemm('N', 'N', 3, 2, 2, 1.0, A.data(), 2, B.data(), 2, 0.0, C.data(), 3) == EXSTAR_ERR_ARG); // lda
  CHECK(exstar_dgemm('T', 'N', 3, 2, 2, 1.0, A.data(), 2, B.data(), 2, 0.0, C.data(), 2) == EXSTAR_ERR_ARG); // ldc
  CHECK(exstar_dgemm('N', 'N', 2, 2, 2, 1.0, nullptr, 2, B.data(), 2, 0.0, C.data(), 2) == EXSTAR_ERR_ARG);
  CHECK(exstar_dtrsm('L', 'X', 'N', 'N', 2, 2, 1.0, T.data(), 2, B.data(), 2) == EXSTAR_ERR_ARG);
  CHECK(exstar_dtrsm('Q', 'L', 'N', 'N', 2, 2, 1.0, T.data(), 2, B.data(), 2) == EXSTAR_ERR_ARG);
  CHECK(exstar_dtrsm('R', 'L', 'N', 'N', 2, 3, 1.0, T.data(), 2, B.data(), 2) == EXSTAR_ERR_ARG); // ldt < n
  T[3] = 0.0; // T(2,2)
  std::vector<double> B0 = B;
  CHECK(exstar_dtrsm('L', 'L', 'N', 'N', 2, 2, 1.0, T.data(), 2, B.data(), 2) == EXSTAR_ERR_SINGULAR);
  CHECK(std::string(exstar_last_error()).find("T(2,2)") != std::string::npos);
  CHECK(B == B0);
  starpu_data_handle_t hA = reg(A, 4, 4, 4), hv;
  float f[8] = {};
  starpu_vector_data_register(&hv, STARPU_MAIN_RAM, (uintptr_t)f, 8, sizeof(float));
  CHECK(exstar_dgemm_insert('N', 'N', 4, 4, 4, 1.0, hA, 1, 0, hA, 0, 0, 0.0, hA, 0, 0) == EXSTAR_ERR_ARG); // A block
  CHECK(exstar_dgemm_insert('N', 'N', 4, 4, 4, 1.0, hv, 0, 0, hA, 0, 0, 0.0, hA, 0, 0) == EXSTAR_ERR_ARG); // not a matrix
  CHECK(exstar_state_gemm_insert('N', 'N', 4, 4, 4, 1.0, hA, 0, 0, hA, 0, 0, hA, 0, 0) == EXSTAR_ERR_ARG); // not a state
  starpu_data_unregister(hv);
  starpu_data_unregister(hA);
  // the C++ wrappers throw with the message
  std::vector<double> a2(4, 1.0), b2(4, 1.0), c3(3, 0.0);
  CHECK_THROWS_AS(exstar::gemm('N', 'N', 2, 2, 2, 1.0, a2, b2, 0.0, c3), exstar::error);
  c3.resize(4);
  exstar::gemm('N', 'N', 2, 2, 2, 1.0, a2, b2, 0.0, c3);
  CHECK(c3[0] == 2.0);
  std::vector<double> t2{2.0, 1.0, 0.0, 4.0}, x2{2.0, 5.0};
  exstar::trsm('L', 'L', 'N', 'N', 2, 1, 1.0, t2, x2);
  CHECK(x2[0] == 1.0);
  CHECK(x2[1] == 1.0);
  // still works afterwards
  std::vector<double> one{2.0}, two{3.0}, out{0.0};
  REQUIRE(exstar_dgemm('N', 'N', 1, 1, 1, 1.0, one.data(), 1, two.data(), 1, 0.0, out.data(), 1) == EXSTAR_SUCCESS);
  CHECK(out[0] == 6.0);
}
