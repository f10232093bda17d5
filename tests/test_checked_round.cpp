// The checked fast rounding (core/checked_round.h: bounded double-double) against MPFR: whenever it accepts, its
// result is RN of the exact value, on every input class; it declines exact ties, zeros and
// specials; and it does accept typical rows (else trsv would silently take the slow path).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/checked_round.h"
#include "tests/cases.hpp"
#include "mpfr_value.hpp"
#include <cmath>
#include <utility>
#include <vector>

using namespace exstar_test;

namespace {

using acc_t = std::vector<exstar_i64>;

// A row as trsv sees it: an accumulator holding the exact Σ x_i·y_i of the first `split`
// terms (normalized or as raw digit sums), the rest entering the bounded double-double as
// products (the last one as a plain sum term when last_separate and its y is 1; through
// exstar_bdd_last_value and its later check exstar_bdd_last_ok when last_chain, as the CUDA
// trsv's serial chain takes a row's last term).
struct attempt {
  bool accepted;
  double value;
};

attempt checked_value(const std::vector<double> &x, const std::vector<double> &y, size_t split, bool normalize,
                      bool last_separate = false, bool last_chain = false)
{
  acc_t acc(EXSTAR_ACC_WORDS, 0);
  for (size_t i = 0; i < split; ++i) { // raw digit sums: the form a REDUX merge leaves
    double fpe[EXSTAR_FPE_N] = {};
    exstar_acc_add_flags_cpu(acc.data(), exstar_dot_step_cpu(acc.data(), fpe, x[i], y[i]));
    exstar_acc_flush_fpe_cpu(acc.data(), fpe);
  }
  if (normalize) exstar_acc_normalize_cpu(acc.data());
  exstar_bdd d;
  attempt a{false, 0.0};
  if (!exstar_bdd_init_acc(acc.data(), &d)) return a;
  const bool chain = last_chain && split < x.size();
  const size_t end = chain ? x.size() - 1 : x.size();
  for (size_t i = split; i < end; ++i)
    if (!(last_separate && i + 1 == x.size() && y[i] == 1.0 ? exstar_bdd_add(&d, x[i])
                                                             : exstar_bdd_add_product(&d, x[i], y[i])))
      return a;
  if (chain) {
    a.value = exstar_bdd_last_value(&d, x[end], y[end]);
    a.accepted = exstar_bdd_last_ok(&d, x[end], y[end], a.value) != 0;
    return a;
  }
  a.accepted = exstar_bdd_round(&d, &a.value) != 0;
  return a;
}

std::vector<double> ones(size_t n) { return std::vector<double>(n, 1.0); }

} // namespace

TEST_CASE("an accepted checked rounding is RN of the exact value (MPFR), every input class", "[core][checked]")
{
  int accepted = 0, tried = 0;
  for (const reduction_case &c : dot_cases(false))
    for (size_t split : {size_t(0), c.x.size() / 3, c.x.size()})
      for (int variant = 0; variant < 8; ++variant) {
        const bool normalize = variant & 1, last_separate = variant & 2, last_chain = variant & 4;
        attempt a = checked_value(c.x, c.y, split, normalize, last_separate, last_chain);
        ++tried;
        if (!a.accepted) continue;
        ++accepted;
        INFO(c.name << ", split " << split << ", normalized " << normalize << ", last separate " << last_separate
                    << ", last chained " << last_chain);
        CHECK(same_bits(a.value, c.expected));
      }
  INFO(accepted << " of " << tried << " accepted");
  CHECK(accepted > 0);
}

TEST_CASE("rows of well-scaled random terms take the fast path", "[core][checked]")
{
  Rng rng(7);
  for (int n : {1, 2, 16, 255, 1000})
    for (size_t split : {size_t(0), size_t(n / 2), size_t(n)}) {
      std::vector<double> x = gen_uniform(n, rng), y = gen_uniform(n, rng);
      for (bool chain : {false, true}) {
        attempt a = checked_value(x, y, split, false, n % 2 == 0, chain);
        INFO("n = " << n << ", split " << split << ", last chained " << chain);
        REQUIRE(a.accepted);
        CHECK(same_bits(a.value, ref_dot(x, y)));
      }
    }
}

TEST_CASE("exact ties, zeros and special values are declined", "[core][checked]")
{
  // 2^53 + 1 lies exactly between two doubles; split between accumulator and FPE either way
  const std::vector<double> tie = {0x1p53, 1.0};
  const std::vector<double> zero = {1.5, -1.5};
  for (bool chain : {false, true})
    for (size_t split : {size_t(0), size_t(1), size_t(2)}) {
      CHECK_FALSE(checked_value(tie, ones(2), split, true, false, chain).accepted);
      CHECK_FALSE(checked_value(zero, ones(2), split, true, false, chain).accepted);
    }
  const double inf = HUGE_VAL;
  for (const std::vector<double> &x : {std::vector<double>{1.0, inf}, std::vector<double>{1.0, std::nan("")},
                                       std::vector<double>{0x1p-1000, 0x1p-1000}, std::vector<double>{0x1p1010, 1.0}})
    for (size_t split : {size_t(0), size_t(1), size_t(2)})
      for (bool chain : {false, true}) {
        attempt a = checked_value(x, ones(2), split, true, false, chain);
        if (a.accepted) CHECK(same_bits(a.value, ref_sum(x))); // never accepted wrongly
      }
}

