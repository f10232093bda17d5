/* exstar core: the correctly rounded square root of an exact value held in an accumulator,
 * RN(sqrt(S)), for every S the accumulator can hold (far beyond the double range both ways).
 * Written once for CPU, CUDA and OpenCL, as the rest of core/. Used by nrm2 (S = Σ x_i²) and
 * meant for Cholesky's diagonal (S = a_jj − Σ l_jk²).
 *
 * Method: a candidate y from the top 96 bits of S (within a few ulps), then the exact test of
 * the rounding: y = RN(sqrt(S)) exactly when S lies between the squares of the midpoints around
 * y, m⁻ = (pred(y) + y)/2 and m⁺ = (y + succ(y))/2. Each test subtracts m² from a copy of S in
 * the accumulator, exactly (m = p + d/2 for adjacent doubles p < q, d = q − p a power of two,
 * so m² = p·p + p·d + d·d·(1/4): products of at most three doubles, which the accumulator holds
 * exactly), and reads the sign. A test that fails moves y by one double and tests again; a tie
 * (S == m²) goes to the even neighbour. No floating-point rounding decides the result: only
 * exact integer arithmetic on the digits, so every back end gives the same bits.
 *
 * Special values follow IEEE sqrt: a NaN term (or +inf with -inf) gives NaN, +inf gives +inf,
 * -inf or a negative value gives NaN, and an exact zero is -0 only when every term was -0. */
#ifndef EXSTAR_CORE_SQRT_H
#define EXSTAR_CORE_SQRT_H

#include "accumulator.h"
#include "gemv.h" /* exstar_split_product3 */

/* x * 2^e, exactly unless the result is subnormal or overflows (then one rounding). */
EXSTAR_FN double exstar_scale2(double x, int e)
{
  while (e > 1000) { x *= 0x1p1000; e -= 1000; }
  while (e < -1000) { x *= 0x1p-1000; e += 1000; }
  return x * exstar_from_bits(((exstar_u64)(e + 1023)) << 52);
}

/* work := acc's digits and counters (a copy the tests below may rewrite). */
EXSTAR_FN void exstar_sqrt_copy(exstar_i64 work[EXSTAR_ACC_WORDS], const exstar_i64 *acc)
{
  for (int i = 0; i < EXSTAR_ACC_WORDS; ++i) work[i] = acc[i];
}

/* work -= a*b exactly (a, b finite; nothing when either is zero). */
EXSTAR_FN void exstar_sqrt_sub_product(exstar_i64 work[EXSTAR_ACC_WORDS], double a, double b)
{
  if (a == 0.0 || b == 0.0) return;
  exstar_i64 c[5];
  const int idx = exstar_split_product(-a, b, c);
  for (int k = 0; k < 5; ++k) work[idx + k] += c[k];
}

/* The sign (-1, 0, +1) of the digits' value, after two signed carry-save passes (in place). */
EXSTAR_FN int exstar_sqrt_sign(exstar_i64 work[EXSTAR_ACC_WORDS])
{
  exstar_digits_signed_pass(work);
  exstar_digits_signed_pass(work);
  int t = EXSTAR_ACC_NDIGITS - 1;
  while (t >= 0 && work[t] == 0) --t;
  return t < 0 ? 0 : (work[t] < 0 ? -1 : 1);
}

/* The sign of S − m², m the midpoint of the adjacent doubles p < q (p >= 0; q may be +inf above
 * DBL_MAX: then d is DBL_MAX's ulp, 2^971). */
EXSTAR_FN int exstar_sqrt_cmp_mid(exstar_i64 work[EXSTAR_ACC_WORDS], const exstar_i64 *acc, double p, double d)
{
  exstar_sqrt_copy(work, acc);
  exstar_sqrt_sub_product(work, p, p);
  exstar_sqrt_sub_product(work, p, d);
  exstar_i64 c[6];
  const int idx = exstar_split_product3(-d, d, 0.25, c);
  for (int k = 0; k < 6; ++k) work[idx + k] += c[k];
  return exstar_sqrt_sign(work);
}

/* The doubles next to y >= 0 (succ(DBL_MAX) = +inf; pred(+0) is not asked for). */
EXSTAR_FN double exstar_sqrt_succ(double y) { return exstar_from_bits(exstar_bits(y) + 1); }
EXSTAR_FN double exstar_sqrt_pred(double y) { return exstar_from_bits(exstar_bits(y) - 1); }
/* q − p for adjacent doubles p < q, q possibly +inf */
EXSTAR_FN double exstar_sqrt_gap(double p, double q) { return q <= EXSTAR_DBL_MAX ? q - p : 0x1p971; }

/* A candidate within a few ulps of sqrt(S) for S > 0 given by digits after two signed passes
 * with top nonzero digit t (positive): S ~ f·2^E from the three top digits. */
EXSTAR_FN double exstar_sqrt_candidate(const exstar_i64 work[EXSTAR_ACC_WORDS], int t)
{
  double f = (double)work[t];
  if (t >= 1) f += (double)work[t - 1] * 0x1p-32;
  if (t >= 2) f += (double)work[t - 2] * 0x1p-64;
  int E = t * EXSTAR_ACC_DIGIT_BITS + EXSTAR_ACC_EMIN; /* even: EMIN and the digit width are */
  const double r = sqrt(f);                            /* f in [2^-1, 2^33): no under/overflow */
  double y = exstar_scale2(r, E / 2);
  if (y > EXSTAR_DBL_MAX) y = EXSTAR_DBL_MAX;
  return y;
}

