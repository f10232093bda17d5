// Exact trsm on the CPU: every column (side L) or row (side R) of X is exstar_dtrsv's result for
// it. Blocks of rows in substitution order: each (row, right-hand side) starts a bounded
// double-double at alpha*b, takes the solved blocks' terms through the gemm fast sums and the
// block's own terms one by one, and is rounded when the bound proves it; a declined row is
// recomputed from all its terms through the exact path. Both are RN of the same exact value.
#include "kernels_cpu/gemm.h"
#include "kernels_cpu/gemm_sums.h"
#include "kernels_cpu/gemm_exact.h"

using namespace exstar_gemm;

namespace {

// Rows of a block solved by the fast path; the off-block terms go through the gemm fast sums.
constexpr int64_t kBlock = 64;

bool is(char c, char u) { return c == u || c == u + ('a' - 'A'); }

// The system in substitution terms: N unknowns per right-hand side, op_e(T)(i, j) = Te.at(i, j),
// x_v(i) = X[off + i*es + v*vs]; forward when op_e(T) is lower.
struct tri_system {
  int64_t N, nrhs;
  view Te;
  double *X;
  int64_t off, es, vs;
  bool forward, unit;
  double &x(int64_t i, int64_t v) const { return X[off + i * es + v * vs]; }
  // The solved unknowns row i's sum runs over: [j0, j0 + cnt).
  void earlier(int64_t i, int64_t *j0, int64_t *cnt) const
  {
    *j0 = forward ? 0 : i + 1;
    *cnt = forward ? i : N - 1 - i;
  }
};

// x_v(i) from the exact numerator RN(alpha*b_i - sum of its earlier terms); b_i is still in x.
double exact_row(const tri_system &s, int64_t i, int64_t v, double alpha, exstar_i64 *acc)
{
  int64_t j0, cnt;
  s.earlier(i, &j0, &cnt);
  for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) acc[w] = 0;
  exstar_gemm_add_terms_cpu(acc, cnt, -1.0, s.Te.p, s.Te.off + i * s.Te.rs + j0 * s.Te.cs, s.Te.cs, s.X,
                            s.off + j0 * s.es + v * s.vs, s.es);
  exstar_acc_add_beta_y_cpu(acc, alpha, s.x(i, v));
  return exstar_acc_round_private(acc);
}

// Rows [lo, hi) of every right-hand side, the unknowns outside them solved.
int64_t solve_block(const tri_system &s, int64_t lo, int64_t hi, double alpha, bool exact_only)
{
  const int64_t bs = hi - lo, nrhs = s.nrhs;
  std::vector<exstar_bdd> st((size_t)(bs * nrhs));
  std::vector<unsigned char> ok((size_t)(bs * nrhs), exact_only ? 0 : 1);
  if (!exact_only) {
    for (int64_t v = 0; v < nrhs; ++v)
      for (int64_t r = 0; r < bs; ++r) {
        exstar_bdd &d = st[(size_t)(r + v * bs)];
        d.hi = d.lo = d.err = d.mag = 0.0;
        ok[(size_t)(r + v * bs)] = (unsigned char)exstar_bdd_add_product(&d, alpha, s.x(lo + r, v));
      }
    const int64_t s0 = s.forward ? 0 : hi, ks = s.forward ? lo : s.N - hi;
    if (ks > 0) {
      sums f;
      fast_sums(bs, nrhs, ks, view{s.Te.p, s.Te.off + lo * s.Te.rs + s0 * s.Te.cs, s.Te.rs, s.Te.cs},
                view{s.X, s.off + s0 * s.es, s.es, s.vs}, f);
      for (int64_t v = 0; v < nrhs; ++v)
        for (int64_t r = 0; r < bs; ++r) {
          const size_t x = (size_t)(r + v * bs);
          exstar_gemm_state_add(&st[x], f.S[x], f.R[x], f.bound(r, v), -1.0);
        }
    }
  }
  int64_t repaired = 0;
  exstar_i64 acc[EXSTAR_ACC_WORDS];
  for (int64_t step = 0; step < bs; ++step) {
    const int64_t i = s.forward ? lo + step : hi - 1 - step;
    const int64_t b0 = s.forward ? lo : i + 1, b1 = s.forward ? i : hi; // in-block solved unknowns
    const double tii = s.unit ? 1.0 : s.Te.at(i, i);
    for (int64_t v = 0; v < nrhs; ++v) {
      const size_t x = (size_t)(i - lo + v * bs);
      double num = 0.0;
      bool good = ok[x];
      if (good) {
        exstar_bdd d = st[x];
        int fine = 1;
        for (int64_t j = b0; j < b1; ++j) fine &= exstar_bdd_add_product(&d, -s.Te.at(i, j), s.x(j, v));
        good = fine & exstar_bdd_round_ok(&d, &num);
      }
      if (!good) {
        num = exact_row(s, i, v, alpha, acc);
        ++repaired;
      }
      s.x(i, v) = s.unit ? num : num / tii;
    }
  }
  return repaired;
}

} // namespace

int64_t exstar_cpu_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                         const double *T, int64_t offt, int64_t ldt, double *B, int64_t offb, int64_t ldb,
                         int exact_only)
{
  if (m <= 0 || n <= 0) return 0;
  if (alpha == 0.0) {
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) B[offb + i + j * ldb] = 0.0;
    return 0;
  }
  const bool left = is(side, 'L');
  const bool trans_e = left == (is(transa, 'T') || is(transa, 'C')); // side R transposes op(T)
  tri_system s;
  s.N = left ? m : n;
  s.nrhs = left ? n : m;
  s.Te = op_view(trans_e ? 'T' : 'N', T, offt, ldt);
  s.X = B, s.off = offb, s.es = left ? 1 : ldb, s.vs = left ? ldb : 1;
  s.forward = is(uplo, 'L') != trans_e;
  s.unit = is(diag, 'U');
  int64_t repaired = 0;
  for (int64_t b = 0; b < s.N; b += kBlock) {
    const int64_t len = s.N - b < kBlock ? s.N - b : kBlock;
    const int64_t lo = s.forward ? b : s.N - b - len;
    repaired += solve_block(s, lo, lo + len, alpha, exact_only != 0);
  }
  return repaired;
}
