// The tiled exact LU's CPU kernels: the panel (the unblocked chain on a block column, each entry
// from its tile state plus the panel's own terms, checked, or exact), block rows of U, and the
// row interchanges on block columns.
#include "kernels_cpu/lu_tiled.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/checked_round.h"
#include "core/gemm.h"
#include "core/iamax.h"
#include <vector>

namespace {

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

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// The definition's exact value RN(a(i,j) − Σ_{k<kend} l(i,k)·u(k,j)): a(i,j) and u(k,j) from
// the tiles as they are, l(i,k) from row i (row left_row for the columns k < c0 left of the
// panel, whose interchanges are still to come).
double exact_entry(const tiles &t, int64_t i, int64_t j, int64_t kend, int64_t c0, int64_t left_row)
{
  exstar_i64 acc[EXSTAR_ACC_WORDS] = {};
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = exstar_sum_step_cpu(acc, fpe, t.a(i, j));
  for (int64_t k = 0; k < kend; ++k) {
    const double l = k < c0 ? t.a(left_row, k) : t.a(i, k);
    flags |= exstar_dot_step_cpu(acc, fpe, -l, t.a(k, j));
  }
  exstar_acc_flush_fpe_cpu(acc, fpe);
  exstar_acc_add_flags_cpu(acc, flags);
  return exstar_acc_round_private(acc);
}

// The same value by the fast path when the bound proves it: the state (the terms k < c0) plus
// the panel's terms k in [c0, kend). Returns 0 when it declines.
int fast_entry(const tiles &t, int64_t i, int64_t j, int64_t kend, int64_t c0, double *y)
{
  exstar_bdd d = t.s(i, j);
  int ok = 1;
  for (int64_t k = c0; k < kend; ++k) ok &= exstar_bdd_add_product(&d, -t.a(i, k), t.a(k, j));
  return ok & exstar_bdd_round_ok(&d, y);
}

double entry(const tiles &t, int64_t i, int64_t j, int64_t kend, int64_t c0, int64_t left_row, bool exact_only,
             int64_t *repaired)
{
  double y;
  if (!exact_only && fast_entry(t, i, j, kend, c0, &y)) return y;
  ++*repaired;
  return exact_entry(t, i, j, kend, c0, left_row);
}

template <class T>
void swap_vals(T &x, T &y)
{
  T z = x;
  x = y;
  y = z;
}

} // namespace

int64_t exstar_cpu_lu_panel(const exstar_tile_view *v, int64_t K, int32_t *ipiv, int64_t *info, int exact_only)
{
  const tiles t{*v};
  const int64_t c0 = K * v->nb, c1 = min64(v->n, c0 + v->nb), m = v->m;
  int64_t repaired = 0;
  *info = 0;
  // pos[i - c0]: the row that row i was before this panel's interchanges (the left tiles are
  // interchanged only after the panel).
  std::vector<int64_t> pos((size_t)(m - c0));
  for (int64_t i = c0; i < m; ++i) pos[(size_t)(i - c0)] = i;
  for (int64_t j = c0; j < c1; ++j) {
    for (int64_t i = c0; i < min64(j, m); ++i) // u(i, j), i increasing
      t.a(i, j) = entry(t, i, j, i, c0, pos[(size_t)(i - c0)], exact_only, &repaired);
    if (j >= m) continue;
    exstar_i64 best_key = EXSTAR_IAMAX_EMPTY, best = EXSTAR_IAMAX_EMPTY;
    for (int64_t i = j; i < m; ++i) { // v(i), and the pivot
      const double vi = entry(t, i, j, j, c0, pos[(size_t)(i - c0)], exact_only, &repaired);
      t.a(i, j) = vi;
      const exstar_i64 key = exstar_iamax_key(vi);
      if (exstar_iamax_beats(key, i, best_key, best)) best_key = key, best = i;
    }
    const int64_t p = best;
    ipiv[j - c0] = (int32_t)(p + 1);
    if (p != j) {
      for (int64_t c = c0; c < c1; ++c) {
        swap_vals(t.a(j, c), t.a(p, c));
        if (c > j) swap_vals(t.s(j, c), t.s(p, c)); // states of the columns still to come
      }
      swap_vals(pos[(size_t)(j - c0)], pos[(size_t)(p - c0)]);
    }
    const double ujj = t.a(j, j);
    if (ujj == 0.0) {
      if (*info == 0) *info = j + 1;
      continue;
    }
    for (int64_t i = j + 1; i < m; ++i) t.a(i, j) = t.a(i, j) / ujj;
  }
  return repaired;
}

int64_t exstar_cpu_lu_urow(const exstar_tile_view *v, int64_t K, int64_t J, int exact_only)
{
  const tiles t{*v};
  const int64_t c0 = K * v->nb, r1 = min64(v->m, c0 + v->nb);
  const int64_t j0 = J * v->nb, j1 = min64(v->n, j0 + v->nb);
  int64_t repaired = 0;
  for (int64_t j = j0; j < j1; ++j)
    for (int64_t i = c0; i < r1; ++i) t.a(i, j) = entry(t, i, j, i, c0, i, exact_only, &repaired);
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
    if (p == r) continue;
    for (int64_t c = j0; c < j1; ++c) {
      swap_vals(t.a(r, c), t.a(p, c));
      if (states) swap_vals(t.s(r, c), t.s(p, c));
    }
  }
}