TEST_CASE("values a hair off a tie round the right way or are declined", "[core][checked]")
{
  for (int e = 54; e <= 160; e += 7) {
    for (double sgn : {1.0, -1.0}) {
      // 2^53 + 1 ± 2^-e·2^53, one part in the accumulator, the rest as products
      const std::vector<double> x = {0x1p53, 1.0, sgn * std::ldexp(1.0, 53 - e)};
      for (size_t split : {size_t(0), size_t(1), size_t(2), size_t(3)})
        for (bool chain : {false, true}) {
          attempt a = checked_value(x, ones(3), split, true, split == 1, chain);
          INFO("e = " << e << ", sign " << sgn << ", split " << split << ", last chained " << chain);
          if (a.accepted) CHECK(same_bits(a.value, ref_sum(x)));
        }
    }
  }
}

namespace {

// RN(sqrt(Σ a_k·b_k)) by MPFR for a positive sum in the normal range: the exact sum (the few
// terms here span far less than 4200 bits), one rounding of its root.
double mpfr_root(const std::vector<std::pair<double, double>> &terms)
{
  MpfrValue s(4200), p(120), r(53);
  mpfr_set_zero(s.get(), 1);
  for (const auto &t : terms) {
    mpfr_set_d(p.get(), t.first, MPFR_RNDN);
    mpfr_mul_d(p.get(), p.get(), t.second, MPFR_RNDN); // 106 bits: exact
    mpfr_add(s.get(), s.get(), p.get(), MPFR_RNDN);
  }
  mpfr_sqrt(r.get(), s.get(), MPFR_RNDN);
  return mpfr_get_d(r.get(), MPFR_RNDN);
}

// The checked root of Σ a_k·b_k through a bounded double-double: accepted or not, and its value.
attempt checked_root(const std::vector<std::pair<double, double>> &terms)
{
  exstar_bdd d{0.0, 0.0, 0.0, 0.0};
  attempt a{false, 0.0};
  for (const auto &t : terms)
    if (!exstar_bdd_add_product(&d, t.first, t.second)) return a;
  a.accepted = exstar_bdd_sqrt_ok(&d, &a.value) != 0;
  return a;
}

} // namespace

TEST_CASE("an accepted checked root is RN of the exact value's root (MPFR), and typical roots are accepted",
          "[core][checked][sqrt]")
{
  Rng rng(4141);
  int accepted = 0, tried = 0;
  for (int rep = 0; rep < 3000; ++rep) {
    // a Cholesky pivot's value: a − Σ l_k², a dominant (exponents spread as the class says)
    const int n = 1 + (int)rand_below(rng, 24), spread = rep % 3 == 0 ? 0 : rep % 3 == 1 ? 20 : 400;
    const int e0 = spread ? (int)rand_below(rng, (uint64_t)spread) - spread / 2 : 0;
    std::vector<std::pair<double, double>> t;
    const double a = std::ldexp(1.0 + (double)rand_below(rng, 1u << 30) * 0x1p-30, 2 * e0) * (double)n;
    t.push_back({a, 1.0});
    for (int k = 0; k < n; ++k) {
      const double l = gen_uniform(1, rng)[0] * std::ldexp(0.9, e0);
      t.push_back({-l, l});
    }
    const attempt c = checked_root(t);
    ++tried;
    if (!c.accepted) continue;
    ++accepted;
    INFO("case " << rep << ", " << n << " terms");
    CHECK(same_bits(c.value, mpfr_root(t)));
  }
  INFO(accepted << " of " << tried << " accepted");
  CHECK(accepted > tried * 9 / 10);
}

TEST_CASE("checked roots at and a hair off a midpoint's square decide right or decline", "[core][checked][sqrt]")
{
  Rng rng(4242);
  int accepted = 0;
  for (int rep = 0; rep < 400; ++rep) {
    // m = y + h, the midpoint above y: m² = y·y + y·2h + h·h exactly, as three exact terms
    const int e = (int)rand_below(rng, 1200) - 600;
    const double y = std::ldexp(1.0 + (double)rand_below(rng, 1u << 30) * 0x1p-30, e);
    const double h = exstar_half_gap(y);
    std::vector<std::pair<double, double>> t = {{y, y}, {y, 2.0 * h}, {h, h}};
    CHECK_FALSE(checked_root(t).accepted); // an exact tie is never accepted
    for (int k : {0, 40, 60, 100, 104, 106, 110, 150}) {
      for (double sign : {1.0, -1.0}) {
        std::vector<std::pair<double, double>> u = t;
        u.push_back({sign * std::ldexp(y, -k), y});
        const attempt c = checked_root(u);
        if (!c.accepted) continue;
        ++accepted;
        INFO("y " << y << ", perturbation 2^-" << k << " y², sign " << sign);
        CHECK(same_bits(c.value, mpfr_root(u)));
      }
    }
  }
  CHECK(accepted > 0);
}

TEST_CASE("checked roots of zero, negative and special values are declined", "[core][checked][sqrt]")
{
  double y;
  for (double v : {0.0, -0.0, -1.0, -0x1p-1000, std::nan(""), (double)INFINITY, -(double)INFINITY, 0x1p-1000, 0x1p1000}) {
    exstar_bdd d{v, 0.0, 0.0, 0.0};
    INFO(v);
    CHECK_FALSE(exstar_bdd_sqrt_ok(&d, &y));
  }
  exstar_bdd wide{1.0, 0.0, 0x1p-20, 0.0}; // a bound wider than the rounding interval
  CHECK_FALSE(exstar_bdd_sqrt_ok(&wide, &y));
  exstar_bdd four{4.0, 0.0, 0.0, 0.0};
  REQUIRE(exstar_bdd_sqrt_ok(&four, &y));
  CHECK(y == 2.0);
}
