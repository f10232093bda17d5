// Level-3 test problems with their MPFR results: gemm entries by ref_gemv (GemvAlpha::per_term,
// the definition in level3.h, column by column), trsm columns/rows by ref_trsv_alpha.
#pragma once
#include "tests/cases.hpp"
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace exstar_test {

// A generator of n values of one input class.
using value_gen = std::function<std::vector<double>(int n, Rng &rng)>;

struct value_class {
  std::string name;
  value_gen gen;
};

inline const std::vector<value_class> &level3_classes()
{
  static const std::vector<value_class> cs = {
      {"uniform", [](int n, Rng &r) { return gen_uniform(n, r); }},
      {"wide exponents 2^-1000..2^1000", [](int n, Rng &r) { return gen_exp_spread(n, -1000, 1000, r); }},
      {"overflowing products", [](int n, Rng &r) { return gen_exp_spread(n, 480, 560, r); }},
      {"underflowing products", [](int n, Rng &r) { return gen_exp_spread(n, -560, -480, r); }},
      {"subnormals", [](int n, Rng &r) { return gen_subnormal(n, r); }},
      {"NaN, inf, signed zeros", [](int n, Rng &r) { return gen_special(n, r, 0.1); }},
  };
  return cs;
}

struct gemm_case {
  std::string name;
  char transa, transb;
  int m, n, k, lda, ldb, ldc;
  double alpha, beta;
  std::vector<double> A, B, C; // stored column-major with their ld (padding NaN: never read)
  std::vector<double> expected; // m x n, ld m
};

inline bool l3_trans(char t) { return t == 'T'; }

// op(X)(i, l) of a stored matrix.
inline double op_at(const std::vector<double> &X, int ld, char t, int i, int l)
{
  return l3_trans(t) ? X[(size_t)l + (size_t)i * ld] : X[(size_t)i + (size_t)l * ld];
}

inline void gemm_expect(gemm_case &c)
{
  // op(A) as an m x k matrix, each column j of C by ref_gemv.
  std::vector<double> opa((size_t)std::max(c.m, 1) * (size_t)std::max(c.k, 1), 0.0);
  for (int l = 0; l < c.k; ++l)
    for (int i = 0; i < c.m; ++i) opa[(size_t)i + (size_t)l * c.m] = op_at(c.A, c.lda, c.transa, i, l);
  c.expected.assign((size_t)c.m * c.n, 0.0);
  for (int j = 0; j < c.n; ++j) {
    std::vector<double> x((size_t)c.k), y((size_t)c.m);
    for (int l = 0; l < c.k; ++l) x[(size_t)l] = op_at(c.B, c.ldb, c.transb, l, j);
    for (int i = 0; i < c.m; ++i) y[(size_t)i] = c.C[(size_t)i + (size_t)j * c.ldc];
    std::vector<double> col = ref_gemv('N', c.m, c.k, c.alpha, opa, std::max(c.m, 1), x, c.beta, y, GemvAlpha::per_term);
    for (int i = 0; i < c.m; ++i) c.expected[(size_t)i + (size_t)j * c.m] = col[(size_t)i];
  }
}

// A stored rows x cols matrix with ld = rows + extra, padding NaN, values from gen.
inline std::vector<double> stored_matrix(int rows, int cols, int extra, const value_gen &gen, Rng &rng, int *ld)
{
  *ld = std::max(rows, 1) + extra;
  std::vector<double> X((size_t)*ld * (size_t)std::max(cols, 1), std::numeric_limits<double>::quiet_NaN());
  std::vector<double> v = gen(rows * cols, rng);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) X[(size_t)i + (size_t)j * *ld] = v[(size_t)i + (size_t)j * rows];
  return X;
}

