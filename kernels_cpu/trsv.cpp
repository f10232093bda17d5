// trsv on the CPU: diagonal-block solve, residual of refinement, refinement update.
// One row at a time: the row's value RN(acc + b_r - in-block terms) comes from the checked
// fast rounding (core/checked_round.h) when it proves itself, else from a private copy of the
// row's accumulator that gets b_r and the in-block terms (core/trsv.inc) and is rounded
// exactly. Either way it is the same double; it is then divided once. The fast path walks T
// along its memory: when op(T)'s columns are T's (no transpose), each solved x_j goes at once
// to every later row's bounded double-double (a contiguous column, as OpenBLAS's dtrsv walks
// it); otherwise each row gathers its own contiguous row.
#include "kernels_cpu/trsv.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/checked_round.h"
#include "kernels_cpu/gemv.h"
#include <vector>

#define EXSTAR_TRSV_ACC_PTR exstar_i64 *
#define EXSTAR_TRSV_OPS_SFX _cpu
#define EXSTAR_TRSV_MEM
#define EXSTAR_TRSV_SFX _cpu
#include "core/trsv.inc"

namespace {

// RN(acc + b - in-block terms of row r) with a private copy of acc.
double row_value(const exstar_trsv_shape *s, const double *t, const exstar_i64 *acc, double b,
                 int with_diag, const double *src, int64_t fs, int64_t incs, int64_t r)
{
  exstar_i64 a[EXSTAR_ACC_WORDS];
  for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) a[w] = acc[w];
  double fpe[EXSTAR_FPE_N] = {};
  int flags = exstar_sum_step_cpu(a, fpe, b);
  flags |= exstar_trsv_row_terms_cpu(a, fpe, s->forward, s->trans, s->unit, with_diag, s->nb, r, t,
                                     s->t0, s->ldt, src, fs, incs, 0, 1);
  exstar_acc_flush_fpe_cpu(a, fpe);
  exstar_acc_add_flags_cpu(a, flags);
  return exstar_acc_round_private(a);
}

// The same value on the fast path from d0 (the other blocks' terms, b not yet in); 0 when it
// declines.
int row_value_fast_from(const exstar_trsv_shape *s, const double *t, const exstar_bdd &d0, double b,
                        const double *src, int64_t fs, int64_t incs, int64_t r, double *v)
{
  // four independent chains of terms (their latencies overlap), merged at the end
  constexpr int kChains = 4;
  exstar_bdd d[kChains] = {};
  d[0] = d0;
  if (!exstar_bdd_add(&d[0], b)) return 0;
  const int64_t kb = s->forward ? 0 : r + 1, ke = s->forward ? r : s->nb;
  int ok = 1;
  int64_t k = kb;
  for (; k + kChains <= ke; k += kChains)
    for (int c = 0; c < kChains; ++c)
      ok &= exstar_bdd_add_product(&d[c], -exstar_trsv_elem_cpu(t, s->t0, s->ldt, s->trans, r, k + c),
                                   src[fs + (k + c) * incs]);
  for (; k < ke; ++k)
    ok &= exstar_bdd_add_product(&d[0], -exstar_trsv_elem_cpu(t, s->t0, s->ldt, s->trans, r, k), src[fs + k * incs]);
  for (int c = 1; c < kChains; ++c) exstar_bdd_merge(&d[0], &d[c]);
  return ok && exstar_bdd_round(&d[0], v);
}

// The same value on the fast path; 0 when it declines (then row_value decides).
int row_value_fast(const exstar_trsv_shape *s, const double *t, const exstar_i64 *acc, double b,
                   const double *src, int64_t fs, int64_t incs, int64_t r, double *v)
{
  exstar_bdd d0;
  if (!exstar_bdd_init_acc(acc, &d0)) return 0;
  return row_value_fast_from(s, t, d0, b, src, fs, incs, r, v);
}

} // namespace

