// The tiled exact LU's CPU kernels: the panel (the unblocked chain on a block column, each entry
// from its tile state plus the panel's own terms, checked, or exact), block rows of U, and the
// row interchanges on block columns.
//
// Inside a panel and a block row of U the terms are added by groups: before a group of kGroup
// columns (panel) or rows (U), the terms of the columns (rows) already done go into the entries'
// states through the Level-3 fast sums (core/gemm.h); only the group's own terms are added one
// by one. Where a bound declines, the entry is computed from all its terms exactly.
#include "kernels_cpu/lu_tiled.h"
#include "kernels_cpu/tiled_entries.h"
#include "kernels_cpu/gemm_sums.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/checked_round.h"
#include "core/gemm.h"
#include "core/iamax.h"
#include <vector>

using exstar_gemm::view;
using exstar_tiled::exact_sum;
using exstar_tiled::checked_sum;
using exstar_tiled::state_update;

namespace {

constexpr int64_t kGroup = 16;

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// Element access through the view (tiles of nb x nb, column-major inside a tile).
struct tiles {
  const exstar_tile_view &v;
  int64_t tile(int64_t r, int64_t c) const { return r / v.nb + (c / v.nb) * v.mt; }
  double &a(int64_t r, int64_t c) const
  {
    const int64_t t = tile(r, c);
    return v.a[t][(r % v.nb) + (c % v.nb) * v.lda[t]];
  }
  exstar_bdd &s(int64_t r, int64_t c) const
  {
    const int64_t t = tile(r, c);
    return *(exstar_bdd *)&v.st[t][(r % v.nb) + (c % v.nb) * v.ldst[t]];
  }
};

// L(r, k) left of a panel's or a U block row's own columns, for the row at position r in the
// order after panel T (a panel: T = K − 1, its rows as the previous panel left them; a U block
// row: T = K). From the column copies when the view has them (lc[tk] holds row r at the
// position perm[tk] gives it), else from the tiles.
struct left_l {
  const exstar_tile_view &v;
  int64_t T;
  double operator()(int64_t r, int64_t k) const
  {
    if (!v.lc) return tiles{v}.a(r, k);
    const int64_t tk = k / v.nb, o = T >= 0 ? v.perm[T][r] : r, s = v.perm[tk][v.m + o];
    return v.lc[tk][(s - tk * v.nb) + (k - tk * v.nb) * v.ldlc[tk]];
  }
};

template <class T>
void swap_vals(T &x, T &y)
{
  T z = x;
  x = y;
  y = z;
}

// The panel, gathered: rows [c0, m) x columns [c0, c1) of the tiles and their states, column-major.
struct panel {
  int64_t c0, c1, rows;
  std::vector<double> P;
  std::vector<exstar_bdd> S;
  double &a(int64_t i, int64_t j) { return P[(size_t)((i - c0) + (j - c0) * rows)]; }
  exstar_bdd &s(int64_t i, int64_t j) { return S[(size_t)((i - c0) + (j - c0) * rows)]; }
  view at(int64_t i, int64_t j) const { return view{P.data(), (i - c0) + (j - c0) * rows, 1, rows}; }
};

void gather(const tiles &t, panel &p, bool back)
{
  for (int64_t j = p.c0; j < p.c1; ++j)
    for (int64_t i = p.c0; i < p.c0 + p.rows; ++i) {
      if (back) {
        t.a(i, j) = p.a(i, j);
      } else {
        p.a(i, j) = t.a(i, j);
        p.s(i, j) = t.s(i, j);
      }
    }
}

} // namespace

