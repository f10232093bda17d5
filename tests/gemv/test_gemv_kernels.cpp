// The CPU gemv kernels (fast and reference paths) against MPFR, bit for bit, without StarPU.
#include <catch2/catch.hpp>
#include "tests/gemv/gemv_cases.hpp"
#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cpu/gemv.h"

using namespace exstar_test;

namespace {

// Runs acc + finish with the given kernel on strided copies of x and y.
template <class AccFn>
std::vector<double> run(const gemv_case &c, AccFn acc_fn, int incx, int incy, int splits)
{
  const int lx = gemv_lenx(c), ly = gemv_leny(c);
  std::vector<double> xb((size_t)(lx > 0 ? (lx - 1) * std::abs(incx) + 1 : 0)), yb((size_t)(ly > 0 ? (ly - 1) * std::abs(incy) + 1 : 0));
  if (lx) scatter(c.x, xb.data(), incx);
  if (ly) scatter(c.y, yb.data(), incy);
  std::vector<exstar_i64> acc((size_t)(ly + 1) * EXSTAR_ACC_WORDS);
  exstar_cpu_acc_zero(acc.data(), ly + 1);
  // the inner dimension in `splits` pieces: partial sums add up exactly
  for (int k = 0; k < splits; ++k) {
    const int k0 = lx * k / splits, k1 = lx * (k + 1) / splits, len = k1 - k0;
    if (len == 0 && lx > 0) continue;
    const int64_t offx = len > 0 ? (incx > 0 ? (int64_t)k0 * incx : (int64_t)(lx - k1) * -incx) : 0;
    if (c.trans == 'N')
      acc_fn('N', c.m, len, c.alpha, c.A.data(), (int64_t)k0 * c.lda, c.lda, xb.data(), offx, incx, acc.data(), 1);
    else
      acc_fn('T', len, c.n, c.alpha, c.A.data(), k0, c.lda, xb.data(), offx, incx, acc.data(), 1);
  }
  exstar_cpu_gemv_finish(ly, c.beta, yb.data(), 0, incy, acc.data(), 1);
  return ly ? gather(ly, yb.data(), incy) : std::vector<double>();
}

void check_same(const gemv_case &c, const std::vector<double> &got)
{
  REQUIRE(got.size() == c.expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("entry " << i << ": got " << got[i] << " expected " << c.expected[i]);
    CHECK(same_bits(got[i], c.expected[i]));
  }
}

} // namespace

TEST_CASE("CPU gemv kernels give the MPFR bits", "[gemv][kernels]")
{
  static const std::vector<gemv_case> cases = gemv_cases();
  for (const gemv_case &c : cases)
    for (auto inc : std::vector<std::pair<int, int>>{{1, 1}, {-2, 3}, {3, -1}})
      for (int splits : {1, 3}) {
        INFO(c.name << ", incx " << inc.first << ", incy " << inc.second << ", " << splits << " splits");
        check_same(c, run(c, exstar_cpu_gemv_acc, inc.first, inc.second, splits));
        check_same(c, run(c, exstar_cpu_gemv_acc_ref, inc.first, inc.second, splits));
      }
}

namespace {

// exstar_cpu_dgemv (the whole gemv in one call: checked fast path, exact fallback) on strided
// copies of x and y.
std::vector<double> run_one_call(const gemv_case &c, int incx, int incy, int exact_only, int64_t *repaired)
{
  const int lx = gemv_lenx(c), ly = gemv_leny(c);
  std::vector<double> xb((size_t)(lx > 0 ? (lx - 1) * std::abs(incx) + 1 : 1)),
      yb((size_t)(ly > 0 ? (ly - 1) * std::abs(incy) + 1 : 1));
  if (lx) scatter(c.x, xb.data(), incx);
  if (ly) scatter(c.y, yb.data(), incy);
  *repaired = exstar_cpu_dgemv(c.trans, c.m, c.n, c.alpha, c.A.data(), 0, c.lda, xb.data(), 0, incx, c.beta,
                               yb.data(), 0, incy, exact_only);
  return ly ? gather(ly, yb.data(), incy) : std::vector<double>();
}

} // namespace

TEST_CASE("CPU one-call gemv (checked fast path, exact fallback) gives the MPFR bits", "[gemv][kernels][fast]")
{
  static const std::vector<gemv_case> cases = gemv_cases();
  for (const gemv_case &c : cases)
    for (auto inc : std::vector<std::pair<int, int>>{{1, 1}, {-2, 3}})
      for (int exact_only : {0, 1}) {
        INFO(c.name << ", incx " << inc.first << ", incy " << inc.second << ", exact_only " << exact_only);
        int64_t repaired = 0;
        check_same(c, run_one_call(c, inc.first, inc.second, exact_only, &repaired));
      }
}
