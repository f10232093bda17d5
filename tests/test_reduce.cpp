// sum and dot through StarPU on the back ends under test (EXSTAR_TEST_BACKENDS), under every
// scheduler, with 1 and 2 CPU workers and several task counts: bit for bit the MPFR result,
// hence identical across back ends, schedulers, worker counts and partitions.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <exstar/exstar.hpp>
#include <cmath>
#include <limits>

using namespace exstar_test;

namespace {

// Worker counts to try: with CPU workers, 1 and 2; otherwise StarPU's default.
std::vector<int> cpu_counts()
{
  if (test_backends() & EXSTAR_BACKEND_CPU) return {1, 2};
  return {-1};
}

void check_all_cases(const std::vector<reduction_case> &cases, bool dot)
{
  for (int nparts : {1, 3, 8}) {
    exstar_set_default_nparts(nparts);
    for (const reduction_case &c : cases) {
      INFO(c.name << ", " << nparts << " tasks");
      double r = -1.0;
      int64_t n = (int64_t)c.x.size();
      int s = dot ? exstar_ddot(n, c.x.data(), 1, c.y.data(), 1, &r) : exstar_dsum(n, c.x.data(), 1, &r);
      REQUIRE(s == EXSTAR_SUCCESS);
      CHECK(same_bits(r, c.expected));
    }
  }
  exstar_set_default_nparts(0);
}

} // namespace

TEST_CASE("dot is correctly rounded under every scheduler and worker count", "[reduce][dot]")
{
  static const std::vector<reduction_case> cases = dot_cases(false);
  for (const std::string &sched : schedulers())
    for (int ncpus : cpu_counts()) {
      INFO("scheduler " << sched << ", ncpus " << ncpus << ", back ends " << backends_name(test_backends()));
      session s(sched.c_str(), ncpus);
      check_all_cases(cases, true);
    }
}

TEST_CASE("sum is correctly rounded under every scheduler and worker count", "[reduce][sum]")
{
  static const std::vector<reduction_case> cases = sum_cases(false);
  for (const std::string &sched : schedulers())
    for (int ncpus : cpu_counts()) {
      INFO("scheduler " << sched << ", ncpus " << ncpus);
      session s(sched.c_str(), ncpus);
      check_all_cases(cases, false);
    }
}

TEST_CASE("a long dot split over all workers gives the MPFR bits", "[reduce][large]")
{
  Rng rng(99);
  std::vector<double> x = gen_exp_spread(1000003, -40, 40, rng), y = gen_uniform(1000003, rng);
  double expected = ref_dot(x, y);
  session s("dmda");
  for (int nparts : {0, 5, 64}) {
    INFO(nparts << " tasks");
    exstar_set_default_nparts(nparts);
    double r;
    REQUIRE(exstar_ddot((int64_t)x.size(), x.data(), 1, y.data(), 1, &r) == EXSTAR_SUCCESS);
    CHECK(same_bits(r, expected));
  }
  exstar_set_default_nparts(0);
}

TEST_CASE("negative and non-unit strides through StarPU", "[reduce][strides]")
{
  Rng rng(5);
  std::vector<double> x = gen_exp_spread(500, -200, 200, rng), y = gen_exp_spread(500, -200, 200, rng);
  session s("eager");
  for (int incx : {2, -1, -3})
    for (int incy : {1, -2}) {
      INFO("incx=" << incx << " incy=" << incy);
      int ax = incx < 0 ? -incx : incx, ay = incy < 0 ? -incy : incy;
      std::vector<double> bx((x.size() - 1) * ax + 1), by((y.size() - 1) * ay + 1);
      scatter(x, bx.data(), incx);
      scatter(y, by.data(), incy);
      double r;
      REQUIRE(exstar_ddot((int64_t)x.size(), bx.data(), incx, by.data(), incy, &r) == EXSTAR_SUCCESS);
      CHECK(same_bits(r, ref_dot(x, y)));
      REQUIRE(exstar_dsum((int64_t)x.size(), bx.data(), incx, &r) == EXSTAR_SUCCESS);
      CHECK(same_bits(r, ref_sum(x)));
    }
}

// ---- nrm2: RN(sqrt(Σ x_i²)), the square root of the exact sum of exact squares -------------

