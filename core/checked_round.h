/* exstar core: a cheap correct rounding that proves itself, or declines.
 *
 * Rounding a long accumulator exactly costs passes over its 199 digits. trsv pays one per row,
 * and on its critical path (row r needs x_{r-1}). This file gives the fast path around it:
 *   1. exstar_bdd_init_acc reads a row's accumulator A once, off the critical path: its top
 *      160 bits and a bound on what is left, into a bounded double-double (hi + lo, err);
 *   2. the row's own terms enter it (exstar_bdd_add, exstar_bdd_add_product), each adding to
 *      a rigorous bound of its rounding errors;
 *   3. exstar_bdd_round accepts v = RN(hi + lo) only when the bound puts the exact value
 *      strictly inside v's rounding interval, so v IS the correct rounding. (For a serial
 *      chain, exstar_bdd_last_value and exstar_bdd_last_ok split the last term's addition
 *      from its check, so the check leaves the critical path.)
 * Whenever a step declines (ties and near-ties, zero results and their signs, NaN, inf, tiny
 * and huge values, products outside the TwoProd window), the caller rounds the accumulator the
 * exact way. Both paths give RN of the same exact value: the bits never depend on the path.
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
 * a rest with |rest| < *rest_bound (0 when A has no digits below the head). Returns 0 when the
 * fast path cannot represent A: special terms counted, |A| out of the window. A == 0 is fine. */
EXSTAR_FN int exstar_acc_head(const exstar_i64 *acc, double head[EXSTAR_HEAD_DIGITS], double *rest_bound)
{
  if (acc[EXSTAR_ACC_COUNT_NAN] != 0 || acc[EXSTAR_ACC_COUNT_PINF] != 0 || acc[EXSTAR_ACC_COUNT_NINF] != 0)
    return 0;
  for (int k = 0; k < EXSTAR_HEAD_DIGITS; ++k) head[k] = 0.0;
  *rest_bound = 0.0;
  /* topmost nonzero digit, from the top, 32 raw digits at a time (the loads of a group do not
   * wait on each other); digits i..i-29 of a group whose raw digits are all zero are zero after
   * the passes too (digit i depends on raw digits i, i-1, i-2) */
  int t = -1;
  for (int g = EXSTAR_ACC_NDIGITS - 1; g >= 0 && t < 0;) {
    exstar_i64 w[34], any = 0;
    for (int k = 0; k < 34; ++k) w[k] = g - k >= 0 ? acc[g - k] : 0;
    for (int k = 0; k < 32; ++k) any |= w[k];
    if (any == 0) {
      g -= 30;
      continue;
    }
    for (int k = 0; k < 32 && t < 0; ++k)
      if (g - k >= 0 && exstar_digit_after_two_passes(w[k], w[k + 1], w[k + 2], g - k) != 0) t = g - k;
    g -= 32;
  }
  if (t < 0) return 1;
  /* |A| < 2^(32(t+1)+EMIN): the digits below t sum to less than one unit of digit t */
  const int top = EXSTAR_ACC_DIGIT_BITS * (t + 1) + EXSTAR_ACC_EMIN;
  if (t == EXSTAR_ACC_NDIGITS - 1 || top > EXSTAR_CHECKED_TOP_EXP || top < EXSTAR_CHECKED_MIN_EXP) return 0;
  for (int k = 0; k < EXSTAR_HEAD_DIGITS && t - k >= 0; ++k)
    head[k] = (double)exstar_acc_digit2(acc, t - k) * exstar_pow2(EXSTAR_ACC_DIGIT_BITS * (t - k) + EXSTAR_ACC_EMIN);
  /* The rest, digits below the head, is below one unit of the lowest head digit. It is not
   * scanned: a zero rest would only matter to values within 2^-129 of a tie, and those take
   * the exact path anyway (a bound, not the rest, is what the check needs). */
  const int low = t - EXSTAR_HEAD_DIGITS + 1;
  if (low > 0) *rest_bound = exstar_pow2(EXSTAR_ACC_DIGIT_BITS * low + EXSTAR_ACC_EMIN);
  return 1;
}

/* p + q = a*b exactly (TwoProd); returns 0 when it is not on the fast path: outside the
 * TwoProd window and not an exact zero (a zero factor and no infinite or NaN one, so that p,
 * and q with it, are zeros). Bitwise operators: no branch, a warp or a vector loop stays in
 * one block; p and q are meaningless when it returns 0. */
EXSTAR_FN int exstar_bdd_product(double a, double b, double *p, double *q)
{
  const int fast = exstar_two_prod_fast(a, b, p, q);
  return fast | ((*p == 0.0) & ((a == 0.0) | (b == 0.0)));
}

/* A bounded double-double: the exact value is hi + lo + ξ with |ξ| <= err + mag * 2^-52.
 * hi and lo are not normalized: adding a term costs a TwoSum and two rounded additions into
 * lo, whose results' magnitudes go into mag (a rounded addition errs by at most 2^-53 of its
 * result, and not at all when the result is subnormal). A short chain, unlike an FPE's
 * cascade, and nothing to renormalize until the rounding. */
