/* exstar core: the exact arithmetic, written once for CPU, CUDA and OpenCL.
 *
 * Layers (the seed papers' hierarchy, made exact for every finite input):
 *   1. error-free transformations: exstar_two_sum, exstar_two_prod (FMA);
 *   2. a floating-point expansion (FPE) of EXSTAR_FPE_N doubles per thread, in registers;
 *   3. the long accumulator: a fixed-point number of EXSTAR_ACC_NDIGITS signed 64-bit digits
 *      of EXSTAR_ACC_DIGIT_BITS bits each (the rest is carry headroom), covering every bit of
 *      every product of up to three doubles (2^-3222 .. 2^3072) times any count of terms;
 *   4. merging accumulators is digit-wise integer addition: exact, associative, commutative;
 *   5. one correct rounding (to nearest, ties to even) of the exact value to a double.
 *
 * An accumulator is EXSTAR_ACC_WORDS exstar_i64 words: the digits, then counters of special
 * terms (NaN, +inf, -inf, "a term that is not -0", "any term"). Counters, not bit flags, so
 * that every merge anywhere is one integer addition (atomic add is all the GPUs need);
 * normalization turns them back into 0/1, so normalized accumulators are canonical.
 *
 * The memory-touching operations (deposit a double, deposit a product, flush an FPE,
 * normalize) live in acc_ops.inc, instantiated once per address space / atomicity. */
#ifndef EXSTAR_CORE_ACCUMULATOR_H
#define EXSTAR_CORE_ACCUMULATOR_H

#include "portable.h"

/* ---- accumulator geometry; every constant derived from the ones above it ---------------- */
#define EXSTAR_ACC_DIGIT_BITS 32
/* The accumulator holds every bit of any product of up to THREE doubles (gemv's alpha*a*x is
 * one exact term): lsb of a product of three subnormals 2^(-1074*3), magnitude < 2^(1024*3). */
#define EXSTAR_ACC_MAX_FACTORS 3
#define EXSTAR_ACC_MIN_PRODUCT_EXP (-1074 * EXSTAR_ACC_MAX_FACTORS)
#define EXSTAR_ACC_MAX_PRODUCT_EXP (1024 * EXSTAR_ACC_MAX_FACTORS)
/* weight of digit 0's lowest bit: the first multiple of the digit width below the minimum */
#define EXSTAR_ACC_EMIN (-(((-EXSTAR_ACC_MIN_PRODUCT_EXP) / EXSTAR_ACC_DIGIT_BITS + 1) * EXSTAR_ACC_DIGIT_BITS))
/* digits up to 2^2048, plus one digit of carry room; the top digit also keeps 31 bits of
 * signed headroom, so 2^50 terms of the largest magnitude still fit */
#define EXSTAR_ACC_NDIGITS ((EXSTAR_ACC_MAX_PRODUCT_EXP - EXSTAR_ACC_EMIN) / EXSTAR_ACC_DIGIT_BITS + 2)
#define EXSTAR_ACC_COUNT_NAN  (EXSTAR_ACC_NDIGITS + 0)
#define EXSTAR_ACC_COUNT_PINF (EXSTAR_ACC_NDIGITS + 1)
#define EXSTAR_ACC_COUNT_NINF (EXSTAR_ACC_NDIGITS + 2)
#define EXSTAR_ACC_COUNT_NOT_NEGZERO (EXSTAR_ACC_NDIGITS + 3)
#define EXSTAR_ACC_COUNT_ANY  (EXSTAR_ACC_NDIGITS + 4)
#define EXSTAR_ACC_WORDS      (EXSTAR_ACC_NDIGITS + 5)
#define EXSTAR_ACC_DIGIT_MASK ((((exstar_i64)1) << EXSTAR_ACC_DIGIT_BITS) - 1)

/* special-term flags, kept privately per thread and counted into the accumulator once */
#define EXSTAR_FLAG_NAN 1
#define EXSTAR_FLAG_PINF 2
#define EXSTAR_FLAG_NINF 4
#define EXSTAR_FLAG_NOT_NEGZERO 8
#define EXSTAR_FLAG_ANY 16

