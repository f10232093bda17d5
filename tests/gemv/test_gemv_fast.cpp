// The one-call CPU gemv (exstar_cpu_dgemv: core/gemm.h's checked fast path, the exact path for
// what it declines) and the fast sums into bounded double-doubles (exstar_cpu_gemv_state_add):
// bit for bit the MPFR result and the exact-only path, on data built to make the fast path
// decline (a row's scale guess exceeded by later columns, wide exponent ranges, cancellation
// up to cond 1e40, huge/tiny/subnormal, NaN/inf, signed zeros) and on data where it must hold.
// One Catch2 main per program: test_gemv_kernels.cpp, built with CATCH_CONFIG_MAIN, has it.
#undef CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include "tests/gemv/gemv_cases.hpp"
#include "kernels_cpu/gemv.h"
#include "core/checked_round.h"
#include <cmath>
#include <functional>

using namespace exstar_test;

namespace {

// exstar_cpu_dgemv on strided copies of x and y; *repaired: entries not proven by the fast path.
std::vector<double> one_call(const gemv_case &c, int incx, int incy, int exact_only, int64_t *repaired)
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

// Fast path, exact-only path and MPFR agree in every bit; returns the fast path's repairs.
int64_t check_case(const gemv_case &c)
{
  int64_t repaired = 0, total = -1;
  for (auto inc : std::vector<std::pair<int, int>>{{1, 1}, {-2, 3}})
    for (int exact_only : {0, 1}) {
      INFO(c.name << ", incx " << inc.first << ", incy " << inc.second << ", exact_only " << exact_only);
      std::vector<double> got = one_call(c, inc.first, inc.second, exact_only, &repaired);
      REQUIRE(got.size() == c.expected.size());
      for (size_t i = 0; i < got.size(); ++i) {
        INFO("entry " << i << ": got " << got[i] << " expected " << c.expected[i]);
        CHECK(same_bits(got[i], c.expected[i]));
      }
      if (exact_only == 0) total = repaired;
    }
  return total;
}

// A gemv case of op(A) rows given by f(i, j) (row i of op(A), term j): 'N' stores it as is,
// 'T' transposed. x from gx.
gemv_case make_rows(const std::string &name, char tr, int rows, int terms, double alpha, double beta,
                    const std::function<double(int, int)> &f, std::vector<double> x, Rng &rng)
{
  const int m = tr == 'N' ? rows : terms, n = tr == 'N' ? terms : rows;
  auto gen = [&](int) {
    std::vector<double> v((size_t)m * n);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) v[(size_t)i + (size_t)j * m] = tr == 'N' ? f(i, j) : f(j, i);
    return v;
  };
  return make_gemv(std::string(1, tr) + " " + name, tr, m, n, 1, alpha, beta, gen, std::move(x), gemv_y(rows, beta, rng));
}

} // namespace

TEST_CASE("one-call gemv: the fast path proves ordinary rows, and gives the MPFR bits", "[gemv][kernels][fast]")
{
  Rng rng(77);
  for (char tr : {'N', 'T'})
    for (double alpha : {1.0, -0.75, 0x1p-20})
      for (double beta : {0.0, 0.5}) {
        std::vector<double> vals = gen_uniform(203 * 150, rng);
        gemv_case c = make_rows("uniform 203x150", tr, 203, 150, alpha, beta,
                                [&](int i, int j) { return vals[(size_t)i * 150 + j]; }, gen_uniform(150, rng), rng);
        CHECK(check_case(c) <= 2); // a sum within 2^-60 or so of a tie may decline
      }
}