typedef struct {
  double hi, lo, err, mag;
} exstar_bdd;

/* 2^-52 of mag bounds 2^-53 of the exact sum of the magnitudes mag rounds (its own roundings
 * lose less than half of it for fewer than 2^51 terms). */
#define EXSTAR_BDD_REL 0x1p-52

/* d += p + q, for p, q finite with |p|, |q| < EXSTAR_FPE_TERM_MAX (an exact TwoProd pair or a
 * double and 0). An overflow makes hi or lo inf or NaN, which the rounding declines. */
EXSTAR_FN void exstar_bdd_add_pair(exstar_bdd *d, double p, double q)
{
  double e1;
  d->hi = exstar_two_sum(d->hi, p, &e1);
  const double c = q + e1; /* rounded */
  d->lo += c;              /* rounded */
  d->mag += fabs(c) + fabs(d->lo);
}

/* d += x; 0 when x is beyond the fast path (inf, NaN, too large). An exact zero adds nothing. */
EXSTAR_FN int exstar_bdd_add(exstar_bdd *d, double x)
{
  if (!(fabs(x) < EXSTAR_FPE_TERM_MAX)) return 0;
  exstar_bdd_add_pair(d, x, 0.0);
  return 1;
}

/* d += a*b exactly-bounded; 0 when the product is off the fast path (d is then meaningless). */
EXSTAR_FN int exstar_bdd_add_product(exstar_bdd *d, double a, double b)
{
  double p, q;
  const int ok = exstar_bdd_product(a, b, &p, &q);
  exstar_bdd_add_pair(d, p, q);
  return ok;
}

/* d += e (another bounded double-double: a second chain of terms, for more independent work). */
EXSTAR_FN void exstar_bdd_merge(exstar_bdd *d, const exstar_bdd *e)
{
  exstar_bdd_add_pair(d, e->hi, e->lo);
  d->err += e->err;
  d->mag += e->mag;
}