/* ---- FPE and fast-path windows --------------------------------------------------------- */
#ifndef EXSTAR_FPE_N
#define EXSTAR_FPE_N 4
#endif
/* Terms entering an FPE are below 2^996 and its head is flushed once it reaches 2^1000, so
 * no TwoSum inside an FPE can overflow. Products p = RN(a*b) with 2^-900 <= |p| < 2^996 have
 * an exactly representable error fma(a,b,-p) (lsb(a)*lsb(b) >= |ab|*2^-106 >= 2^-1006);
 * everything else (zeros, NaN, inf, underflowing or overflowing products) takes the exact
 * slow path into the accumulator. */
#define EXSTAR_FPE_TERM_MAX 0x1p996
#define EXSTAR_FPE_HEAD_MAX 0x1p1000
#define EXSTAR_PROD_MIN 0x1p-900

#ifndef __cplusplus
#define EXSTAR_STATIC_ASSERT(c, m)
#else
#define EXSTAR_STATIC_ASSERT(c, m) static_assert(c, m)
#endif
EXSTAR_STATIC_ASSERT(EXSTAR_ACC_EMIN % EXSTAR_ACC_DIGIT_BITS == 0, "digit aligned");
EXSTAR_STATIC_ASSERT(EXSTAR_ACC_EMIN <= EXSTAR_ACC_MIN_PRODUCT_EXP, "covers every product bit");
EXSTAR_STATIC_ASSERT((EXSTAR_ACC_NDIGITS - 1) * EXSTAR_ACC_DIGIT_BITS + EXSTAR_ACC_EMIN
                     >= EXSTAR_ACC_MAX_PRODUCT_EXP, "top digit above every product");
EXSTAR_STATIC_ASSERT(EXSTAR_ACC_DIGIT_BITS == 32, "splitting below assumes 32-bit digits");

/* ---- error-free transformations --------------------------------------------------------- */

/* Knuth's TwoSum: s + e == a + b exactly, s = RN(a + b), for any finite a, b whose sum does
 * not overflow (subnormals included). Branch-free, so it vectorises. */
EXSTAR_FN double exstar_two_sum(double a, double b, double *e)
{
  double s = a + b;
  double bb = s - a;
  *e = (a - (s - bb)) + (b - bb);
  return s;
}

/* TwoProd with FMA: p + e == a * b exactly when EXSTAR_PROD_MIN <= |p| < 2^1024. */
EXSTAR_FN double exstar_two_prod(double a, double b, double *e)
{
  double p = a * b;
  *e = fma(a, b, -p);
  return p;
}

/* TwoProd on the fast path: returns 1 with p + e == a*b exactly and both terms fit an FPE
 * (EXSTAR_PROD_MIN <= |p| < EXSTAR_FPE_TERM_MAX), 0 when the product must take the exact
 * slow path (zeros, NaN, inf, products that underflow or overflow). The one place that
 * decides which products are fast. */
EXSTAR_FN int exstar_two_prod_fast(double a, double b, double *p, double *e)
{
  *p = exstar_two_prod(a, b, e);
  double ap = fabs(*p);
  return (ap < EXSTAR_FPE_TERM_MAX) & (ap >= EXSTAR_PROD_MIN); /* false for NaN; &: no branch (loops vectorize) */
}

/* Whether a writer that skips the normalization after its short calls must normalize now.
 * Such a call adds fewer than 2^28 terms (at most one 32-bit digit of each to a word, plus its
 * flushes: less than 2^60 a word) and counts itself in the ANY word, which a normalization
 * leaves at 0 or 1; after at most four such calls since the last normalization every word is
 * still below 2^63. (Normalizing after every call costs a short call, a tile of trsv, more
 * than its terms; the roundings take raw digits.) */
#define EXSTAR_ACC_SHORT_CALL_TERMS (((exstar_i64)1) << 28)
EXSTAR_FN int exstar_acc_due_normalize(const exstar_i64 *acc)
{
  return acc[EXSTAR_ACC_COUNT_ANY] >= 4;
}

