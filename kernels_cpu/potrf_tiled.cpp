// The tiled exact Cholesky's CPU panel: the left-looking chain of its definition on one block
// column. As the LU's panel (kernels_cpu/lu_tiled.cpp), the columns go by groups of kGroup:
// before a group, the terms of the panel's columns already done enter the states of the group's
// columns at Level-3 speed, and each entry adds only the group's own terms. There is no pivot,
// so no row ever moves: the rows of L left of the panel are read from the column copies at their
// own index.
#include "kernels_cpu/potrf_tiled.h"
#include "kernels_cpu/tiled_entries.h"
#include "core/sqrt.h"
#include <vector>

using exstar_gemm::view;
using exstar_tiled::checked_sum;
using exstar_tiled::exact_sum;
using exstar_tiled::state_update;

namespace {

constexpr int64_t kGroup = 16;

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// RN(sqrt(a − Σ_{k<kend} l(k)²)), the sum exact: a root is never taken of a rounded value.
template <class L>
double exact_root(double a, int64_t kend, const L &l)
{
  exstar_i64 acc[EXSTAR_ACC_WORDS] = {}, work[EXSTAR_ACC_WORDS];
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = exstar_sum_step_cpu(acc, fpe, a);
  for (int64_t k = 0; k < kend; ++k) flags |= exstar_dot_step_cpu(acc, fpe, -l(k), l(k));
  exstar_acc_flush_fpe_cpu(acc, fpe);
  exstar_acc_add_flags_cpu(acc, flags);
  return exstar_acc_round_sqrt_private(acc, work);
}

// The panel gathered: rows [c0, n) x columns [c0, c1) of the tiles and their states.
struct panel {
  const exstar_tile_view &v;
  int64_t c0, c1, rows;
  std::vector<double> P;
  std::vector<exstar_bdd> S;
  double &a(int64_t i, int64_t j) { return P[(size_t)((i - c0) + (j - c0) * rows)]; }
  exstar_bdd &s(int64_t i, int64_t j) { return S[(size_t)((i - c0) + (j - c0) * rows)]; }
  // Entry (i, j) of the tiles (r >= c0, c in the panel) and of its state.
  double &tile(int64_t r, int64_t c) const
  {
    const int64_t t = r / v.nb + (c / v.nb) * v.mt;
    return v.a[t][(r % v.nb) + (c % v.nb) * v.lda[t]];
  }
  exstar_bdd tile_state(int64_t r, int64_t c) const
  {
    const int64_t t = r / v.nb + (c / v.nb) * v.mt;
    return *(const exstar_bdd *)&v.st[t][(r % v.nb) + (c % v.nb) * v.ldst[t]];
  }
  // L(r, k) for k left of the panel, from the column copy of its block column.
  double left(int64_t r, int64_t k) const
  {
    const int64_t L = k / v.nb;
    return v.lc[L][(r - L * v.nb) + (k - L * v.nb) * v.ldlc[L]];
  }
  // L(r, k) for any k < c1: left of the panel, or in it.
  double l(int64_t r, int64_t k) { return k < c0 ? left(r, k) : a(r, k); }
};

} // namespace

int64_t exstar_cpu_potrf_panel(const exstar_tile_view *v, int64_t K, int32_t *fail, int exact_only)
{
  const int64_t n = v->n;
  panel p{*v, K * v->nb, min64(n, K * v->nb + v->nb), n - K * v->nb, {}, {}};
  const int64_t c0 = p.c0, w = p.c1 - c0;
  p.P.resize((size_t)(p.rows * w));
  p.S.resize(p.P.size());
  for (int64_t j = c0; j < p.c1; ++j)
    for (int64_t i = j; i < n; ++i) p.a(i, j) = p.tile(i, j), p.s(i, j) = p.tile_state(i, j);
  int64_t repaired = 0;
  for (int64_t g0 = c0; g0 < p.c1; g0 += kGroup) {
    const int64_t g1 = min64(p.c1, g0 + kGroup);
    // the group's columns, rows >= g0, take the terms of the panel's columns [c0, g0):
    // st(i, j) −= Σ_k L(i, k)·L(j, k)
    state_update(n - g0, g1 - g0, g0 - c0, view{p.P.data(), g0 - c0, 1, p.rows},
                 view{p.P.data(), g0 - c0, p.rows, 1}, &p.s(g0, g0), 1, p.rows);
    for (int64_t j = g0; j < g1; ++j) {
      const double ljj = exact_root(p.a(j, j), j, [&](int64_t k) { return p.l(j, k); });
      fail[j - c0] = ljj > 0.0 ? 0 : 1;
      p.a(j, j) = ljj;
      for (int64_t i = j + 1; i < n; ++i) {
        double y;
        if (exact_only || !checked_sum(p.s(i, j), g0, j, [&](int64_t k) { return p.a(i, k); },
                                       [&](int64_t k) { return p.a(j, k); }, &y)) {
          ++repaired;
          y = exact_sum(p.a(i, j), j, [&](int64_t k) { return p.l(i, k); }, [&](int64_t k) { return p.l(j, k); });
        }
        p.a(i, j) = y / ljj;
      }
    }
  }
  for (int64_t j = c0; j < p.c1; ++j)
    for (int64_t i = j; i < n; ++i) p.tile(i, j) = p.a(i, j);
  if (v->lc && v->lc[K]) // the column copy the updates and the later panels read
    for (int64_t j = c0; j < p.c1; ++j)
      for (int64_t i = c0; i < n; ++i) v->lc[K][(i - c0) + (j - c0) * v->ldlc[K]] = i >= j ? p.a(i, j) : 0.0;
  return repaired;
}
