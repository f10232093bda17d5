// gemv through StarPU on the back ends under test (EXSTAR_TEST_BACKENDS): bit for bit the MPFR
// result of the definition in level2.h, under every scheduler, worker count and block size.
#include <catch2/catch.hpp>
#include "tests/gemv/gemv_cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <exstar/level2.hpp>

using namespace exstar_test;

namespace {

std::vector<int> cpu_counts()
{
  if (test_backends() & EXSTAR_BACKEND_CPU) return {1, 2};
  return {-1};
}

std::vector<double> strided(const std::vector<double> &v, int inc)
{
  std::vector<double> b(v.empty() ? 0 : (v.size() - 1) * (size_t)std::abs(inc) + 1, -7.0);
  if (!v.empty()) scatter(v, b.data(), inc);
  return b;
}

void check_same(const gemv_case &c, const std::vector<double> &got)
{
  REQUIRE(got.size() == c.expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("entry " << i << ": got " << got[i] << " expected " << c.expected[i]);
    CHECK(same_bits(got[i], c.expected[i]));
  }
}

// The blocking call with strides.
std::vector<double> blocking(const gemv_case &c, int incx, int incy)
{
  std::vector<double> xb = strided(c.x, incx), yb = strided(c.y, incy);
  int s = exstar_dgemv(c.trans, c.m, c.n, c.alpha, c.A.data(), c.lda, xb.data(), incx, c.beta, yb.data(), incy);
  INFO(exstar_last_error());
  REQUIRE(s == EXSTAR_SUCCESS);
  return gemv_leny(c) ? gather(gemv_leny(c), yb.data(), incy) : std::vector<double>();
}

// The task form on handles with offsets: A inside a larger matrix at (ia, ja) = (2, 1), x and y
// at offsets 3 and 1, block sizes mb x nb.
std::vector<double> inserted(const gemv_case &c, int64_t mb, int64_t nb)
{
  const int ia = 2, ja = 1, ld = c.lda + ia, cols = c.n + ja;
  std::vector<double> big((size_t)ld * cols, 5.0);
  for (int j = 0; j < c.n; ++j)
    for (int i = 0; i < c.m; ++i) big[(size_t)(i + ia) + (size_t)(j + ja) * ld] = c.A[(size_t)i + (size_t)j * c.lda];
  std::vector<double> xb = c.x, yb = c.y;
  xb.insert(xb.begin(), 3, 9.0);
  yb.insert(yb.begin(), 1, 9.0);
  starpu_data_handle_t hA, hx, hy;
  starpu_matrix_data_register(&hA, STARPU_MAIN_RAM, (uintptr_t)big.data(), ld, c.m + ia, cols, sizeof(double));
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)xb.data(), xb.size(), sizeof(double));
  starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)yb.data(), yb.size(), sizeof(double));
  int s = exstar_dgemv_insert(c.trans, c.m, c.n, c.alpha, hA, ia, ja, hx, 3, 1, c.beta, hy, 1, 1, mb, nb);
  INFO(exstar_last_error());
  CHECK(s == EXSTAR_SUCCESS);
  starpu_data_unregister(hy);
  starpu_data_unregister(hx);
  starpu_data_unregister(hA);
  return std::vector<double>(yb.begin() + 1, yb.end());
}

const std::vector<gemv_case> &all_cases()
{
  static const std::vector<gemv_case> cases = gemv_cases();
  return cases;
}

} // namespace

TEST_CASE("gemv is correctly rounded, any strides", "[gemv]")
{
  session s("eager");
  const std::vector<gemv_case> &cs = all_cases();
  for (size_t k = 0; k < cs.size(); ++k)
    for (auto inc : std::vector<std::pair<int, int>>{{1, 1}, k % 2 ? std::make_pair(-2, 3) : std::make_pair(3, -1)}) {
      const gemv_case &c = cs[k];
      INFO(c.name << ", incx " << inc.first << ", incy " << inc.second << ", back ends " << backends_name(test_backends()));
      check_same(c, blocking(c, inc.first, inc.second));
    }
}

TEST_CASE("gemv block sizes never change the bits", "[gemv][blocks]")
{
  session s("dmda");
  const std::vector<gemv_case> &cs = all_cases();
  for (size_t k = 0; k < cs.size(); k += 4) {
    const gemv_case &c = cs[k];
    if (c.m == 0 || c.n == 0 || c.m * c.n > 2000) continue;
    for (int64_t mb : {1, 7, 64, 0})
      for (int64_t nb : {1, 7, 64, 0}) {
        if ((mb == 1 || nb == 1) && c.m * c.n > 300) continue; // keep the task count modest
        INFO(c.name << ", mb " << mb << ", nb " << nb);
        check_same(c, inserted(c, mb, nb));
      }
  }
}