int64_t exstar_cpu_lu_panel(const exstar_tile_view *v, int64_t K, int32_t *ipiv, int64_t *info, int exact_only)
{
  const tiles t{*v};
  const int64_t m = v->m;
  panel p;
  p.c0 = K * v->nb, p.c1 = min64(v->n, p.c0 + v->nb), p.rows = m - p.c0;
  p.P.resize((size_t)(p.rows * (p.c1 - p.c0)));
  p.S.resize(p.P.size());
  gather(t, p, false);
  const int64_t c0 = p.c0;
  int64_t repaired = 0;
  *info = 0;
  // pos[i - c0]: the row that row i was before this panel's interchanges (the left tiles are
  // interchanged only after the panel).
  std::vector<int64_t> pos((size_t)p.rows);
  for (int64_t i = c0; i < m; ++i) pos[(size_t)(i - c0)] = i;
  // The exact value of entry (i, j) over its terms k < kend: L left of the panel from the tiles
  // (row pos), the rest from the panel; U above the panel from the tiles.
  const left_l lleft{*v, K - 1};
  auto exact = [&](int64_t i, int64_t j, int64_t kend) {
    const int64_t left = pos[(size_t)(i - c0)];
    ++repaired;
    return exact_sum(p.a(i, j), kend, [&](int64_t k) { return k < c0 ? lleft(left, k) : p.a(i, k); },
                     [&](int64_t k) { return k < c0 ? t.a(k, j) : p.a(k, j); });
  };
  // Entry (i, j): its state holds the terms k < k0.
  auto value = [&](int64_t i, int64_t j, int64_t k0, int64_t kend) {
    double y;
    if (!exact_only && checked_sum(p.s(i, j), k0, kend, [&](int64_t k) { return p.a(i, k); },
                                   [&](int64_t k) { return p.a(k, j); }, &y))
      return y;
    return exact(i, j, kend);
  };
  for (int64_t g0 = c0; g0 < p.c1; g0 += kGroup) {
    const int64_t g1 = min64(p.c1, g0 + kGroup), gr0 = min64(g0, m);
    // U rows above the group (their states hold the terms k < c0), then the group's columns'
    // states of rows >= g0 take the terms k in [c0, g0) at Level-3 speed.
    for (int64_t j = g0; j < g1; ++j)
      for (int64_t i = c0; i < gr0; ++i) p.a(i, j) = value(i, j, c0, i);
    if (g0 < m)
      state_update(m - g0, g1 - g0, g0 - c0, p.at(g0, c0), p.at(c0, g0), &p.s(g0, g0), 1, p.rows);
    for (int64_t j = g0; j < g1; ++j) {
      for (int64_t i = g0; i < min64(j, m); ++i) p.a(i, j) = value(i, j, g0, i); // U inside the group
      if (j >= m) continue;
      exstar_i64 best_key = EXSTAR_IAMAX_EMPTY, best = EXSTAR_IAMAX_EMPTY;
      for (int64_t i = j; i < m; ++i) { // v(i), and the pivot
        const double vi = value(i, j, g0, j);
        p.a(i, j) = vi;
        const exstar_i64 key = exstar_iamax_key(vi);
        if (exstar_iamax_beats(key, i, best_key, best)) best_key = key, best = i;
      }
      const int64_t piv = best;
      ipiv[j - c0] = (int32_t)(piv + 1);
      if (piv != j) {
        for (int64_t c = c0; c < p.c1; ++c) {
          swap_vals(p.a(j, c), p.a(piv, c));
          if (c > j) swap_vals(p.s(j, c), p.s(piv, c)); // states of the columns still to come
        }
        swap_vals(pos[(size_t)(j - c0)], pos[(size_t)(piv - c0)]);
      }
      const double ujj = p.a(j, j);
      if (ujj == 0.0) {
        if (*info == 0) *info = j + 1;
        continue;
      }
      for (int64_t i = j + 1; i < m; ++i) p.a(i, j) = p.a(i, j) / ujj;
    }
  }
  gather(t, p, true);
  // the states of the panel are spent: nothing reads them again
  if (v->lc && v->lc[K]) // the column copy, never interchanged again
    for (int64_t j = c0; j < p.c1; ++j)
      for (int64_t i = c0; i < m; ++i) v->lc[K][(i - c0) + (j - c0) * v->ldlc[K]] = p.a(i, j);
  if (v->perm && v->perm[K]) { // the row order after this panel
    int32_t *f = v->perm[K], *inv = f + m;
    const int32_t *prev = K > 0 ? v->perm[K - 1] : nullptr;
    for (int64_t r = 0; r < m; ++r) {
      const int64_t before = r < c0 ? r : pos[(size_t)(r - c0)];
      f[r] = prev ? prev[before] : (int32_t)before;
    }
    for (int64_t r = 0; r < m; ++r) inv[f[r]] = (int32_t)r;
  }
  return repaired;
}

