// The tiled exact Cholesky's CPU panel: the left-looking chain of its definition on (a band of
// rows of) one block column. As the LU's panel (kernels_cpu/lu_tiled.cpp), the columns go by
// groups of kGroup: before a group, the terms of the panel's columns already done enter the
// states of the group's columns at Level-3 speed, and each entry adds only the group's own
// terms. There is no pivot, so no row ever moves, and the rows below the diagonal tile depend
// only on it: a band of them is a task of its own.
#include "kernels_cpu/potrf_tiled.h"
#include "kernels_cpu/tiled_entries.h"
#include "kernels_cpu/kernels_cpu.h"
#include "core/sqrt.h"
#include <vector>

using exstar_gemm::view;
using exstar_tiled::exact_sum;
using exstar_tiled::state_update;

namespace {

constexpr int64_t kGroup = 16;

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// RN(sqrt(a − Σ_{k<kend} l_k²)), the sum exact: a root is never taken of a rounded value. row
// holds l_0 .. l_{kend-1} and neg their negations: the exact dot kernel (vectorized) adds the
// terms −l_k·l_k to the accumulator holding a; an accumulator holds the exact value whatever
// the order and grouping of its terms, so this is the definition's value.
double exact_root(double a, int64_t kend, const double *row, const double *neg)
{
  exstar_i64 acc[EXSTAR_ACC_WORDS] = {}, work[EXSTAR_ACC_WORDS];
  exstar_cpu_sum(1, &a, 0, 1, acc);
  exstar_cpu_dot(kend, neg, 0, 1, row, 0, 1, acc);
  return exstar_acc_round_sqrt_private(acc, work);
}

// The entries of one column of the panel, each its state plus the group's own terms, as
// exstar_tiled::checked_sum computes one entry (the same core steps in the same order), with the
// states split into arrays so that the steps run on many rows at once (vectorized).
struct column {
  std::vector<double> hi, lo, err, mag;
  std::vector<int> ok;
  explicit column(size_t rows) : hi(rows), lo(rows), err(rows), mag(rows), ok(rows) {}
  void take(const exstar_bdd *s, int64_t n)
  {
    for (int64_t t = 0; t < n; ++t) hi[t] = s[t].hi, lo[t] = s[t].lo, err[t] = s[t].err, mag[t] = s[t].mag, ok[t] = 1;
  }
  // entry t −= l[t]·u: exstar_bdd_add_product(d_t, −l[t], u).
  void add_products(const double *l, double u, int64_t n)
  {
    double *const h = hi.data(), *const o = lo.data(), *const e = err.data(), *const g = mag.data();
    int *const f = ok.data();
    for (int64_t t = 0; t < n; ++t) {
      exstar_bdd d = {h[t], o[t], e[t], g[t]};
      f[t] &= exstar_bdd_add_product(&d, -l[t], u);
      h[t] = d.hi, o[t] = d.lo, e[t] = d.err, g[t] = d.mag;
    }
  }
  int round_ok(int64_t t, double *y) const
  {
    const exstar_bdd d = {hi[t], lo[t], err[t], mag[t]};
    return ok[t] & exstar_bdd_round_ok(&d, y);
  }
};

// The panel's rows gathered, column-major: local rows [0, w) are the diagonal tile's (global
// c0 + q), rows [w, rows) the band's (global r0 + q − w); columns [c0, c1).
struct panel {
  const exstar_tile_view &v;
  int64_t c0, c1, w, r0, rows;
  double *P;     // rows x w, column-major
  exstar_bdd *S; // the same for the states
  int64_t global(int64_t q) const { return q < w ? c0 + q : r0 + (q - w); }
  double &a(int64_t q, int64_t j) { return P[(size_t)(q + (j - c0) * rows)]; }
  exstar_bdd &s(int64_t q, int64_t j) { return S[(size_t)(q + (j - c0) * rows)]; }
  // f(q, len, t, i) for the runs of local rows [qa, qb) of column j that lie in one tile: rows
  // q .. q+len-1 are rows i .. i+len-1 of tile t (so that copies go without a division each).
  template <class F>
  void runs(int64_t j, int64_t qa, int64_t qb, F f) const
  {
    for (int64_t q = qa; q < qb;) {
      const int64_t r = global(q), i = r % v.nb;
      const int64_t len = min64(min64(qb, q < w ? w : rows) - q, v.nb - i);
      f(q, len, tile_of(r, j), i);
      q += len;
    }
  }
  int64_t tile_of(int64_t r, int64_t c) const { return r / v.nb + (c / v.nb) * v.mt; }
  double &tile(int64_t r, int64_t c) const
  {
    const int64_t t = tile_of(r, c);
    return v.a[t][(r % v.nb) + (c % v.nb) * v.lda[t]];
  }
  // L(r, k) for k left of the panel: from the column copy of its block column, or its tile.
  double left(int64_t r, int64_t k) const
  {
    const int64_t L = k / v.nb;
    if (v.lc) return v.lc[L][(r - L * v.nb) + (k - L * v.nb) * v.ldlc[L]];
    return tile(r, k);
  }
  // L of local row q at column k < c1: left of the panel, or in it.
  double l(int64_t q, int64_t k) { return k < c0 ? left(global(q), k) : a(q, k); }
  // dst[k] := l(q, k) for k < kend, block column by block column (as left() and a()).
  void row(int64_t q, int64_t kend, double *dst)
  {
    const int64_t r = global(q);
    for (int64_t k0 = 0; k0 < min64(kend, c0); k0 += v.nb) {
      const int64_t L = k0 / v.nb, k1 = min64(min64(kend, c0), k0 + v.nb);
      const double *src;
      int64_t ld;
      if (v.lc) {
        src = v.lc[L] + (r - L * v.nb), ld = v.ldlc[L];
      } else {
        const int64_t t = tile_of(r, k0);
        src = v.a[t] + r % v.nb, ld = v.lda[t];
      }
      for (int64_t k = k0; k < k1; ++k) dst[k] = src[(k - k0) * ld];
    }
    for (int64_t k = c0; k < kend; ++k) dst[k] = a(q, k);
  }
};

} // namespace