TEST_CASE("gemv under every scheduler and worker count", "[gemv][sched]")
{
  const std::vector<gemv_case> &cs = all_cases();
  // each scheduler once, the CPU worker counts alternating between schedulers (PoCL builds the
  // OpenCL program at every session start: keep the session count small)
  const std::vector<int> counts = cpu_counts();
  for (size_t si = 0; si < schedulers().size(); ++si) {
    const std::string &sched = schedulers()[si];
    const int ncpus = counts[si % counts.size()];
    {
      session s(sched.c_str(), ncpus);
      exstar_set_default_nparts(3);
      for (size_t k = 0; k < cs.size(); k += 7) {
        INFO(cs[k].name << ", scheduler " << sched << ", ncpus " << ncpus);
        check_same(cs[k], blocking(cs[k], 1, 1));
        if (cs[k].m > 0 && cs[k].n > 0) check_same(cs[k], inserted(cs[k], 5, 4));
      }
      exstar_set_default_nparts(0);
    }
  }
}

TEST_CASE("a larger gemv split over all workers", "[gemv][large]")
{
  Rng rng(77);
  for (char tr : {'N', 'T'}) {
    gemv_case c = make_gemv(std::string(1, tr) + " 300x200", tr, 300, 200, 5, 0.1, 0.3,
                            [&](int k) { return gen_exp_spread(k, -40, 40, rng); },
                            gen_uniform(tr == 'N' ? 200 : 300, rng), gen_uniform(tr == 'N' ? 300 : 200, rng));
    session s("dmda");
    for (int nparts : {0, 5}) {
      exstar_set_default_nparts(nparts);
      INFO(c.name << ", nparts " << nparts);
      check_same(c, blocking(c, 1, 1));
    }
    exstar_set_default_nparts(0);
  }
}

TEST_CASE("gemv rejects bad arguments before submitting", "[gemv][args]")
{
  session s("eager");
  double A[4] = {1, 2, 3, 4}, x[2] = {1, 1}, y[2] = {0, 0};
  CHECK(exstar_dgemv('X', 2, 2, 1.0, A, 2, x, 1, 0.0, y, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemv('N', -1, 2, 1.0, A, 2, x, 1, 0.0, y, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemv('N', 2, 2, 1.0, A, 1, x, 1, 0.0, y, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemv('N', 2, 2, 1.0, A, 2, x, 0, 0.0, y, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemv('N', 2, 2, 1.0, nullptr, 2, x, 1, 0.0, y, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemv('T', 2, 2, 1.0, A, 2, x, 1, 0.0, nullptr, 1) == EXSTAR_ERR_ARG);
  starpu_data_handle_t hA, hx, hy;
  starpu_matrix_data_register(&hA, STARPU_MAIN_RAM, (uintptr_t)A, 2, 2, 2, sizeof(double));
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, 2, sizeof(double));
  starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y, 2, sizeof(double));
  CHECK(exstar_dgemv_insert('N', 2, 2, 1.0, hA, 1, 0, hx, 0, 1, 0.0, hy, 0, 1, 0, 0) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemv_insert('N', 2, 2, 1.0, hA, 0, 0, hx, 1, 1, 0.0, hy, 0, 1, 0, 0) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemv_insert('N', 2, 2, 1.0, hA, 0, 0, hx, 0, 1, 0.0, hy, 0, 2, 0, 0) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgemv_insert('N', 2, 2, 1.0, hA, 0, 0, hx, 0, 1, 0.0, hy, 0, 1, -1, 0) == EXSTAR_ERR_ARG);
  starpu_data_unregister(hy);
  starpu_data_unregister(hx);
  starpu_data_unregister(hA);
  CHECK(y[0] == 0.0);
  // the C++ wrapper throws with the message
  std::vector<double> vA(4, 1.0), vx(2, 1.0), vy(3, 0.0);
  CHECK_THROWS_AS(exstar::gemv('N', 2, 2, 1.0, vA, vx, 0.0, vy), exstar::error);
  vy.resize(2);
  exstar::gemv('N', 2, 2, 1.0, vA, vx, 0.0, vy);
  CHECK(vy[0] == 2.0);
}

TEST_CASE("gemv: the checked fast path and the exact-only path give the same MPFR bits", "[gemv][fast]")
{
  // On CPU workers alone a whole output block is one task (the fast path, exact fallback);
  // exstar_set_exact_only(1) takes the exact path for every entry.
  session s("eager");
  static const std::vector<gemv_case> cases = gemv_cases();
  for (int exact_only : {0, 1}) {
    exstar_set_exact_only(exact_only);
    for (const gemv_case &c : cases) {
      INFO(c.name << " exact_only " << exact_only);
      check_same(c, blocking(c, 1, 1));
      check_same(c, blocking(c, -2, 3));
    }
  }
  exstar_set_exact_only(0);
}