TEST_CASE("one-call gemv: declined rows take the exact path, bit for bit", "[gemv][kernels][fast]")
{
  Rng rng(78);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (char tr : {'N', 'T'}) {
    // every row's later terms outgrow its first 16 (the scale guess): every row declines,
    // the exact lane kernel takes the block
    {
      std::vector<double> v = gen_uniform(40 * 90, rng);
      gemv_case c = make_rows("growing rows", tr, 40, 90, 1.0, 0.0,
                              [&](int i, int j) { return std::ldexp(v[(size_t)i * 90 + j], j / 6); }, gen_uniform(90, rng), rng);
      CHECK(check_case(c) == 40);
    }
    // three rows with one late large term: those alone, one by one (retry, exact)
    {
      std::vector<double> v = gen_uniform(50 * 70, rng);
      gemv_case c = make_rows("three late outliers", tr, 50, 70, 0.3, -1.0, [&](int i, int j) {
        const double a = v[(size_t)i * 70 + j];
        return (i % 17 == 5 && j == 60) ? a * 0x1p40 : a;
      }, gen_uniform(70, rng), rng);
      CHECK(check_case(c) == 3);
    }
    // rows whose first columns are zero (their guess is the largest over all rows)
    {
      std::vector<double> v = gen_uniform(30 * 60, rng);
      gemv_case c = make_rows("zero row starts", tr, 30, 60, 1.0, 0.0, [&](int i, int j) {
        return j < 20 && i % 2 ? 0.0 : std::ldexp(v[(size_t)i * 60 + j], i % 2 ? -30 : 0);
      }, gen_uniform(60, rng), rng);
      check_case(c);
    }
    // wide exponent ranges in A and x
    for (int e : {30, 300, 1000}) {
      std::vector<double> v = gen_exp_spread(33 * 80, -e, e > 1000 ? 1023 : e, rng);
      gemv_case c = make_rows("exponents +-" + std::to_string(e), tr, 33, 80, 1.0, 0.25,
                              [&](int i, int j) { return v[(size_t)i * 80 + j]; }, gen_exp_spread(80, -e, e, rng), rng);
      check_case(c);
    }
    // cancellation: every row a GenSum (x = 1) up to cond 1e40
    for (double cond : {1e10, 1e20, 1e30, 1e40}) {
      std::vector<std::vector<double>> rows;
      for (int r = 0; r < 12; ++r) rows.push_back(gen_sum_cond(64, cond, rng).x);
      gemv_case c = make_rows("GenSum rows cond=" + num(cond), tr, 12, 64, 1.0, 0.0,
                              [&](int i, int j) { return rows[(size_t)i][(size_t)j]; }, std::vector<double>(64, 1.0), rng);
      check_case(c);
      // and GenDot: one row of A against its x
      DotProblem p = gen_dot_cond(64, cond, rng);
      gemv_case d = make_rows("GenDot cond=" + num(cond), tr, 1, 64, 0.1, 0.0,
                              [&](int, int j) { return p.x[(size_t)j]; }, p.y, rng);
      check_case(d);
    }
    // huge and tiny: near DBL_MAX, subnormals, α pushing the result out of range
    for (double alpha : {1.0, 0x1p600, 0x1p-600, 0x1.fffffffffffffp1023}) {
      std::vector<double> big = gen_near_max(20 * 40, rng), sub = gen_subnormal(20 * 40, rng);
      check_case(make_rows("near DBL_MAX alpha=" + num(alpha), tr, 20, 40, alpha, 1.0,
                           [&](int i, int j) { return big[(size_t)i * 40 + j]; }, gen_exp_spread(40, -60, 0, rng), rng));
      check_case(make_rows("subnormal alpha=" + num(alpha), tr, 20, 40, alpha, 0.0,
                           [&](int i, int j) { return sub[(size_t)i * 40 + j]; }, gen_exp_spread(40, -20, 20, rng), rng));
    }
    // NaN and inf after the guess columns, 0 * inf, signed zeros
    {
      std::vector<double> v = gen_uniform(24 * 50, rng);
      gemv_case c = make_rows("late specials", tr, 24, 50, 1.0, 0.0, [&](int i, int j) {
        if (j == 40 && i % 6 == 1) return nan;
        if (j == 41 && i % 6 == 2) return inf;
        if (j == 42 && i % 6 == 3) return -inf;
        if (i % 6 == 4) return j % 2 ? 0.0 : -0.0;
        if (i % 6 == 5) return -0.0;
        return v[(size_t)i * 50 + j];
      }, [&] {
        std::vector<double> x = gen_uniform(50, rng);
        x[45] = 0.0; // 0 * inf where a row has inf at 45? (none: inf at 41, 42)
        return x;
      }(), rng);
      check_case(c);
      std::vector<double> xs = gen_uniform(50, rng);
      xs[30] = inf; // inf in x: every row with a nonzero a(., 30) is inf, with a zero NaN
      gemv_case d = make_rows("inf in x", tr, 24, 50, 1.0, 0.0, [&](int i, int j) {
        return (j == 30 && i % 3 == 0) ? 0.0 : v[(size_t)i * 50 + j];
      }, xs, rng);
      check_case(d);
    }
  }
}