namespace {

// No transpose: the rows' bounded double-doubles in arrays (by row index r), column after
// column; a row the check declines is computed the exact way (row_value), its later terms
// still go to the arrays.
void solve_by_columns(const exstar_trsv_shape *s, const double *t, const exstar_i64 *accs, double *y, int64_t fy,
                      int64_t incy)
{
  const int64_t nb = s->nb;
  std::vector<double> hi(nb), lo(nb), err(nb), mag(nb);
  std::vector<int> ok(nb);
  for (int64_t r = 0; r < nb; ++r) {
    exstar_bdd d;
    ok[r] = exstar_bdd_init_acc(accs + r * EXSTAR_ACC_WORDS, &d) && exstar_bdd_add(&d, y[fy + r * incy]);
    hi[r] = d.hi, lo[r] = d.lo, err[r] = d.err, mag[r] = d.mag;
  }
  for (int64_t step = 0; step < nb; ++step) {
    const int64_t r = s->forward ? step : nb - 1 - step;
    const double *col = t + s->t0 + r * s->ldt; // column r of T: op(T)(i, r) = col[i]
    const exstar_bdd d = {hi[r], lo[r], err[r], mag[r]};
    double v;
    if (!(ok[r] && exstar_bdd_round(&d, &v)))
      v = row_value(s, t, accs + r * EXSTAR_ACC_WORDS, y[fy + r * incy], 0, y, fy, incy, r);
    const double x = s->unit ? v : v / col[r];
    y[fy + r * incy] = x;
    // the later rows: r + 1 .. nb - 1 forward, 0 .. r - 1 backward
    const int64_t i0 = s->forward ? r + 1 : 0, i1 = s->forward ? nb : r;
    for (int64_t i = i0; i < i1; ++i) {
      exstar_bdd e = {hi[i], lo[i], 0.0, mag[i]};
      ok[i] &= exstar_bdd_add_product(&e, -col[i], x);
      hi[i] = e.hi, lo[i] = e.lo, mag[i] = e.mag;
    }
  }
}

} // namespace

namespace {

// The start of row r's bounded double-double: the state's entry (the fast sums of the other
// blocks' terms), or zero when there is no state (the first block).
exstar_bdd state_entry(const double *st, int64_t r)
{
  if (!st) return exstar_bdd{0.0, 0.0, 0.0, 0.0};
  const double *e = st + 4 * r;
  return exstar_bdd{e[0], e[1], e[2], e[3]};
}

// The exact path for the declined rows of a block: the exact accumulators of the block's rows
// over the other blocks' solved unknowns, built once (at the first decline) by the exact lane
// kernel, column after column of T as the accumulator graph's tiles read it; a declined row is
// then rounded from its accumulator, b and its in-block terms (row_value), as
// exstar_cpu_trsv_solve does. (Row by row over the whole system would read a row of T strided,
// a cache miss a term: 10x the exact graph on ill-conditioned systems.)
struct block_exact {
  const exstar_trsv_shape *s, *w;
  int64_t i0;
  const double *t;
  std::vector<exstar_i64> accs;

  const exstar_i64 *acc(int64_t r, const double *x, int64_t fxw, int64_t incx)
  {
    if (accs.empty()) build(x, fxw, incx);
    return accs.data() + r * EXSTAR_ACC_WORDS;
  }

  void build(const double *x, int64_t fxw, int64_t incx)
  {
    const int64_t nb = s->nb, n = w->nb;
    accs.assign((size_t)(nb * EXSTAR_ACC_WORDS), 0);
    const int64_t c0 = s->forward ? 0 : i0 + nb, c1 = s->forward ? i0 : n; // the other solved unknowns
    constexpr int64_t kChunk = (int64_t)1 << 24; // terms per accumulator and call (kernels' headroom)
    std::vector<double> xs;
    for (int64_t k0 = c0; k0 < c1; k0 += kChunk) {
      const int64_t len = c1 - k0 < kChunk ? c1 - k0 : kChunk;
      xs.resize((size_t)len);
      for (int64_t k = 0; k < len; ++k) xs[(size_t)k] = x[fxw + (k0 + k) * incx];
      // op(T)(i, k) = T[i + k*ld] (no transpose) or T[k + i*ld]: rows i0.. x columns k0..
      if (!w->trans)
        exstar_cpu_gemv_acc('N', nb, len, -1.0, t, w->t0 + i0 + k0 * w->ldt, w->ldt, xs.data(), 0, 1, accs.data(), 0);
      else
        exstar_cpu_gemv_acc('T', len, nb, -1.0, t, w->t0 + k0 + i0 * w->ldt, w->ldt, xs.data(), 0, 1, accs.data(), 0);
    }
  }
};

} // namespace

