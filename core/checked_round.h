/* exstar core: a cheap correct rounding that proves itself, or declines.
 *
 * Rounding a long accumulator exactly costs passes over its 199 digits. trsv pays one per row,
 * and on its critical path (row r needs x_{r-1}). This file gives the fast path around it:
 *   1. exstar_row_fast_init reads a row's accumulator A once, off the critical path, as a
 *      short FPE (its top 160 bits, compressed to two doubles) plus a bound on what is left;
 *   2. the row's own terms enter that FPE exactly (exstar_fpe_add_checked and
 *      exstar_fpe_add_product_checked refuse what would need the accumulator);
 *   3. exstar_fpe_round_checked computes r = RN(FPE) with a rigorous bound on |exact - r| and
 *      accepts r only when the bound puts the exact value strictly inside r's rounding
 *      interval, so r IS the correct rounding.
 * Whenever a step declines (ties and near-ties, zero results and their signs, NaN, inf, tiny
 * and huge values, FPE spills), the caller rounds the accumulator the exact way. Both paths
 * give RN of the same exact value: the bits never depend on which one ran.
 *
 * Include after accumulator.h. Pointer arguments are generic (CPU and CUDA). */
#ifndef EXSTAR_CORE_CHECKED_ROUND_H
#define EXSTAR_CORE_CHECKED_ROUND_H

/* The head of an accumulator: its top EXSTAR_HEAD_DIGITS digits (after the two signed
 * carry-save passes of the rounding), at least 129 significant bits. */
#define EXSTAR_HEAD_DIGITS 5
/* Values handled by the fast path lie in [2^-900, 2^990): no TwoSum below overflows, no
 * product or bound below underflows into lost bits. */
#define EXSTAR_CHECKED_MIN 0x1p-900
#define EXSTAR_CHECKED_TOP_EXP 990
#define EXSTAR_CHECKED_MIN_EXP (-880)

/* 2^w for -1074 <= w <= 1023, exactly. */
EXSTAR_FN double exstar_pow2(int w)
{
  if (w >= -1022) return exstar_from_bits(((exstar_u64)(w + 1023)) << 52);
  return exstar_from_bits(((exstar_u64)1) << (w + 1074));
}

/* Digit i after the rounding's two signed carry-save passes, from the digits i, i-1 and i-2
 * before them (0 for indices below 0). The same value exstar_digits_signed_pass computes in
 * place twice, one digit at a time, so a reader can stream the digits from the top. */
EXSTAR_FN exstar_i64 exstar_digit_after_two_passes(exstar_i64 di, exstar_i64 d1, exstar_i64 d2, int i)
{
  exstar_i64 p0 = exstar_digit_after_pass(di, d1, i);
  exstar_i64 p1 = i > 0 ? exstar_digit_after_pass(d1, d2, i - 1) : 0;
  return exstar_digit_after_pass(p0, p1, i);
}

EXSTAR_FN exstar_i64 exstar_acc_digit2(const exstar_i64 *acc, int i)
{
  return exstar_digit_after_two_passes(acc[i], i >= 1 ? acc[i - 1] : 0, i >= 2 ? acc[i - 2] : 0, i);
}

/* The accumulator's value A as head[0..EXSTAR_HEAD_DIGITS) (exact doubles, one per digit) plus
 * a rest with |rest| < *rest_bound (0 when the rest is exactly 0). Returns 0 when the fast path
 * cannot represent A: special terms counted, |A| out of the window. A == 0 is fine. */
EXSTAR_FN int exstar_acc_head(const exstar_i64 *acc, double head[EXSTAR_HEAD_DIGITS], double *rest_bound)
{
  if (acc[EXSTAR_ACC_COUNT_NAN] != 0 || acc[EXSTAR_ACC_COUNT_PINF] != 0 || acc[EXSTAR_ACC_COUNT_NINF] != 0)
    return 0;
  for (int k = 0; k < EXSTAR_HEAD_DIGITS; ++k) head[k] = 0.0;
  *rest_bound = 0.0;
  /* topmost nonzero digit, eight at a time: the loads of a group do not wait on each other */
  int t = -1;
  for (int g = EXSTAR_ACC_NDIGITS - 1; g >= 0 && t < 0; g -= 8) {
    exstar_i64 w[10];
    for (int k = 0; k < 10; ++k) w[k] = g - k >= 0 ? acc[g - k] : 0;
    for (int k = 0; k < 8 && t < 0; ++k)
      if (g - k >= 0 && exstar_digit_after_two_passes(w[k], w[k + 1], w[k + 2], g - k) != 0) t = g - k;
  }
  if (t < 0) return 1;
  /* |A| < 2^(32(t+1)+EMIN): the digits below t sum to less than one unit of digit t */
  const int top = EXSTAR_ACC_DIGIT_BITS * (t + 1) + EXSTAR_ACC_EMIN;
  if (t == EXSTAR_ACC_NDIGITS - 1 || top > EXSTAR_CHECKED_TOP_EXP || top < EXSTAR_CHECKED_MIN_EXP) return 0;
  for (int k = 0; k < EXSTAR_HEAD_DIGITS && t - k >= 0; ++k)
    head[k] = (double)exstar_acc_digit2(acc, t - k) * exstar_pow2(EXSTAR_ACC_DIGIT_BITS * (t - k) + EXSTAR_ACC_EMIN);
  const int low = t - EXSTAR_HEAD_DIGITS + 1; /* lowest head digit */
  for (int i = low - 1; i >= 0; --i)
    if (exstar_acc_digit2(acc, i) != 0) {
      *rest_bound = exstar_pow2(EXSTAR_ACC_DIGIT_BITS * low + EXSTAR_ACC_EMIN);
      break;
    }
  return 1;
}