/* Starts a row: d := the accumulator's value, within err. 0 when the fast path cannot. */
EXSTAR_FN int exstar_bdd_init_acc(const exstar_i64 *acc, exstar_bdd *d)
{
  double head[EXSTAR_HEAD_DIGITS], rest;
  d->hi = d->lo = d->err = d->mag = 0.0;
  if (!exstar_acc_head(acc, head, &rest)) return 0;
  for (int k = 0; k < EXSTAR_HEAD_DIGITS; ++k) exstar_bdd_add_pair(d, head[k], 0.0);
  d->err += 2.0 * rest; /* doubled: slack for the roundings of err's later sums */
  return 1;
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

/* Whether v lies where the fast path may round: [2^-900, 2^1000). Zero is out (its sign
 * needs the exact path), so are NaN and inf. */
EXSTAR_FN int exstar_checked_in_range(double v)
{
  return fabs(v) >= EXSTAR_CHECKED_MIN && fabs(v) < EXSTAR_FPE_HEAD_MAX;
}

/* Whether v is provably RN(x) for an exact x with |x - v| <= dist, where dist is a bound
 * computed with a few rounded additions (a 2^-45 margin covers their roundings): every value
 * within less than half_gap(v) of v rounds to v. */
EXSTAR_FN int exstar_checked_close(double v, double dist)
{
  const int in_range = exstar_checked_in_range(v);
  const double gap = exstar_half_gap(in_range ? v : 1.0);
  return in_range & (dist < gap * (1.0 - 0x1p-45));
}

/* *v := RN(hi + lo); returns whether it is provably RN(exact): exact - v = e + ξ, e the
 * TwoSum error. Branch-free, so that a caller can compute with *v meanwhile. */
EXSTAR_FN int exstar_bdd_round_ok(const exstar_bdd *d, double *v)
{
  double e;
  *v = exstar_two_sum(d->hi, d->lo, &e);
  return exstar_checked_close(*v, fabs(e) + d->err + d->mag * EXSTAR_BDD_REL);
}

/* RN(exact) into *y when provably right, else 0. */
EXSTAR_FN int exstar_bdd_round(const exstar_bdd *d, double *y)
{
  double v;
  if (!exstar_bdd_round_ok(d, &v)) return 0;
  *y = v;
  return 1;
}

/* A row's last term a*b added: *s + *t, with RN(*s + *t) the rounding of the double-double sum
 * without its bound, so that the check (exstar_bdd_last_ok) leaves the critical path of a
 * serial chain (trsv's row i needs x_{i-1} as its last term). p + q = a*b; s + e = hi + p by
 * the FastTwoSum of the larger one first (both orders computed, one selected: two operations
 * fewer on the chain than TwoSum); t = RN(RN(lo + q) + e). Their roundings are far below v's:
 * v is RN(exact) but near ties, which the check declines. */
EXSTAR_FN void exstar_bdd_last_parts(const exstar_bdd *d, double a, double b, double *s, double *t)
{
  double q;
  const double p = exstar_two_prod(a, b, &q);
  *s = d->hi + p;
  const double e = fabs(d->hi) >= fabs(p) ? p - (*s - d->hi) : d->hi - (*s - p);
  *t = (d->lo + q) + e;
}

EXSTAR_FN double exstar_bdd_last_value(const exstar_bdd *d, double a, double b)
{
  double s, t;
  exstar_bdd_last_parts(d, a, b, &s, &t);
  return s + t;
}

/* Whether v (from exstar_bdd_last_value(d, a, b)) is provably RN(exact + a*b). With p + q = a*b
 * (TwoProd), hi + p = s + e1 and s - v = g + e2 (TwoSum), exact + a*b - v is
 * g + e2 + e1 + q + lo + ξ exactly; that five-term sum is taken with four roundings, each
 * within 2^-53 of at most the sum A of the absolute values, so 2^-50 A bounds them. */
EXSTAR_FN int exstar_bdd_last_ok(const exstar_bdd *d, double a, double b, double v)
{
  double p, q, e1, e2;
  const int ok = exstar_bdd_product(a, b, &p, &q);
  const double s = exstar_two_sum(d->hi, p, &e1);
  const double g = exstar_two_sum(s, -v, &e2);
  const double r = ((g + e2) + (e1 + q)) + d->lo;
  const double big = fabs(g) + fabs(e2) + fabs(e1) + fabs(q) + fabs(d->lo);
  return ok & exstar_checked_close(v, fabs(r) + big * 0x1p-50 + d->err + d->mag * EXSTAR_BDD_REL);
}

/* *y := RN(sqrt(x)) for the exact value x that d holds within its bound, when provable; 0 (the
 * caller then takes the exact root, core/sqrt.h) otherwise. With v = RN(hi + lo) (|x − (v + e)| <=
 * dist, e the TwoSum error) and the candidate r = sqrt(v) (IEEE, correctly rounded; e may put x
 * past a midpoint, then its neighbour is tried once: any candidate would do, a wrong one only
 * declines), r IS RN(sqrt(x)) when x lies strictly between
 * (r − h)² and (r + h)², h the smaller half gap of r (sqrt is increasing). With r² = p + q
 * (TwoProd), (r ± h)² − (v + e) = (p − v) − e + q ± 2rh + h²: p − v is exact (p and v within a
 * factor 2: Sterbenz), 2rh and h² exact (h a power of two, v in the fast path's range keeps them
 * normal); the four roundings of the sums below stay under 2^-45 of the terms' magnitudes. */
EXSTAR_FN int exstar_bdd_sqrt_ok(const exstar_bdd *d, double *y)
{
  double e, q;
  const double v = exstar_two_sum(d->hi, d->lo, &e);
  const double dist = d->err + d->mag * EXSTAR_BDD_REL;
  if (!(v >= EXSTAR_CHECKED_MIN && v < 0x1p990)) return 0; /* zero, negative, NaN, inf, out of range */
  double r = sqrt(v);
  for (int step = 0; step < 2; ++step) { /* r, then its neighbour on x's side (lo moved it) */
    const double p = exstar_two_prod(r, r, &q);
    const double h = exstar_half_gap(r);
    const double dv = p - v, t = (dv - e) + q, a = 2.0 * (r * h), b = h * h;
    const double slack = dist + 0x1p-45 * (fabs(dv) + fabs(e) + fabs(q) + a + b);
    const double above = t + a + b, below = a - b - t; /* (r + h)² − x and x − (r − h)², near */
    if (above > slack && below > slack) {
      *y = r;
      return 1;
    }
    if (above < -slack) r = exstar_from_bits(exstar_bits(r) + 1);
    else if (below < -slack) r = exstar_from_bits(exstar_bits(r) - 1);
    else return 0;
  }
  return 0;
}

/* An accumulator's rounding from its head alone, when no special value was counted and the head's
 * bound proves it: *y := RN(value) (exstar_acc_round_fast) or RN(sqrt(value))
 * (exstar_acc_round_sqrt_fast); 0 otherwise (zeros, ties, specials, far ranges), and the caller
 * rounds the exact way. Reads the top digits only (exstar_acc_head), not every digit: a GPU's one
 * thread rounding a 2^27-term nrm2 took ~23 us the exact way, ~5% of the whole operation. */
EXSTAR_FN int exstar_acc_head_bdd(const exstar_i64 *acc, exstar_bdd *d)
{
  if (acc[EXSTAR_ACC_COUNT_NAN] != 0 || acc[EXSTAR_ACC_COUNT_PINF] != 0 || acc[EXSTAR_ACC_COUNT_NINF] != 0) return 0;
  return exstar_bdd_init_acc(acc, d);
}

EXSTAR_FN int exstar_acc_round_fast(const exstar_i64 *acc, double *y)
{
  exstar_bdd d;
  return exstar_acc_head_bdd(acc, &d) && exstar_bdd_round(&d, y);
}

EXSTAR_FN int exstar_acc_round_sqrt_fast(const exstar_i64 *acc, double *y)
{
  exstar_bdd d;
  return exstar_acc_head_bdd(acc, &d) && exstar_bdd_sqrt_ok(&d, y);
}

#endif /* EXSTAR_CORE_CHECKED_ROUND_H */