/* ---- decomposition of doubles and products into digits ---------------------------------- */

/* |x| = m * 2^ex with m an integer < 2^53; x finite and nonzero. */
EXSTAR_FN exstar_u64 exstar_mantissa(double x, int *ex)
{
  exstar_u64 u = exstar_bits(x);
  int e = (int)((u >> 52) & 0x7ff);
  exstar_u64 m = u & ((((exstar_u64)1) << 52) - 1);
  if (e == 0) { *ex = -1074; return m; }
  *ex = e - 1075;
  return m | (((exstar_u64)1) << 52);
}

EXSTAR_FN int exstar_signbit(double x) { return (int)(exstar_bits(x) >> 63); }

/* The three digit contributions of a finite nonzero double: x == sum c[k] * 2^(32*(idx+k)+EMIN).
 * Signed: negative x gives negative contributions. */
EXSTAR_FN int exstar_split_double(double x, exstar_i64 c[3])
{
  int ex;
  exstar_u64 m = exstar_mantissa(x, &ex);
  int p = ex - EXSTAR_ACC_EMIN;               /* >= 0: doubles sit above EMIN */
  int s = p & (EXSTAR_ACC_DIGIT_BITS - 1);
  exstar_u64 rest = m >> (EXSTAR_ACC_DIGIT_BITS - s); /* shift count in 1..32 */
  exstar_i64 sg = exstar_signbit(x) ? -1 : 1;
  c[0] = sg * (exstar_i64)((m << s) & EXSTAR_ACC_DIGIT_MASK);
  c[1] = sg * (exstar_i64)(rest & EXSTAR_ACC_DIGIT_MASK);
  c[2] = sg * (exstar_i64)(rest >> EXSTAR_ACC_DIGIT_BITS);
  return p / EXSTAR_ACC_DIGIT_BITS;
}

/* The five digit contributions of the exact product a*b (finite, nonzero): the 106-bit
 * integer product of the mantissas, placed straight into digits. Exact for every finite
 * a, b, including products that underflow or overflow in double. */
EXSTAR_FN int exstar_split_product(double a, double b, exstar_i64 c[5])
{
  int ea, eb;
  exstar_u64 ma = exstar_mantissa(a, &ea), mb = exstar_mantissa(b, &eb);
  exstar_u64 lo = ma * mb, hi = exstar_mulhi64(ma, mb);
  int p = ea + eb - EXSTAR_ACC_EMIN;
  int s = p & (EXSTAR_ACC_DIGIT_BITS - 1);
  exstar_u64 w0 = lo << s;
  exstar_u64 w1 = (hi << s) | (s ? lo >> (64 - s) : 0);
  exstar_u64 w2 = s ? hi >> (64 - s) : 0;
  exstar_i64 sg = (exstar_signbit(a) ^ exstar_signbit(b)) ? -1 : 1;
  c[0] = sg * (exstar_i64)(w0 & EXSTAR_ACC_DIGIT_MASK);
  c[1] = sg * (exstar_i64)(w0 >> EXSTAR_ACC_DIGIT_BITS);
  c[2] = sg * (exstar_i64)(w1 & EXSTAR_ACC_DIGIT_MASK);
  c[3] = sg * (exstar_i64)(w1 >> EXSTAR_ACC_DIGIT_BITS);
  c[4] = sg * (exstar_i64)(w2 & EXSTAR_ACC_DIGIT_MASK);
  return p / EXSTAR_ACC_DIGIT_BITS;
}

/* ---- special values --------------------------------------------------------------------- */

EXSTAR_FN int exstar_is_nan(double x) { return x != x; }

/* Flags of a sum term; *deposit is set when the term is finite and nonzero. */
EXSTAR_FN int exstar_term_flags(double x, int *deposit)
{
  *deposit = 0;
  if (exstar_is_nan(x)) return EXSTAR_FLAG_NAN | EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
  if (x == 0.0)
    return exstar_signbit(x) ? EXSTAR_FLAG_ANY : (EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY);
  if (x - x != 0.0) /* inf */
    return (x > 0 ? EXSTAR_FLAG_PINF : EXSTAR_FLAG_NINF) | EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
  *deposit = 1;
  return EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
}