void exstar_cpu_trsv_solve_state(const exstar_trsv_shape *s, const exstar_trsv_shape *w, int64_t i0,
                                 const double *t, const double *st, double *x, int64_t offx, int64_t incx,
                                 int64_t *declined)
{
  const int64_t fxw = exstar_first_index(w->nb, offx, incx), nb = s->nb;
  auto xr = [&](int64_t r) -> double & { return x[fxw + (i0 + r) * incx]; };
  int64_t nd = 0;
  block_exact ex{s, w, i0, t, {}};
  const int64_t fb = fxw + i0 * incx; // the block's unknowns: x[fb + r*incx]
  if (!s->trans) {
    // as solve_by_columns: each solved x goes at once to the later rows' double-doubles
    std::vector<double> hi(nb), lo(nb), err(nb), mag(nb);
    std::vector<int> ok(nb);
    for (int64_t r = 0; r < nb; ++r) {
      exstar_bdd d = state_entry(st, r);
      ok[r] = exstar_bdd_add(&d, xr(r));
      hi[r] = d.hi, lo[r] = d.lo, err[r] = d.err, mag[r] = d.mag;
    }
    for (int64_t step = 0; step < nb; ++step) {
      const int64_t r = s->forward ? step : nb - 1 - step;
      const double *col = t + s->t0 + r * s->ldt;
      const exstar_bdd d = {hi[r], lo[r], err[r], mag[r]};
      double v;
      if (!(ok[r] && exstar_bdd_round(&d, &v))) {
        v = row_value(s, t, ex.acc(r, x, fxw, incx), xr(r), 0, x, fb, incx, r);
        ++nd;
      }
      const double xv = s->unit ? v : v / col[r];
      xr(r) = xv;
      const int64_t k0 = s->forward ? r + 1 : 0, k1 = s->forward ? nb : r;
      for (int64_t k = k0; k < k1; ++k) {
        exstar_bdd e = {hi[k], lo[k], 0.0, mag[k]};
        ok[k] &= exstar_bdd_add_product(&e, -col[k], xv);
        hi[k] = e.hi, lo[k] = e.lo, mag[k] = e.mag;
      }
    }
  } else {
    for (int64_t step = 0; step < nb; ++step) {
      const int64_t r = s->forward ? step : nb - 1 - step;
      double v;
      if (!row_value_fast_from(s, t, state_entry(st, r), xr(r), x, fb, incx, r, &v)) {
        v = row_value(s, t, ex.acc(r, x, fxw, incx), xr(r), 0, x, fb, incx, r);
        ++nd;
      }
      xr(r) = s->unit ? v : v / exstar_trsv_elem_cpu(t, s->t0, s->ldt, s->trans, r, r);
    }
  }
  if (declined) *declined = nd;
}

void exstar_cpu_trsv_solve(const exstar_trsv_shape *s, const double *t, const exstar_i64 *accs,
                           double *y, int64_t offy, int64_t incy)
{
  const int64_t fy = exstar_first_index(s->nb, offy, incy);
  if (!s->trans) {
    solve_by_columns(s, t, accs, y, fy, incy);
    return;
  }
  for (int64_t step = 0; step < s->nb; ++step) {
    const int64_t r = s->forward ? step : s->nb - 1 - step;
    const exstar_i64 *acc = accs + r * EXSTAR_ACC_WORDS;
    double v;
    if (!row_value_fast(s, t, acc, y[fy + r * incy], y, fy, incy, r, &v))
      v = row_value(s, t, acc, y[fy + r * incy], 0, y, fy, incy, r);
    y[fy + r * incy] = s->unit ? v : v / exstar_trsv_elem_cpu(t, s->t0, s->ldt, s->trans, r, r);
  }
}

void exstar_cpu_trsv_resid(const exstar_trsv_shape *s, const double *t, const exstar_i64 *accs,
                           const double *x, int64_t offx, int64_t incx, const double *b,
                           int64_t offb, int64_t incb, double *r, int64_t offr, int64_t incr)
{
  const int64_t fx = exstar_first_index(s->nb, offx, incx), fb = exstar_first_index(s->nb, offb, incb),
                fr = exstar_first_index(s->nb, offr, incr);
  for (int64_t i = 0; i < s->nb; ++i)
    r[fr + i * incr] = row_value(s, t, accs + i * EXSTAR_ACC_WORDS, b[fb + i * incb], 1, x, fx, incx, i);
}

void exstar_cpu_trsv_update(int64_t n, int add, const double *d, int64_t offd, int64_t incd,
                            double *x, int64_t offx, int64_t incx)
{
  const int64_t fd = exstar_first_index(n, offd, incd), fx = exstar_first_index(n, offx, incx);
  for (int64_t i = 0; i < n; ++i)
    x[fx + i * incx] = add ? x[fx + i * incx] + d[fd + i * incd] : d[fd + i * incd]; // one IEEE add: RN
}
