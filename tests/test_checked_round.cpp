// The checked fast rounding (core/checked_round.h: bounded double-double) against MPFR: whenever it accepts, its
// result is RN of the exact value, on every input class; it declines exact ties, zeros and
// specials; and it does accept typical rows (else trsv would silently take the slow path).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/checked_round.h"
#include "tests/cases.hpp"
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