namespace {

// Vectors whose sum of squares is the square of a midpoint between two doubles, or lies just
// above or below it: y = M·2^q with M = a² + b² in [2^52, 2^53) (a, b integers), so that
//   (y + 2^(q-1))² = y² + (a·2^q)² + (b·2^q)² + (2^(q-1))²   exactly (a tie: the even one wins),
// without the last square: just below the midpoint (rounds to y), with a tiny extra square:
// just above (rounds to y + ulp).
std::vector<reduction_case> nrm2_midpoint_cases(Rng &rng)
{
  std::vector<reduction_case> cs;
  for (int q : {-1074, -1000, -600, -200, -60, -52, 0, 30, 400, 800, 971}) {
    for (int rep = 0; rep < 4; ++rep) {
      double a, b, M;
      do { // a, b in [2^25.6, 2^26): M in [2^52, 2^53)
        a = std::floor(0x1p26 * (0.8 + 0.2 * rand_unit(rng)));
        b = std::floor(0x1p26 * (0.8 + 0.2 * rand_unit(rng)));
        M = a * a + b * b;
      } while (M < 0x1p52 || M >= 0x1p53);
      const double y = std::ldexp(M, q), A = std::ldexp(a, q), B = std::ldexp(b, q), h = std::ldexp(1.0, q - 1);
      const std::string at = "q = " + std::to_string(q) + ", M " + (std::fmod(M, 2.0) == 0 ? "even" : "odd");
      if (q - 1 >= -1074) cs.push_back({"tie, " + at, {y, A, B, h}, {}, 0.0});
      cs.push_back({"below the midpoint, " + at, {y, A, B}, {}, 0.0});
      if (q - 1 >= -1074) cs.push_back({"above the midpoint, " + at, {y, A, B, h, std::ldexp(1.0, q - 40 > -1074 ? q - 40 : -1074)}, {}, 0.0});
    }
  }
  for (reduction_case &c : cs) c.expected = ref_nrm2(c.x);
  return cs;
}

std::vector<reduction_case> nrm2_cases()
{
  Rng rng(2026);
  std::vector<reduction_case> cs;
  const double mx = std::numeric_limits<double>::max(), tiny = std::numeric_limits<double>::denorm_min();
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  cs.push_back({"3, 4", {3.0, 4.0}, {}, 0.0});
  cs.push_back({"zeros of both signs", {0.0, -0.0, -0.0}, {}, 0.0});
  cs.push_back({"one entry: |x|", {-0x1.23456789abcdep-700}, {}, 0.0});
  cs.push_back({"squares overflow, the norm does not", {1e300, -1e300, 3e299}, {}, 0.0});
  cs.push_back({"the norm overflows", {mx, mx}, {}, 0.0});
  cs.push_back({"the norm is DBL_MAX", {mx, 1e-300}, {}, 0.0});
  cs.push_back({"squares underflow, the norm does not", {1e-200, 1e-200, -3e-201}, {}, 0.0});
  cs.push_back({"subnormals", {tiny, tiny, 3 * tiny}, {}, 0.0});
  cs.push_back({"huge and subnormal", {1e308, tiny}, {}, 0.0});
  cs.push_back({"NaN", {1.0, nan, 2.0}, {}, 0.0});
  cs.push_back({"inf", {1.0, -inf}, {}, 0.0});
  cs.push_back({"NaN and inf", {inf, nan}, {}, 0.0});
  cs.push_back({"random", gen_uniform(1000, rng), {}, 0.0});
  cs.push_back({"exponents -1074 .. 1023", gen_exp_spread(2000, -1074, 1023, rng), {}, 0.0});
  cs.push_back({"exponents -600 .. -500", gen_exp_spread(300, -600, -500, rng), {}, 0.0});
  cs.push_back({"subnormal entries", gen_subnormal(200, rng), {}, 0.0});
  for (const reduction_case &c : dot_cases(false)) cs.push_back({"dot case x: " + c.name, c.x, {}, 0.0});
  for (reduction_case &c : cs) c.expected = ref_nrm2(c.x);
  for (reduction_case &c : nrm2_midpoint_cases(rng)) cs.push_back(c);
  return cs;
}

} // namespace

TEST_CASE("nrm2 is RN(sqrt) of the exact sum of squares: MPFR bits, ties, specials, every scheduler",
          "[reduce][nrm2]")
{
  static const std::vector<reduction_case> cases = nrm2_cases();
  for (const std::string &sched : schedulers())
    for (int ncpus : cpu_counts()) {
      INFO("scheduler " << sched << ", ncpus " << ncpus << ", back ends " << backends_name(test_backends()));
      session s(sched.c_str(), ncpus);
      for (int nparts : {1, 3}) {
        exstar_set_default_nparts(nparts);
        for (const reduction_case &c : cases) {
          INFO(c.name << ", " << nparts << " tasks");
          double r = -1.0;
          REQUIRE(exstar_dnrm2((int64_t)c.x.size(), c.x.data(), 1, &r) == EXSTAR_SUCCESS);
          CHECK(same_bits(r, c.expected));
        }
      }
      exstar_set_default_nparts(0);
    }
}