inline gemm_case make_gemm(const std::string &name, char ta, char tb, int m, int n, int k, double alpha, double beta,
                           const value_gen &ga, const value_gen &gb, Rng &rng)
{
  gemm_case c;
  c.name = name;
  c.transa = ta, c.transb = tb, c.m = m, c.n = n, c.k = k, c.alpha = alpha, c.beta = beta;
  c.A = l3_trans(ta) ? stored_matrix(k, m, 2, ga, rng, &c.lda) : stored_matrix(m, k, 2, ga, rng, &c.lda);
  c.B = l3_trans(tb) ? stored_matrix(n, k, 1, gb, rng, &c.ldb) : stored_matrix(k, n, 1, gb, rng, &c.ldb);
  c.ldc = std::max(m, 1) + 3;
  c.C.assign((size_t)c.ldc * (size_t)std::max(n, 1), std::numeric_limits<double>::quiet_NaN());
  if (beta != 0.0) {
    std::vector<double> v = gen_uniform(m * n, rng);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) c.C[(size_t)i + (size_t)j * c.ldc] = v[(size_t)i + (size_t)j * m];
  }
  gemm_expect(c);
  return c;
}

// Rows of op(A) and columns of op(B) that are Ogita-Rump-Oishi dot problems of condition cond
// (entry (i, i) is ill-conditioned), and a row/column pair whose exact sum is 0 (+0 expected).
inline gemm_case make_gemm_cond(double cond, Rng &rng)
{
  const int m = 6, n = 5, k = 40;
  gemm_case c = make_gemm("cond " + std::to_string(cond), 'N', 'N', m, n, k, 1.0, 0.0,
                          [](int q, Rng &r) { return gen_uniform(q, r); }, [](int q, Rng &r) { return gen_uniform(q, r); },
                          rng);
  for (int d = 0; d < 4; ++d) {
    DotProblem p = gen_dot_cond(k, cond, rng);
    for (int l = 0; l < k; ++l) {
      c.A[(size_t)d + (size_t)l * c.lda] = p.x[(size_t)l];
      c.B[(size_t)l + (size_t)d * c.ldb] = p.y[(size_t)l];
    }
  }
  for (int l = 0; l < k; ++l) { // row 4 . column 4 == 0 exactly: halves cancel
    const double v = c.A[(size_t)4 + (size_t)(l % (k / 2)) * c.lda];
    c.A[(size_t)4 + (size_t)l * c.lda] = l < k / 2 ? v : -v;
    c.B[(size_t)l + (size_t)4 * c.ldb] = c.B[(size_t)(l % (k / 2)) + (size_t)4 * c.ldb];
  }
  gemm_expect(c);
  return c;
}

inline std::vector<gemm_case> gemm_cases()
{
  Rng rng(20261123);
  std::vector<gemm_case> cs;
  const value_gen uni = [](int q, Rng &r) { return gen_uniform(q, r); };
  for (const value_class &vc : level3_classes())
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'})
        cs.push_back(make_gemm(vc.name + " " + ta + tb, ta, tb, 7, 5, 33, 1.0, 0.0, vc.gen, vc.name == "uniform" ? uni : vc.gen, rng));
  for (double alpha : {0.0, -1.0, 0.5, 3.0, 1e300})
    for (double beta : {0.0, 1.0, -2.5})
      cs.push_back(make_gemm("alpha " + std::to_string(alpha) + " beta " + std::to_string(beta), 'N', 'T', 9, 4, 17,
                             alpha, beta, uni, uni, rng));
  const int shapes[][3] = {{1, 1, 1}, {33, 17, 65}, {65, 7, 130}, {0, 3, 4}, {3, 0, 2}, {4, 5, 0}, {1, 9, 1}};
  for (const auto &s : shapes)
    cs.push_back(make_gemm("shape " + std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]), 'T',
                           'N', s[0], s[1], s[2], 1.0, 1.0, uni, uni, rng));
  for (double cond : {1e10, 1e25, 1e40}) cs.push_back(make_gemm_cond(cond, rng));
  return cs;
}

struct trsm_case {
  std::string name;
  char side, uplo, transa, diag;
  int m, n, ldt, ldb;
  double alpha;
  std::vector<double> T, B, expected; // expected m x n, ld m
};