TEST_CASE("gemv state sums: bounded double-doubles that round to the MPFR bits or decline", "[gemv][kernels][fast]")
{
  Rng rng(79);
  for (char tr : {'N', 'T'})
    for (int grow : {0, 1}) {
      const int rows = 37, terms = 70;
      std::vector<double> v = gen_uniform(rows * terms, rng);
      gemv_case c = make_rows(grow ? "growing" : "uniform", tr, rows, terms, -1.0, 0.0, [&](int i, int j) {
        return grow ? std::ldexp(v[(size_t)i * terms + j], j / 6) : v[(size_t)i * terms + j];
      }, gen_uniform(terms, rng), rng);
      INFO(c.name);
      // two calls (terms split in two): the state adds both, the first zeroes it
      std::vector<double> st((size_t)rows * 4, nan(""));
      const int h = terms / 2;
      if (tr == 'N') {
        exstar_cpu_gemv_state_add('N', rows, h, -1.0, c.A.data(), 0, c.lda, c.x.data(), 0, 1, st.data(), 0, 1);
        exstar_cpu_gemv_state_add('N', rows, terms - h, -1.0, c.A.data(), (int64_t)h * c.lda, c.lda, c.x.data(), h, 1,
                                  st.data(), 0, 0);
      } else {
        exstar_cpu_gemv_state_add('T', h, rows, -1.0, c.A.data(), 0, c.lda, c.x.data(), 0, 1, st.data(), 0, 1);
        exstar_cpu_gemv_state_add('T', terms - h, rows, -1.0, c.A.data(), h, c.lda, c.x.data(), h, 1, st.data(), 0, 0);
      }
      int proven = 0;
      for (int i = 0; i < rows; ++i) {
        const exstar_bdd d = {st[4 * i], st[4 * i + 1], st[4 * i + 2], st[4 * i + 3]};
        double y;
        if (exstar_bdd_round(&d, &y)) {
          ++proven;
          INFO("row " << i);
          CHECK(same_bits(y, c.expected[(size_t)i]));
        }
      }
      if (grow)
        CHECK(proven == 0); // every row's guess was exceeded: its bound is NaN
      else
        CHECK(proven >= rows - 2);
    }
}

#include "kernels_cpu/trsv.h"

TEST_CASE("trsv block solve from bounded sums: proves ordinary rows, recomputes declined ones exactly",
          "[trsv][kernels][fast]")
{
  // Two diagonal blocks of a lower (or, transposed, upper-read) system: block 0 from no state,
  // block 1 from the state of block (1, 0)'s terms (exstar_cpu_gemv_state_add, sign -1), as
  // the trsv graph on CPU workers does; MPFR's ref_trsv for the bits.
  Rng rng(80);
  const int n = 160, h = 70;
  for (double cond : {0.0, 1e30}) // 0: diagonally dominant
    for (char tr : {'N', 'T'}) {
      const char uplo = tr == 'N' ? 'L' : 'U'; // op(T) lower either way: forward substitution
      std::vector<double> T;
      if (cond == 0.0) {
        T = gen_uniform(n * n, rng);
        for (int i = 0; i < n; ++i) T[(size_t)i + (size_t)i * n] = 2.0 + std::fabs(T[(size_t)i + (size_t)i * n]);
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            if (i != j) T[(size_t)i + (size_t)j * n] /= 64.0;
      } else {
        T = gen_triangular_cond(uplo, n, cond, 5);
      }
      std::vector<double> b = gen_uniform(n, rng);
      const std::vector<double> want = ref_trsv(uplo, tr, 'N', n, T, n, b);
      std::vector<double> x = b;
      const int trans = tr == 'T';
      exstar_trsv_shape w = {1, trans, 0, n, 0, n};
      exstar_trsv_shape s0 = {1, trans, 0, h, 0, n};
      exstar_trsv_shape s1 = {1, trans, 0, n - h, (int64_t)h + (int64_t)h * n, n};
      int64_t d0 = -1, d1 = -1;
      exstar_cpu_trsv_solve_state(&s0, &w, 0, T.data(), nullptr, x.data(), 0, 1, &d0);
      std::vector<double> st((size_t)(n - h) * 4);
      if (tr == 'N') // rows h.., columns 0..h-1 of T
        exstar_cpu_gemv_state_add('N', n - h, h, -1.0, T.data(), h, n, x.data(), 0, 1, st.data(), 0, 1);
      else // op(T) = T^T: column r of T holds row r of op(T)
        exstar_cpu_gemv_state_add('T', h, n - h, -1.0, T.data(), (int64_t)h * n, n, x.data(), 0, 1, st.data(), 0, 1);
      exstar_cpu_trsv_solve_state(&s1, &w, h, T.data(), st.data(), x.data(), 0, 1, &d1);
      INFO(tr << " cond " << cond << ": declined " << d0 << " + " << d1);
      for (int i = 0; i < n; ++i) {
        INFO("x_" << i << ": " << x[(size_t)i] << " vs " << want[(size_t)i]);
        CHECK(same_bits(x[(size_t)i], want[(size_t)i]));
      }
      if (cond == 0.0)
        CHECK(d0 + d1 <= 2);
      else
        CHECK(d0 + d1 > 0);
    }
}