int64_t exstar_cpu_lu_urow(const exstar_tile_view *v, int64_t K, int64_t J, int exact_only)
{
  const tiles t{*v};
  const int64_t c0 = K * v->nb, r1 = min64(v->m, c0 + v->nb);
  const int64_t j0 = J * v->nb, j1 = min64(v->n, j0 + v->nb), nc = j1 - j0;
  const int64_t tl = K + K * v->mt, tu = K + J * v->mt; // tiles L(K,K) and U(K,J)
  const view L = v->lc ? view{v->lc[K], 0, 1, v->ldlc[K]} : view{v->a[tl], 0, 1, v->lda[tl]};
  const view U{v->a[tu], 0, 1, v->lda[tu]};
  const left_l l{*v, K}; // block row K of L, wherever it is
  std::vector<exstar_bdd> st((size_t)((r1 - c0) * nc)); // local copies: the state handle is read-only
  for (int64_t j = j0; j < j1; ++j)
    for (int64_t i = c0; i < r1; ++i) st[(size_t)((i - c0) + (j - j0) * (r1 - c0))] = t.s(i, j);
  int64_t repaired = 0;
  for (int64_t g0 = c0; g0 < r1; g0 += kGroup) {
    const int64_t g1 = min64(r1, g0 + kGroup);
    // rows [g0, g1) take the terms of the rows [c0, g0) already solved at Level-3 speed
    state_update(g1 - g0, nc, g0 - c0, view{L.p, (g0 - c0), 1, L.cs}, U, &st[(size_t)(g0 - c0)], 1, r1 - c0);
    for (int64_t j = j0; j < j1; ++j)
      for (int64_t i = g0; i < g1; ++i) {
        double y;
        const exstar_bdd &d = st[(size_t)((i - c0) + (j - j0) * (r1 - c0))];
        if (exact_only || !checked_sum(d, g0, i, [&](int64_t k) { return l(i, k); },
                                       [&](int64_t k) { return t.a(k, j); }, &y)) {
          ++repaired;
          y = exact_sum(t.a(i, j), i, [&](int64_t k) { return l(i, k); }, [&](int64_t k) { return t.a(k, j); });
        }
        t.a(i, j) = y;
      }
  }
  return repaired;
}

void exstar_cpu_lu_laswp(const exstar_tile_view *v, int64_t K, int64_t J, const int32_t *ipiv)
{
  const tiles t{*v};
  const int64_t c0 = K * v->nb, npiv = min64(min64(v->m, v->n), c0 + v->nb) - c0;
  const int64_t j0 = J * v->nb, j1 = min64(v->n, j0 + v->nb);
  const bool states = v->st[t.tile(c0, j0)] != nullptr;
  for (int64_t q = 0; q < npiv; ++q) {
    const int64_t r = c0 + q, p = (int64_t)ipiv[q] - 1;
    // A panel writes pivots in [r, m); anything else was never written (a panel task that ran
    // out of memory, reported by the call): skipped rather than read out of bounds.
    if (p <= r || p >= v->m) continue;
    for (int64_t c = j0; c < j1; ++c) {
      swap_vals(t.a(r, c), t.a(p, c));
      if (states) swap_vals(t.s(r, c), t.s(p, c));
    }
  }
}