/* The fast decision: with S's digits after two signed passes (each in [-1, 2^32], top nonzero
 * digit t positive), S = 2^E F with E = t·DIGIT_BITS + EMIN (even) and F the digits from t down,
 * F >= 1 − 2^-31. The top five digits give F as a double-double (Fh, Fl): each digit times
 * 2^(-32j) is an exact double; TwoSum keeps Fh exact and each addition into Fl errs by 2^-53
 * of |Fl| <= 2^-51 F; the digits left out weigh at most 2^-127 F. So |Fh + Fl − F| <= 2^-100 F.
 * Then zh = sqrt(Fh) (IEEE: correctly rounded), Fh − zh² is exact (the residual of a correctly
 * rounded square root, fma(−zh, zh, Fh)), zl = (residual + Fl) / (2 zh): one Newton step, so
 * zh + zl = sqrt(F)(1 + η) with |η| <= 2^-98 (the step's quadratic term |zl/zh|² / 2 <= 2^-105,
 * two roundings of 2^-53 on |zl| <= 2^-52 zh, and half of F's 2^-100). The candidate c = RN(zh +
 * zl) is RN(sqrt(F)) when sqrt(F) cannot lie beyond a midpoint next to c, that is when the
 * distances from zh + zl to both midpoints (each computed with one rounding of 2^-53) exceed
 * 2^-96 zh, 4x the error. Only for results in [2^-1000, 2^1000]: the scaling by 2^(E/2) is then
 * exact and the spacing of the doubles relative. 1 with *y when decided; 0: the exact tests
 * decide (about 2^-42 of random values, and every exact tie). */
EXSTAR_FN int exstar_sqrt_fast(const exstar_i64 work[EXSTAR_ACC_WORDS], int t, double *y)
{
  const int E = t * EXSTAR_ACC_DIGIT_BITS + EXSTAR_ACC_EMIN;
  if (E / 2 < -1000 || E / 2 > 990) return 0;
  double Fh = (double)work[t], Fl = 0.0;
  double w = 1.0;
  for (int j = 1; j <= 4 && t - j >= 0; ++j) {
    w *= 0x1p-32;
    double e;
    Fh = exstar_two_sum(Fh, (double)work[t - j] * w, &e);
    Fl += e;
  }
  const double zh = sqrt(Fh);
  const double zl = (fma(-zh, zh, Fh) + Fl) / (2.0 * zh);
  const double c = zh + zl;
  /* the doubles next to c and the midpoints' distances from zh + zl */
  const double up = exstar_sqrt_succ(c) - c, down = c - exstar_sqrt_pred(c);
  const double above = ((c - zh) + 0.5 * up) - zl, below = zl - ((c - zh) - 0.5 * down);
  const double margin = 0x1p-96 * zh;
  if (!(above > margin && below > margin)) return 0;
  *y = exstar_scale2(c, E / 2);
  return 1;
}

/* RN(sqrt(S)) of the exact value of acc (an accumulator in any state of carries; only read).
 * work: EXSTAR_ACC_WORDS words of scratch. */
EXSTAR_FN double exstar_acc_round_sqrt_private(const exstar_i64 *acc, exstar_i64 work[EXSTAR_ACC_WORDS])
{
  int done;
  const double special = exstar_special_result(acc[EXSTAR_ACC_COUNT_NAN], acc[EXSTAR_ACC_COUNT_PINF],
                                               acc[EXSTAR_ACC_COUNT_NINF], &done);
  if (done) return special > 0 ? special : exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
  exstar_sqrt_copy(work, acc);
  const int sign = exstar_sqrt_sign(work);
  if (sign < 0) return exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
  if (sign == 0) { /* sqrt(±0) = ±0: -0 only when every term was -0 */
    const int allneg = acc[EXSTAR_ACC_COUNT_ANY] > 0 && acc[EXSTAR_ACC_COUNT_NOT_NEGZERO] == 0;
    return exstar_from_bits(allneg ? EXSTAR_U64(0x8000000000000000) : 0);
  }
  int t = EXSTAR_ACC_NDIGITS - 1;
  while (work[t] == 0) --t;
  double y;
  if (exstar_sqrt_fast(work, t, &y)) return y;
  y = exstar_sqrt_candidate(work, t);
  /* Move y down while S < m⁻² (or, at a tie, while y is odd), then up while S > m⁺² (or, at a
   * tie, while y is odd). Each step crosses one double; the candidate is a few away at most. */
  for (;;) {
    if (y == 0.0) break;
    const double p = exstar_sqrt_pred(y);
    const int c = exstar_sqrt_cmp_mid(work, acc, p, exstar_sqrt_gap(p, y));
    if (c > 0 || (c == 0 && (exstar_bits(y) & 1) == 0)) break;
    y = p;
  }
  for (;;) {
    if (y > EXSTAR_DBL_MAX) break;
    const double q = exstar_sqrt_succ(y);
    const int c = exstar_sqrt_cmp_mid(work, acc, y, exstar_sqrt_gap(y, q));
    if (c < 0 || (c == 0 && (exstar_bits(y) & 1) == 0)) break;
    y = q;
  }
  return y;
}

#endif /* EXSTAR_CORE_SQRT_H */
