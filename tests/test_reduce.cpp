// sum and dot through StarPU on the back ends under test (EXSTAR_TEST_BACKENDS), under every
// scheduler, with 1 and 2 CPU workers and several task counts: bit for bit the MPFR result,
// hence identical across back ends, schedulers, worker counts and partitions.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>

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