// core/sqrt.h decides most roundings from a double-double of the sum (exstar_sqrt_fast) and the
// rest by exact tests: many short random vectors, most of them decided the fast way, and each
// vector's squares near a midpoint (the rest), against MPFR.
TEST_CASE("nrm2 of many short vectors: the fast and the exact decisions agree with MPFR", "[reduce][nrm2]")
{
  session s("eager", 1);
  Rng rng(77);
  int checked = 0;
  for (int rep = 0; rep < 3000; ++rep) {
    const int n = 1 + rep % 6;
    const int lo = rep % 3 == 0 ? -1074 : -300, hi = rep % 3 == 0 ? 1023 : 300;
    const std::vector<double> x = gen_exp_spread(n, lo, hi, rng);
    double r = -1.0;
    REQUIRE(exstar_dnrm2(n, x.data(), 1, &r) == EXSTAR_SUCCESS);
    INFO("rep " << rep);
    REQUIRE(same_bits(r, ref_nrm2(x)));
    ++checked;
  }
  for (const reduction_case &c : nrm2_midpoint_cases(rng)) {
    double r = -1.0;
    REQUIRE(exstar_dnrm2((int64_t)c.x.size(), c.x.data(), 1, &r) == EXSTAR_SUCCESS);
    INFO(c.name);
    REQUIRE(same_bits(r, c.expected));
  }
  REQUIRE(checked == 3000);
}

TEST_CASE("nrm2's known values: the even neighbour at a tie, +inf beyond DBL_MAX, +0 for n = 0", "[reduce][nrm2]")
{
  session s("eager");
  double r = -1.0;
  const double tie[] = {1.0, 0x1p-26, 0x1p-53}; // Σ = (1 + 2^-53)²: between 1 and 1 + 2^-52
  REQUIRE(exstar_dnrm2(3, tie, 1, &r) == EXSTAR_SUCCESS);
  CHECK(bits_of(r) == bits_of(1.0));
  const double above[] = {1.0, 0x1p-26, 0x1p-53, 0x1p-90};
  REQUIRE(exstar_dnrm2(4, above, 1, &r) == EXSTAR_SUCCESS);
  CHECK(bits_of(r) == bits_of(1.0 + 0x1p-52));
  const double big[] = {std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
  REQUIRE(exstar_dnrm2(2, big, 1, &r) == EXSTAR_SUCCESS);
  CHECK(r == std::numeric_limits<double>::infinity());
  REQUIRE(exstar_dnrm2(0, nullptr, 1, &r) == EXSTAR_SUCCESS);
  CHECK(bits_of(r) == bits_of(0.0));
  // strides: the order of the terms never matters
  Rng rng(8);
  std::vector<double> x = gen_exp_spread(300, -300, 300, rng), bx((x.size() - 1) * 3 + 1);
  scatter(x, bx.data(), -3);
  REQUIRE(exstar_dnrm2((int64_t)x.size(), bx.data(), -3, &r) == EXSTAR_SUCCESS);
  CHECK(same_bits(r, ref_nrm2(x)));
}

TEST_CASE("nrm2 in the caller's graph: exstar_dnrm2_insert, then exstar_acc_round_sqrt_insert", "[reduce][nrm2][insert]")
{
  session s("dmda");
  Rng rng(12);
  std::vector<double> x = gen_exp_spread(4000, -500, 500, rng);
  starpu_data_handle_t hx, hr;
  double result = -1.0;
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x.data(), x.size(), sizeof(double));
  starpu_variable_data_register(&hr, STARPU_MAIN_RAM, (uintptr_t)&result, sizeof(double));
  starpu_data_handle_t acc;
  REQUIRE(exstar_acc_register(&acc) == EXSTAR_SUCCESS);
  // the first 1500 entries and the rest, into one accumulator
  REQUIRE(exstar_dnrm2_insert(1500, hx, 0, 1, acc, 2) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dnrm2_insert(2500, hx, 1500, 1, acc, 3) == EXSTAR_SUCCESS);
  REQUIRE(exstar_acc_round_sqrt_insert(acc, hr) == EXSTAR_SUCCESS);
  exstar_acc_unregister(acc);
  starpu_data_unregister(hr);
  starpu_data_unregister(hx);
  CHECK(same_bits(result, ref_nrm2(x)));
  // C++: the blocking form and the accumulator's square root
  CHECK(same_bits(exstar::nrm2(x), ref_nrm2(x)));
  CHECK_THROWS_AS(exstar::nrm2(5, nullptr), exstar::error);
  CHECK(exstar_dnrm2_insert(5, nullptr, 0, 1, nullptr, 0) == EXSTAR_ERR_ARG);
  CHECK(exstar_dnrm2(5, nullptr, 1, &result) == EXSTAR_ERR_ARG);
}