/* Flags of a product term a*b, IEEE rules (0*inf is NaN); *deposit when finite nonzero. */
EXSTAR_FN int exstar_product_flags(double a, double b, int *deposit)
{
  int da, db;
  int fa = exstar_term_flags(a, &da), fb = exstar_term_flags(b, &db);
  int neg = exstar_signbit(a) ^ exstar_signbit(b);
  *deposit = da && db;
  if ((fa | fb) & EXSTAR_FLAG_NAN) return EXSTAR_FLAG_NAN | EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
  if ((fa | fb) & (EXSTAR_FLAG_PINF | EXSTAR_FLAG_NINF)) {
    if (a == 0.0 || b == 0.0) return EXSTAR_FLAG_NAN | EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
    return (neg ? EXSTAR_FLAG_NINF : EXSTAR_FLAG_PINF) | EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
  }
  if (a == 0.0 || b == 0.0)
    return neg ? EXSTAR_FLAG_ANY : (EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY);
  return EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
}

/* ---- FPE --------------------------------------------------------------------------------- */

EXSTAR_FN void exstar_fpe_zero(double fpe[EXSTAR_FPE_N])
{
  for (int i = 0; i < EXSTAR_FPE_N; ++i) fpe[i] = 0.0;
}

/* Adds x (|x| < EXSTAR_FPE_TERM_MAX) to the expansion; returns what did not fit (0 when all
 * did), which the caller deposits into its accumulator. Early exit: once the carried error
 * is zero the rest of the expansion is unchanged (ExBLAS). */
EXSTAR_FN double exstar_fpe_add(double fpe[EXSTAR_FPE_N], double x)
{
  for (int i = 0; i < EXSTAR_FPE_N && x != 0.0; ++i) fpe[i] = exstar_two_sum(fpe[i], x, &x);
  return x;
}

/* The same addition without the early exit, over an expansion stored with a stride (SIMD
 * layouts keep lane l of component k at fpe[k*stride + l]). Branch-free, so a loop over
 * lanes vectorises; the result is identical (TwoSum(f, 0) == (f, 0) exactly). */
EXSTAR_FN double exstar_fpe_add_full(double *fpe, int stride, double x)
{
  for (int i = 0; i < EXSTAR_FPE_N; ++i) fpe[i * stride] = exstar_two_sum(fpe[i * stride], x, &x);
  return x;
}

/* The head must stay below EXSTAR_FPE_HEAD_MAX; returns it (to deposit) when too large. */
EXSTAR_FN double exstar_fpe_take_large_head(double fpe[EXSTAR_FPE_N])
{
  double h = fpe[0];
  if (!(h < EXSTAR_FPE_HEAD_MAX && h > -EXSTAR_FPE_HEAD_MAX)) { fpe[0] = 0.0; return h; }
  return 0.0;
}

/* ---- rounding ---------------------------------------------------------------------------- */

/* Carry-propagates digits 0..N-2 into [0, 2^32); the top digit keeps the sign. Exact
 * division (not >>) so that negative digits carry the same way in all three languages. */
EXSTAR_FN exstar_i64 exstar_digit_carry(exstar_i64 *d)
{
  exstar_i64 lo = *d & EXSTAR_ACC_DIGIT_MASK;
  exstar_i64 c = (*d - lo) / (((exstar_i64)1) << EXSTAR_ACC_DIGIT_BITS);
  *d = lo;
  return c;
}

/* Result of special terms, or 0 (with *done = 0) when the digits decide. */
EXSTAR_FN double exstar_special_result(exstar_i64 nan, exstar_i64 pinf, exstar_i64 ninf, int *done)
{
  *done = 1;
  if (nan > 0 || (pinf > 0 && ninf > 0)) return exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
  if (pinf > 0) return exstar_from_bits(EXSTAR_U64(0x7ff0000000000000));
  if (ninf > 0) return exstar_from_bits(EXSTAR_U64(0xfff0000000000000));
  *done = 0;
  return 0.0;
}

