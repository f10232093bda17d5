// The input classes every reduction test runs on, each with its MPFR reference result.
#pragma once
#include "generators.hpp"
#include "oracle.hpp"
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace exstar_test {

struct reduction_case {
  std::string name;
  std::vector<double> x, y; // y empty for sums
  double expected;          // RN of the exact value (MPFR)
};

inline std::uint64_t bits_of(double d)
{
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// Bitwise equality, NaNs all equal (their payload is not part of the contract).
inline bool same_bits(double a, double b)
{
  return (std::isnan(a) && std::isnan(b)) || bits_of(a) == bits_of(b);
}

inline std::vector<reduction_case> dot_cases(bool large)
{
  std::vector<reduction_case> cs;
  Rng rng(20261122);
  auto add = [&](std::string name, std::vector<double> x, std::vector<double> y) {
    double e = ref_dot(x, y);
    cs.push_back({std::move(name), std::move(x), std::move(y), e});
  };
  for (int n : {0, 1, 2, 7, 1001})
    add("uniform n=" + std::to_string(n), gen_uniform(n, rng), gen_uniform(n, rng));
  if (large) add("uniform n=1000003", gen_uniform(1000003, rng), gen_uniform(1000003, rng));
  for (double cond : {1e3, 1e8, 1e16, 1e24, 1e32, 1e40}) {
    DotProblem p = gen_dot_cond(200, cond, rng);
    char name[64];
    std::snprintf(name, sizeof name, "GenDot cond=%.0e (achieved %.1e)", cond, p.cond);
    add(name, p.x, p.y);
  }
  add("exponents -1000..1000", gen_exp_spread(999, -1000, 1000, rng), gen_exp_spread(999, -60, 60, rng));
  add("exponents -520..511 (products span all)", gen_exp_spread(777, -520, 511, rng), gen_exp_spread(777, -555, 511, rng));
  add("subnormal x subnormal", gen_subnormal(300, rng), gen_subnormal(300, rng));
  add("subnormal x huge", gen_subnormal(300, rng), gen_exp_spread(300, 900, 1023, rng));
  add("near DBL_MAX x ones", gen_near_max(100, rng), std::vector<double>(100, 1.0));
  add("near DBL_MAX x near DBL_MAX", gen_near_max(100, rng), gen_near_max(100, rng));
  add("specials", gen_special(500, rng), gen_special(500, rng, 0.05));
  for (const DotCase &c : extreme_dot_cases()) cs.push_back({"extreme: " + c.name, c.x, c.y, c.expected});
  for (const DotCase &c : special_dot_cases()) cs.push_back({"special: " + c.name, c.x, c.y, c.expected});
  return cs;
}

inline std::vector<reduction_case> sum_cases(bool large)
{
  std::vector<reduction_case> cs;
  Rng rng(314159);
  auto add = [&](std::string name, std::vector<double> x) {
    double e = ref_sum(x);
    cs.push_back({std::move(name), std::move(x), {}, e});
  };
  for (int n : {0, 1, 2, 7, 1001}) add("uniform n=" + std::to_string(n), gen_uniform(n, rng));
  if (large) add("uniform n=1000003", gen_uniform(1000003, rng));
  for (double cond : {1e3, 1e16, 1e40}) {
    SumProblem p = gen_sum_cond(300, cond, rng);
    add("GenSum cond=" + std::to_string(cond), p.x);
  }
  add("cancellation to 2^-1074", gen_sum_cancel(1001, 0x1p-1074, -1074, 1023, rng));
  add("cancellation to 1", gen_sum_cancel(1001, 1.0, -100, 100, rng));
  add("exponents -1074..1023", gen_exp_spread(2000, -1074, 1023, rng));
  add("subnormals", gen_subnormal(1000, rng));
  add("near DBL_MAX (overflow)", gen_near_max(10, rng));
  add("specials", gen_special(500, rng));
  for (const DotCase &c : extreme_dot_cases()) {
    bool ones = true;
    for (double v : c.y) ones = ones && v == 1.0;
    if (ones) cs.push_back({"extreme: " + c.name, c.x, {}, c.expected});
  }
  for (const DotCase &c : special_dot_cases()) {
    bool ones = true;
    for (double v : c.y) ones = ones && v == 1.0;
    if (ones) cs.push_back({"special: " + c.name, c.x, {}, c.expected});
  }
  return cs;
}

} // namespace exstar_test