int64_t exstar_cpu_potrf_panel(const exstar_tile_view *v, int64_t K, int64_t I0, int64_t I1, int32_t *fail,
                               int exact_only)
{
  const int64_t n = v->n, nb = v->nb;
  const bool diag = I0 == K; // the roots and the diagonal tile are computed here, else read
  const int64_t c0 = K * nb, c1 = min64(n, c0 + nb), w = c1 - c0;
  const int64_t r0 = (diag ? K + 1 : I0) * nb, r1 = min64(n, I1 * nb);
  panel p{*v, c0, c1, w, r0, w + (r1 > r0 ? r1 - r0 : 0), nullptr, nullptr};
  // The copies: kept per thread up to a 512 x 256 panel (5 MiB), else for this task only. Not
  // cleared: every entry read below is written first (the lower triangle of the diagonal
  // tile, the band), except the states above the diagonal inside a group's block, which the
  // group's update computes but nothing reads.
  static thread_local std::vector<double> P_keep;
  static thread_local std::vector<exstar_bdd> S_keep;
  std::vector<double> P_once;
  std::vector<exstar_bdd> S_once;
  const size_t size = (size_t)(p.rows * w);
  const bool keep = size <= ((size_t)1 << 17);
  std::vector<double> &Pv = keep ? P_keep : P_once;
  std::vector<exstar_bdd> &Sv = keep ? S_keep : S_once;
  if (Pv.size() < size) Pv.resize(size);
  if (Sv.size() < size) Sv.resize(size);
  p.P = Pv.data(), p.S = Sv.data();
  for (int64_t j = c0; j < c1; ++j)
    p.runs(j, j - c0, p.rows, [&](int64_t q, int64_t len, int64_t t, int64_t i) {
      const double *a = v->a[t] + i + (j % nb) * v->lda[t];
      for (int64_t x = 0; x < len; ++x) p.a(q + x, j) = a[x];
      if (diag || q >= w) {
        const exstar_bdd *s = (const exstar_bdd *)v->st[t] + i + (j % nb) * v->ldst[t];
        for (int64_t x = 0; x < len; ++x) p.s(q + x, j) = s[x];
      }
    });
  int64_t repaired = 0;
  std::vector<double> row(diag ? (size_t)c1 : 0), neg(row.size()); // a diagonal entry's terms
  column col((size_t)p.rows);
  for (int64_t g0 = c0; g0 < c1; g0 += kGroup) {
    const int64_t g1 = min64(c1, g0 + kGroup), q0 = diag ? g0 - c0 : w; // the rows that take terms
    // the group's columns take the terms of the panel's columns [c0, g0): st(q, j) −= Σ_k
    // L(q, k)·L(j, k), the rows of L(j, .) being the diagonal tile's local rows [g0 − c0, g1 − c0)
    state_update(p.rows - q0, g1 - g0, g0 - c0, view{p.P, q0, 1, p.rows}, view{p.P, g0 - c0, p.rows, 1}, &p.s(q0, g0),
                 1, p.rows);
    for (int64_t j = g0; j < g1; ++j) {
      const int64_t qj = j - c0;
      if (diag) {
        p.row(qj, j, row.data());
        for (int64_t k = 0; k < j; ++k) neg[(size_t)k] = -row[(size_t)k];
        const double root = exact_root(p.a(qj, j), j, row.data(), neg.data());
        fail[qj] = !(root > 0.0) ? 1 : root > EXSTAR_DBL_MAX ? 2 : 0;
        p.a(qj, j) = root;
      }
      const double ljj = p.a(qj, j);
      const int64_t qs = diag ? qj + 1 : w, nq = p.rows - qs;
      col.take(&p.s(qs, j), nq);
      for (int64_t k = g0; k < j; ++k) col.add_products(&p.a(qs, k), p.a(qj, k), nq);
      for (int64_t t = 0; t < nq; ++t) {
        const int64_t q = qs + t;
        double y;
        if (exact_only || !col.round_ok(t, &y)) {
          ++repaired;
          y = exact_sum(p.a(q, j), j, [&](int64_t k) { return p.l(q, k); }, [&](int64_t k) { return p.l(qj, k); });
        }
        p.a(q, j) = y / ljj;
      }
    }
  }
  for (int64_t j = c0; j < c1; ++j) // the lower triangle of the diagonal tile (diag), the band
    p.runs(j, diag ? j - c0 : w, p.rows, [&](int64_t q, int64_t len, int64_t t, int64_t i) {
      double *a = v->a[t] + i + (j % nb) * v->lda[t];
      for (int64_t x = 0; x < len; ++x) a[x] = p.a(q + x, j);
    });
  if (diag && v->lc && v->lc[K]) // the column copy, for views that read L from copies
    for (int64_t j = c0; j < c1; ++j)
      for (int64_t q = 0; q < p.rows; ++q)
        v->lc[K][(p.global(q) - c0) + (j - c0) * v->ldlc[K]] = p.global(q) >= j ? p.a(q, j) : 0.0;
  return repaired;
}