inline void trsm_expect(trsm_case &c)
{
  const bool left = c.side == 'L';
  const int N = left ? c.m : c.n, nrhs = left ? c.n : c.m;
  // side R: row x of X solves op(T)^T x = alpha b (trsv with trans flipped)
  const char tr = left ? c.transa : (c.transa == 'N' ? 'T' : 'N');
  c.expected.assign((size_t)c.m * c.n, 0.0);
  for (int v = 0; v < nrhs; ++v) {
    std::vector<double> b((size_t)N);
    for (int i = 0; i < N; ++i) b[(size_t)i] = left ? c.B[(size_t)i + (size_t)v * c.ldb] : c.B[(size_t)v + (size_t)i * c.ldb];
    std::vector<double> x = c.alpha == 0.0 ? std::vector<double>((size_t)N, 0.0)
                                           : ref_trsv_alpha(c.uplo, tr, c.diag, N, c.T, c.ldt, c.alpha, b);
    for (int i = 0; i < N; ++i) (left ? c.expected[(size_t)i + (size_t)v * c.m] : c.expected[(size_t)v + (size_t)i * c.m]) = x[(size_t)i];
  }
}

// T: the triangle from gen, the diagonal uniform in [1, 2) or [-2, -1] (solvable), the other
// triangle NaN (never read).
inline trsm_case make_trsm(const std::string &name, char side, char uplo, char ta, char diag, int m, int n, double alpha,
                           const value_gen &gt, const value_gen &gb, Rng &rng)
{
  trsm_case c;
  c.name = name;
  c.side = side, c.uplo = uplo, c.transa = ta, c.diag = diag, c.m = m, c.n = n, c.alpha = alpha;
  const int N = side == 'L' ? m : n;
  c.ldt = std::max(N, 1) + 1;
  c.T.assign((size_t)c.ldt * (size_t)std::max(N, 1), std::numeric_limits<double>::quiet_NaN());
  std::vector<double> v = gt(N * N, rng), d = gen_uniform(N, rng);
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      if (i == j) c.T[(size_t)i + (size_t)j * c.ldt] = (diag == 'U') ? std::numeric_limits<double>::quiet_NaN()
                                                                       : (d[(size_t)i] < 0 ? d[(size_t)i] - 1.0 : d[(size_t)i] + 1.0);
      else if ((uplo == 'L') == (i > j)) c.T[(size_t)i + (size_t)j * c.ldt] = v[(size_t)i + (size_t)j * N];
    }
  c.B = stored_matrix(m, n, 2, gb, rng, &c.ldb);
  trsm_expect(c);
  return c;
}

inline std::vector<trsm_case> trsm_cases()
{
  Rng rng(11232026);
  std::vector<trsm_case> cs;
  const value_gen uni = [](int q, Rng &r) { return gen_uniform(q, r); };
  const value_gen small = [](int q, Rng &r) { // |t| <= 2^-6: bounded growth over 70 rows
    std::vector<double> v = gen_uniform(q, r);
    for (double &x : v) x = std::ldexp(x, -6);
    return v;
  };
  for (char side : {'L', 'R'})
    for (char uplo : {'L', 'U'})
      for (char ta : {'N', 'T'})
        for (char diag : {'N', 'U'}) {
          const std::string tag = std::string(1, side) + uplo + ta + diag;
          cs.push_back(make_trsm("uniform " + tag, side, uplo, ta, diag, side == 'L' ? 70 : 5, side == 'L' ? 6 : 70, 1.0,
                                 small, uni, rng));
          cs.push_back(make_trsm("alpha 3, specials " + tag, side, uplo, ta, diag, 9, 8, 3.0,
                                 [](int q, Rng &r) { return gen_special(q, r, 0.05); }, uni, rng));
        }
  for (double alpha : {0.0, -1.0, 0.5, 1e-300})
    cs.push_back(make_trsm("alpha " + std::to_string(alpha), 'L', 'L', 'N', 'N', 12, 3, alpha, small, uni, rng));
  cs.push_back(make_trsm("wide exponents", 'L', 'U', 'N', 'N', 20, 4, 1.0,
                         [](int q, Rng &r) { return gen_exp_spread(q, -400, 400, r); },
                         [](int q, Rng &r) { return gen_exp_spread(q, -400, 400, r); }, rng));
  cs.push_back(make_trsm("1x1", 'R', 'L', 'T', 'N', 1, 1, 2.0, uni, uni, rng));
  cs.push_back(make_trsm("empty", 'L', 'L', 'N', 'N', 0, 3, 1.0, uni, uni, rng));
  return cs;
}

} // namespace exstar_test