/* Low part of a digit in [-2^31, 2^31): x - low is a multiple of 2^32 (a signed split). */
EXSTAR_FN exstar_i64 exstar_digit_signed_low(exstar_i64 x)
{
  const exstar_u64 bias = ((exstar_u64)1) << (EXSTAR_ACC_DIGIT_BITS - 1);
  return (exstar_i64)(((exstar_u64)x + bias) & EXSTAR_ACC_DIGIT_MASK) - (exstar_i64)bias;
}

/* Digit i after one signed carry-save pass over the digits: each digit below the top becomes
 * its signed low part plus the carry of the digit below it (below: digit i-1 before the pass).
 * Value-preserving, and no dependency between digits (cheap, and parallel). Two passes bring every
 * digit below the top into [-2^31-1, 2^31+1), so |Σ_{i<t} d_i 2^(32i)| < 2^(32t): the topmost
 * nonzero digit then has the sign of the whole value. */
EXSTAR_FN exstar_i64 exstar_digit_after_pass(exstar_i64 di, exstar_i64 below, int i)
{
  exstar_i64 carry = i > 0 ? (below - exstar_digit_signed_low(below)) / (((exstar_i64)1) << EXSTAR_ACC_DIGIT_BITS) : 0;
  return (i == EXSTAR_ACC_NDIGITS - 1 ? di : exstar_digit_signed_low(di)) + carry;
}

/* The pass in place, top-down (digit i-1 is still the one before the pass when digit i is
 * rewritten). GPU kernels may instead run exstar_digit_after_pass on all digits in parallel. */
EXSTAR_FN void exstar_digits_signed_pass(exstar_i64 d[EXSTAR_ACC_NDIGITS])
{
  for (int i = EXSTAR_ACC_NDIGITS - 1; i >= 1; --i) d[i] = exstar_digit_after_pass(d[i], d[i - 1], i);
  d[0] = exstar_digit_after_pass(d[0], 0, 0);
}

/* Correct rounding (RNE) of sign * M * 2^EMIN where M's top digits are dt (nonzero, at digit
 * index t), d1, d2 (each in [0, 2^32)) and sticky says whether anything below d2 is nonzero.
 * Subnormal results and overflow to inf included. */
EXSTAR_FN double exstar_round_top(exstar_u64 dt, exstar_u64 d1, exstar_u64 d2, int sticky, int t, int negative)
{
  exstar_u64 sign = negative ? EXSTAR_U64(0x8000000000000000) : 0;
  if (t >= EXSTAR_ACC_NDIGITS - 1)          /* the headroom digit: far above 2^1024 */
    return exstar_from_bits(sign | EXSTAR_U64(0x7ff0000000000000));
  /* w: the 96 bits of dt, d1, d2, top-aligned into 64 bits + sticky */
  exstar_u64 top = (dt << 32) | d1;         /* dt nonzero: bit set in 32..63 */
  int lz = exstar_clz64(top);
  exstar_u64 w = lz ? (top << lz) | (d2 >> (32 - lz)) : top; /* lz < 32 */
  sticky = sticky || (lz ? ((d2 << (32 + lz)) != 0) : (d2 != 0));
  /* bit 63 of w has absolute position b: value of that bit is 2^(b + EMIN) */
  int b = t * EXSTAR_ACC_DIGIT_BITS + 31 - lz;
  int lead = b + EXSTAR_ACC_EMIN;                 /* exponent of the leading bit */
  if (lead > 1023) return exstar_from_bits(sign | EXSTAR_U64(0x7ff0000000000000));
  int q = lead - 52 > -1074 ? lead - 52 : -1074;  /* exponent of the kept lsb */
  int keep = lead - q + 1;                          /* bits kept: 53, fewer when subnormal */
  exstar_u64 m, rbit;
  if (keep <= 0) {                                  /* below half the smallest subnormal? */
    m = 0;
    rbit = keep == 0 ? 1 : 0;
    sticky = sticky || (keep == 0 ? (w << 1) != 0 : 1);
  } else {
    m = w >> (64 - keep);
    rbit = (w >> (63 - keep)) & 1;
    sticky = sticky || (keep < 63 && (w << (keep + 1)) != 0);
  }
  if (rbit && (sticky || (m & 1))) ++m;
  /* m * 2^q: biased exponent arithmetic absorbs the carry of m == 2^53 and the step from
   * subnormal to normal (classic bit trick: bits = (q + 1074) << 52 + m). */
  exstar_u64 bits = (((exstar_u64)(q + 1074)) << 52) + m;
  if (bits >= EXSTAR_U64(0x7ff0000000000000)) bits = EXSTAR_U64(0x7ff0000000000000);
  return exstar_from_bits(sign | bits);
}

