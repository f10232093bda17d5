// gemv test problems with their MPFR results (ref_gemv, GemvAlpha::per_term: the definition in
// level2.h). Logical vectors here; tests scatter them with strides.
#pragma once
#include "tests/cases.hpp"
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace exstar_test {

struct gemv_case {
  std::string name;
  char trans;
  int m, n, lda;
  double alpha, beta;
  std::vector<double> A, x, y; // x, y logical (op(A) sizes); y may hold NaN when beta == 0
  std::vector<double> expected;
};

inline int gemv_leny(const gemv_case &c) { return c.trans == 'N' ? c.m : c.n; }
inline int gemv_lenx(const gemv_case &c) { return c.trans == 'N' ? c.n : c.m; }

inline void gemv_finish_case(gemv_case &c)
{
  c.expected = ref_gemv(c.trans, c.m, c.n, c.alpha, c.A, c.lda, c.x, c.beta, c.y, GemvAlpha::per_term);
}

// A (lda x n, rows m..lda-1 filled with NaN: never read) from a generator of m*n values.
template <class Gen>
gemv_case make_gemv(std::string name, char trans, int m, int n, int lda_extra, double alpha, double beta, Gen gen_a,
                    std::vector<double> x, std::vector<double> y)
{
  gemv_case c;
  c.name = std::move(name);
  c.trans = trans;
  c.m = m;
  c.n = n;
  c.lda = (m > 1 ? m : 1) + lda_extra;
  c.alpha = alpha;
  c.beta = beta;
  c.A.assign((size_t)c.lda * (size_t)(n > 0 ? n : 1), std::numeric_limits<double>::quiet_NaN());
  std::vector<double> vals = gen_a(m * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) c.A[(size_t)i + (size_t)j * c.lda] = vals[(size_t)i + (size_t)j * m];
  c.x = std::move(x);
  c.y = std::move(y);
  gemv_finish_case(c);
  return c;
}

inline std::string num(double v)
{
  char b[40];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

// y for beta: NaN-filled when beta == 0 (must not be read), else uniform.
inline std::vector<double> gemv_y(int len, double beta, Rng &rng)
{
  if (beta == 0.0) return std::vector<double>((size_t)len, std::numeric_limits<double>::quiet_NaN());
  return gen_uniform(len, rng);
}

inline std::vector<gemv_case> gemv_cases()
{
  std::vector<gemv_case> cs;
  Rng rng(4242);
  auto uni = [&](int k) { return gen_uniform(k, rng); };
  const double alphas[] = {1.0, -1.0, 0x1p-3, 0.1, 3.0, 0.0, 0x1p600, 0x1p-600};
  const double betas[] = {0.0, 1.0, -1.0, 0.3};
  for (char tr : {'N', 'T'}) {
    const std::string t(1, tr);
    // every alpha x beta on a small random matrix with lda > m
    for (double a : alphas)
      for (double b : betas) {
        int m = 13, n = 9;
        int ly = tr == 'N' ? m : n, lx = tr == 'N' ? n : m;
        cs.push_back(make_gemv(t + " uniform alpha=" + num(a) + " beta=" + num(b), tr, m, n, 3, a, b, uni,
                               gen_exp_spread(lx, -30, 30, rng), gemv_y(ly, b, rng)));
      }
    // shapes: empty, 1x1, single row / column, tall, wide
    for (auto mn : std::vector<std::pair<int, int>>{{0, 5}, {5, 0}, {0, 0}, {1, 1}, {1, 70}, {70, 1}, {130, 3}, {3, 130}})
      for (double b : {0.0, 0.3}) {
        int m = mn.first, n = mn.second;
        int ly = tr == 'N' ? m : n, lx = tr == 'N' ? n : m;
        cs.push_back(make_gemv(t + " shape " + std::to_string(m) + "x" + std::to_string(n) + " beta=" + num(b), tr, m,
                               n, 1, 0.1, b, uni, gen_uniform(lx, rng), gemv_y(ly, b, rng)));
      }
    // ill-conditioned rows (columns for 'T'): GenSum terms times x = 1, and GenDot as 1 x n / n x 1
    for (double cond : {1e16, 1e32}) {
      const int R = 6, L = 40; // R sums of L terms
      const int m = tr == 'N' ? R : L, n = tr == 'N' ? L : R;
      std::vector<double> vals;
      for (int r = 0; r < R; ++r) {
        SumProblem p = gen_sum_cond(L, cond, rng);
        vals.insert(vals.end(), p.x.begin(), p.x.end());
      }
      auto gen_rows = [&, vals](int) { // sum r is row r ('N') or column r ('T')
        std::vector<double> out((size_t)m * n);
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j)
            out[(size_t)i + (size_t)j * m] = tr == 'N' ? vals[(size_t)i * L + j] : vals[(size_t)j * L + i];
        return out;
      };
      int ly = tr == 'N' ? m : n, lx = tr == 'N' ? n : m;
      for (double a : {1.0, 0.1, 0x1p600})
        cs.push_back(make_gemv(t + " GenSum rows cond=" + num(cond) + " alpha=" + num(a), tr, m, n, 0, a, -1.0,
                               gen_rows, std::vector<double>((size_t)lx, 1.0), gen_uniform(ly, rng)));
      DotProblem p = gen_dot_cond(100, cond, rng);
      int dm = tr == 'N' ? 1 : 100, dn = tr == 'N' ? 100 : 1;
      for (double a : {1.0, 3.0, 0x1p-600})
        cs.push_back(make_gemv(t + " GenDot cond=" + num(cond) + " alpha=" + num(a), tr, dm, dn, 0, a, 0.0,
                               [&](int) { return p.x; }, p.y, gemv_y(1, 0.0, rng)));
    }
    // extreme ranges: products of three factors far outside double, results near the edges
    auto spread = [&](int lo, int hi) { return [&, lo, hi](int k) { return gen_exp_spread(k, lo, hi, rng); }; };
    for (double a : {0x1p600, 0x1p-600, 0.1, 0x1.fffffffffffffp1023, 0x1p-1074}) {
      int m = 11, n = 17, ly = tr == 'N' ? m : n, lx = tr == 'N' ? n : m;
      cs.push_back(make_gemv(t + " huge A alpha=" + num(a), tr, m, n, 2, a, 0.3, spread(900, 1023),
                             gen_exp_spread(lx, -700, 200, rng), gemv_y(ly, 0.3, rng)));
      cs.push_back(make_gemv(t + " subnormal A, x alpha=" + num(a), tr, m, n, 2, a, 0.0,
                             [&](int k) { return gen_subnormal(k, rng); }, gen_subnormal(lx, rng), gemv_y(ly, 0.0, rng)));
      cs.push_back(make_gemv(t + " exponents -1074..1023 alpha=" + num(a), tr, m, n, 2, a, -1.0, spread(-1074, 1023),
                             gen_exp_spread(lx, -1074, 1023, rng), gen_exp_spread(ly, -1074, 1023, rng)));
      cs.push_back(make_gemv(t + " near DBL_MAX alpha=" + num(a), tr, m, n, 0, a, 1.0,
                             [&](int k) { return gen_near_max(k, rng); }, gen_exp_spread(lx, -60, 0, rng),
                             gen_near_max(ly, rng)));
    }
    // special values in A, x, y and alpha/beta
    for (double a : {1.0, -1.0, 0.1, 0.0, -0.0, std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()})
      for (double b : {0.0, 0.3}) {
        int m = 23, n = 19, ly = tr == 'N' ? m : n, lx = tr == 'N' ? n : m;
        cs.push_back(make_gemv(t + " specials alpha=" + num(a) + " beta=" + num(b), tr, m, n, 1, a, b,
                               [&](int k) { return gen_special(k, rng, 0.1); }, gen_special(lx, rng, 0.1),
                               b == 0.0 ? gemv_y(ly, 0.0, rng) : gen_special(ly, rng, 0.2)));
      }
    // signed zeros: every term -0 or +0
    {
      int m = 5, n = 4;
      for (double a : {1.0, -1.0, -0.0}) {
        cs.push_back(make_gemv(t + " zeros alpha=" + num(a), tr, m, n, 0, a, -1.0,
                               [&](int k) { return std::vector<double>((size_t)k, -0.0); },
                               std::vector<double>((size_t)(tr == 'N' ? n : m), 2.0),
                               std::vector<double>((size_t)(tr == 'N' ? m : n), 0.0)));
      }
    }
  }
  return cs;
}

} // namespace exstar_test