/* a*b is an exact zero: a zero factor and no infinite or NaN one. */
EXSTAR_FN int exstar_is_exact_zero_product(double a, double b)
{
  return (a == 0.0 || b == 0.0) && a - a == 0.0 && b - b == 0.0;
}

/* fpe += x exactly (x any double); 0 when the fast path cannot take it (inf, NaN, too large,
 * or a spill: the FPE would need the accumulator). An exact zero adds nothing. */
EXSTAR_FN int exstar_fpe_add_checked(double fpe[EXSTAR_FPE_N], double x)
{
  if (x == 0.0) return 1;
  if (!(fabs(x) < EXSTAR_FPE_TERM_MAX)) return 0;
  return exstar_fpe_add(fpe, x) == 0.0;
}

/* fpe += a*b exactly; 0 as above (and for products outside the TwoProd window). An exact
 * zero product adds nothing. */
EXSTAR_FN int exstar_fpe_add_product_checked(double fpe[EXSTAR_FPE_N], double a, double b)
{
  double p, e;
  if (exstar_two_prod_fast(a, b, &p, &e)) return exstar_fpe_add(fpe, p) == 0.0 && exstar_fpe_add(fpe, e) == 0.0;
  return exstar_is_exact_zero_product(a, b);
}

/* Starts a row on the fast path: fpe := the head of acc (compressed to two doubles), *bound :=
 * a bound on |A - fpe|. Returns 0 when the row must take the exact path. */
EXSTAR_FN int exstar_row_fast_init(const exstar_i64 *acc, double fpe[EXSTAR_FPE_N], double *bound)
{
  double head[EXSTAR_HEAD_DIGITS], rest;
  exstar_fpe_zero(fpe);
  if (!exstar_acc_head(acc, head, &rest)) return 0;
  /* VecSum: Σ head == s + Σ err exactly; lo = fl(Σ err) misses by < 2^-51 Σ|err| (3 additions) */
  double s = head[0], lo = 0.0, abs_err = 0.0;
  for (int k = 1; k < EXSTAR_HEAD_DIGITS; ++k) {
    double err;
    s = exstar_two_sum(s, head[k], &err);
    lo += err;
    abs_err += fabs(err);
  }
  *bound = rest + abs_err * 0x1p-49 + 0x1p-1000;
  return exstar_fpe_add_checked(fpe, s) && exstar_fpe_add_checked(fpe, lo);
}

/* Half the distance from r (normal, nonzero) to its nearer neighbour: the exact values within
 * less than this of r round to r. (A power of two has its nearer neighbour below.) */
EXSTAR_FN double exstar_half_gap(double r)
{
  exstar_u64 u = exstar_bits(r);
  int e = (int)((u >> 52) & 0x7ff);
  int pow2 = (u & ((((exstar_u64)1) << 52) - 1)) == 0;
  return exstar_from_bits(((exstar_u64)(e - (pow2 ? 54 : 53))) << 52);
}

/* RN(Σ v + δ) for m doubles v and an unknown |δ| <= bound, into *y, when provably correct;
 * else 0. (m <= 16, |v_k| < 2^1000 in magnitude.)
 *   Σ v == s + Σ err exactly (VecSum), ρ = fl(Σ err) misses by < 2^-49 Σ|err| (m <= 16),
 *   (r, e) = TwoSum(s, ρ): exact = r + e + ξ with |ξ| <= u = 2^-48 Σ|err| + bound,
 *   and r is RN(exact) when |e| + u < half_gap(r). The comparison keeps a 2^-45 margin for
 *   its own roundings. */
EXSTAR_FN int exstar_round_checked(const double *v, int m, double bound, double *y)
{
  double s = v[0], rho = 0.0, abs_err = 0.0;
  for (int k = 1; k < m; ++k) {
    double err;
    s = exstar_two_sum(s, v[k], &err);
    rho += err;
    abs_err += fabs(err);
  }
  double e;
  const double r = exstar_two_sum(s, rho, &e);
  if (!(fabs(r) >= EXSTAR_CHECKED_MIN && fabs(r) < EXSTAR_FPE_HEAD_MAX)) return 0; /* NaN too */
  const double u = abs_err * 0x1p-48 + bound;
  if (!(fabs(e) + u < exstar_half_gap(r) * (1.0 - 0x1p-45))) return 0;
  *y = r;
  return 1;
}

EXSTAR_FN int exstar_fpe_round_checked(const double fpe[EXSTAR_FPE_N], double bound, double *y)
{
  return exstar_round_checked(fpe, EXSTAR_FPE_N, bound, y);
}

/* The same for Σ fpe + a*b, without adding the product to the FPE first: the shorter chain
 * when a*b is the row's last term (trsv's critical path). */
EXSTAR_FN int exstar_fpe_round_checked_product(const double fpe[EXSTAR_FPE_N], double a, double b, double bound,
                                               double *y)
{
  double v[EXSTAR_FPE_N + 2];
  if (!exstar_two_prod_fast(a, b, &v[0], &v[1])) {
    if (!exstar_is_exact_zero_product(a, b)) return 0;
    v[0] = v[1] = 0.0; /* an exact zero */
  }
  for (int k = 0; k < EXSTAR_FPE_N; ++k) v[k + 2] = fpe[k];
  return exstar_round_checked(v, EXSTAR_FPE_N + 2, bound, y);
}

#endif /* EXSTAR_CORE_CHECKED_ROUND_H */