/* Rounds an accumulator whose digits went through two signed carry-save passes, given t, the
 * index of its topmost nonzero digit (-1: none), and u, the topmost nonzero digit below
 * exstar_round_window_low(t) (-1: none). GPU kernels find t and u with all their threads. */
EXSTAR_FN int exstar_round_window_low(int t) { return t >= 3 ? t - 3 : 0; }

EXSTAR_FN double exstar_acc_round_at(const exstar_i64 acc[EXSTAR_ACC_WORDS], int t, int u)
{
  int done;
  double r = exstar_special_result(acc[EXSTAR_ACC_COUNT_NAN], acc[EXSTAR_ACC_COUNT_PINF],
                                   acc[EXSTAR_ACC_COUNT_NINF], &done);
  if (done) return r;
  if (t < 0) { /* exact zero: -0 only when every term was -0 */
    int allneg = acc[EXSTAR_ACC_COUNT_ANY] > 0 && acc[EXSTAR_ACC_COUNT_NOT_NEGZERO] == 0;
    return exstar_from_bits(allneg ? EXSTAR_U64(0x8000000000000000) : 0);
  }
  int negative = acc[t] < 0;
  if (t == EXSTAR_ACC_NDIGITS - 1) return exstar_round_top(1, 0, 0, 0, t, negative);
  /* The magnitude's window: digits L..t made nonnegative and carried; what lies below L only
   * decides a borrow (when its sign is opposite) and the sticky bit. */
  int L = exstar_round_window_low(t);
  int sticky = u >= 0;
  exstar_i64 w[5];
  exstar_i64 carry = (sticky && ((acc[u] < 0) != negative)) ? -1 : 0;
  for (int i = L; i <= t; ++i) {
    w[i - L] = (negative ? -acc[i] : acc[i]) + carry;
    carry = exstar_digit_carry(&w[i - L]);
  }
  w[t - L + 1] = carry; /* 0: the window is positive and its top digit below 2^31+2 */
  int k = t - L + 1;
  while (k > 0 && w[k] == 0) --k;
  for (int i = k - 3; i >= 0 && !sticky; --i) sticky = w[i] != 0;
  return exstar_round_top((exstar_u64)w[k], k >= 1 ? (exstar_u64)w[k - 1] : 0, k >= 2 ? (exstar_u64)w[k - 2] : 0,
                          sticky, L + k, negative);
}

/* The same, finding t and u by scanning. */
EXSTAR_FN double exstar_acc_round_carried(const exstar_i64 acc[EXSTAR_ACC_WORDS])
{
  int t = EXSTAR_ACC_NDIGITS - 1;
  while (t >= 0 && acc[t] == 0) --t;
  int u = t >= 0 ? exstar_round_window_low(t) - 1 : -1;
  while (u >= 0 && acc[u] == 0) --u;
  return exstar_acc_round_at(acc, t, u);
}

/* Rounds a private accumulator copy (its digits are rewritten in place). Work: two
 * carry-save passes and two scans over the digits, then a window of four digits. */
EXSTAR_FN double exstar_acc_round_private(exstar_i64 acc[EXSTAR_ACC_WORDS])
{
  exstar_digits_signed_pass(acc);
  exstar_digits_signed_pass(acc);
  return exstar_acc_round_carried(acc);
}

#endif /* EXSTAR_CORE_ACCUMULATOR_H */
