// The exact core on the CPU kernels, bit for bit against MPFR: every input class, every
// stride, every split of the data into accumulators that are then merged.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include "kernels_cpu/kernels_cpu.h"
#include "tests/cases.hpp"
#include <vector>

using namespace exstar_test;

namespace {

using acc_t = std::vector<exstar_i64>;

acc_t zero_acc() { return acc_t(EXSTAR_ACC_WORDS, 0); }

double cpu_dot(const std::vector<double> &x, const std::vector<double> &y, bool ref = false)
{
  acc_t acc = zero_acc();
  int64_t n = (int64_t)x.size();
  if (ref) exstar_cpu_dot_ref(n, x.data(), 0, 1, y.data(), 0, 1, acc.data());
  else exstar_cpu_dot(n, x.data(), 0, 1, y.data(), 0, 1, acc.data());
  return exstar_cpu_acc_round(acc.data());
}

double cpu_sum(const std::vector<double> &x, bool ref = false)
{
  acc_t acc = zero_acc();
  if (ref) exstar_cpu_sum_ref((int64_t)x.size(), x.data(), 0, 1, acc.data());
  else exstar_cpu_sum((int64_t)x.size(), x.data(), 0, 1, acc.data());
  return exstar_cpu_acc_round(acc.data());
}

// Stores v with stride inc (BLAS order) after `off` leading elements of padding (NaN, so a
// wrong index shows).
std::vector<double> strided(const std::vector<double> &v, int off, int inc)
{
  int n = (int)v.size();
  int a = inc < 0 ? -inc : inc;
  std::vector<double> buf(off + (n ? (n - 1) * a + 1 : 0), std::nan(""));
  for (int i = 0; i < n; ++i) buf[off + (inc > 0 ? i * a : (n - 1 - i) * a)] = v[i];
  return buf;
}

} // namespace

TEST_CASE("dot is RN of the exact sum of products (MPFR), fast and reference paths", "[core][dot]")
{
  for (const reduction_case &c : dot_cases(true)) {
    INFO(c.name);
    CHECK(same_bits(cpu_dot(c.x, c.y), c.expected));
    CHECK(same_bits(cpu_dot(c.x, c.y, true), c.expected));
  }
}

TEST_CASE("sum is RN of the exact sum (MPFR), fast and reference paths", "[core][sum]")
{
  for (const reduction_case &c : sum_cases(true)) {
    INFO(c.name);
    CHECK(same_bits(cpu_sum(c.x), c.expected));
    CHECK(same_bits(cpu_sum(c.x, true), c.expected));
  }
}

TEST_CASE("the order of the terms never changes the result", "[core][permutation]")
{
  Rng rng(7);
  for (const reduction_case &c : dot_cases(false)) {
    INFO(c.name);
    for (int k = 0; k < 3; ++k) {
      std::vector<int> p = random_permutation((int)c.x.size(), rng);
      CHECK(same_bits(cpu_dot(permuted(c.x, p), permuted(c.y, p)), c.expected));
      CHECK(same_bits(cpu_sum(permuted(c.x, p)), ref_sum(c.x)));
    }
  }
}

TEST_CASE("strides, negative strides and offsets select the BLAS elements", "[core][strides]")
{
  Rng rng(11);
  std::vector<double> x = gen_exp_spread(301, -300, 300, rng), y = gen_exp_spread(301, -300, 300, rng);
  for (int incx : {1, 2, -1, -3})
    for (int incy : {1, 3, -2}) {
      INFO("incx=" << incx << " incy=" << incy);
      std::vector<double> bx = strided(x, 5, incx), by = strided(y, 2, incy);
      acc_t acc = zero_acc();
      exstar_cpu_dot((int64_t)x.size(), bx.data(), 5, incx, by.data(), 2, incy, acc.data());
      CHECK(same_bits(exstar_cpu_acc_round(acc.data()), ref_dot(x, y)));
      acc_t sacc = zero_acc();
      exstar_cpu_sum((int64_t)x.size(), bx.data(), 5, incx, sacc.data());
      CHECK(same_bits(exstar_cpu_acc_round(sacc.data()), ref_sum(x)));
    }
}

TEST_CASE("splitting into accumulators and merging them in any order gives the same bits", "[core][merge]")
{
  Rng rng(13);
  for (const reduction_case &c : dot_cases(false)) {
    INFO(c.name);
    int64_t n = (int64_t)c.x.size();
    for (int parts : {2, 3, 17}) {
      std::vector<acc_t> accs(parts, zero_acc());
      for (int k = 0; k < parts; ++k) {
        int64_t b = n * k / parts, e = n * (k + 1) / parts;
        exstar_cpu_dot(e - b, c.x.data(), b, 1, c.y.data(), b, 1, accs[k].data());
      }
      std::vector<int> order = random_permutation(parts, rng);
      acc_t total = zero_acc();
      for (int k : order) exstar_cpu_acc_merge(total.data(), accs[k].data(), 1);
      CHECK(same_bits(exstar_cpu_acc_round(total.data()), c.expected));
    }
  }
}

TEST_CASE("an accumulator absorbs the exact overflow and underflow of products", "[core][range]")
{
  // (2^1000, -2^1000, 1) . (2^100, 2^100, 1) = 1 although 2^1100 overflows double.
  CHECK(cpu_dot({0x1p1000, -0x1p1000, 1.0}, {0x1p100, 0x1p100, 1.0}) == 1.0);
  // 2^-1074 * 2^-1074 is far below the subnormals, yet it decides a tie.
  CHECK(cpu_dot({1.0, 0x1p-53, 0x1p-1074}, {1.0, 1.0, 0x1p-1074}) == 1.0 + 0x1p-52);
  CHECK(cpu_dot({1.0, 0x1p-53, -0x1p-1074}, {1.0, 1.0, 0x1p-1074}) == 1.0);
}
