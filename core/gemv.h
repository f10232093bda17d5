/* exstar core: the exact gemv term alpha*a*x (a product of THREE doubles), written once for
 * CPU, CUDA and OpenCL. The memory-touching steps are in gemv.inc (instantiated per kind of
 * accumulator memory, like acc_ops.inc); this header holds the pure parts.
 *
 * Definition (per term, IEEE rules): each alpha*a_ij*x_j is one exact term. Any NaN factor
 * gives NaN; an infinite factor with a zero factor gives NaN; otherwise an infinite factor
 * gives an infinity of the product's sign; a zero factor gives a zero of the product's sign
 * (which matters for the sign of an exact zero result); else the exact real product. */
#ifndef EXSTAR_CORE_GEMV_H
#define EXSTAR_CORE_GEMV_H

#include "accumulator.h"

#define EXSTAR_DBL_MAX 0x1.fffffffffffffp1023

EXSTAR_FN int exstar_is_finite_nonzero(double x) { return x != 0.0 && fabs(x) <= EXSTAR_DBL_MAX; }

/* Flags of the term a*b*c (IEEE rules above); *deposit when it is finite and nonzero. */
EXSTAR_FN int exstar_product3_flags(double a, double b, double c, int *deposit)
{
  const int nz = EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
  int neg = exstar_signbit(a) ^ exstar_signbit(b) ^ exstar_signbit(c);
  int has_nan = exstar_is_nan(a) || exstar_is_nan(b) || exstar_is_nan(c);
  int has_inf = (fabs(a) > EXSTAR_DBL_MAX) || (fabs(b) > EXSTAR_DBL_MAX) || (fabs(c) > EXSTAR_DBL_MAX);
  int has_zero = a == 0.0 || b == 0.0 || c == 0.0;
  *deposit = 0;
  if (has_nan || (has_inf && has_zero)) return EXSTAR_FLAG_NAN | nz;
  if (has_inf) return (neg ? EXSTAR_FLAG_NINF : EXSTAR_FLAG_PINF) | nz;
  if (has_zero) return neg ? EXSTAR_FLAG_ANY : nz;
  *deposit = 1;
  return nz;
}

/* The six digit contributions of the exact product a*b*c (finite, nonzero): the 159-bit
 * integer product of the three mantissas (three 64-bit limbs), placed straight into digits.
 * Exact for every finite a, b, c: the accumulator spans 2^-3222 .. 2^3072. */
EXSTAR_FN int exstar_split_product3(double a, double b, double c, exstar_i64 d[6])
{
  int ea, eb, ec;
  exstar_u64 ma = exstar_mantissa(a, &ea), mb = exstar_mantissa(b, &eb), mc = exstar_mantissa(c, &ec);
  exstar_u64 lo = ma * mb, hi = exstar_mulhi64(ma, mb);        /* ma*mb = hi:lo, hi < 2^42 */
  exstar_u64 l0 = lo * mc, l1 = exstar_mulhi64(lo, mc);        /* lo*mc = l1:l0 */
  exstar_u64 h0 = hi * mc, h1 = exstar_mulhi64(hi, mc);        /* hi*mc = h1:h0, < 2^95 */
  exstar_u64 w0 = l0, w1 = l1 + h0;
  exstar_u64 w2 = h1 + (w1 < h0 ? 1 : 0);                      /* < 2^31: the product < 2^159 */
  int p = ea + eb + ec - EXSTAR_ACC_EMIN;                      /* >= 10: products sit above EMIN */
  int s = p & (EXSTAR_ACC_DIGIT_BITS - 1);
  exstar_u64 x0 = w0 << s;
  exstar_u64 x1 = (w1 << s) | (s ? w0 >> (64 - s) : 0);
  exstar_u64 x2 = (w2 << s) | (s ? w1 >> (64 - s) : 0);        /* < 2^62: nothing above */
  exstar_i64 sg = (exstar_signbit(a) ^ exstar_signbit(b) ^ exstar_signbit(c)) ? -1 : 1;
  d[0] = sg * (exstar_i64)(x0 & EXSTAR_ACC_DIGIT_MASK);
  d[1] = sg * (exstar_i64)(x0 >> EXSTAR_ACC_DIGIT_BITS);
  d[2] = sg * (exstar_i64)(x1 & EXSTAR_ACC_DIGIT_MASK);
  d[3] = sg * (exstar_i64)(x1 >> EXSTAR_ACC_DIGIT_BITS);
  d[4] = sg * (exstar_i64)(x2 & EXSTAR_ACC_DIGIT_MASK);
  d[5] = sg * (exstar_i64)(x2 >> EXSTAR_ACC_DIGIT_BITS);
  return p / EXSTAR_ACC_DIGIT_BITS;
}

/* alpha*x split once per x_j (per column for 'N'): when alpha*x = s + t exactly (TwoProd in
 * its window, alpha and x finite nonzero), returns s (nonzero) and t, and every term
 * alpha*a*x of that x is exactly a*s + a*t: two dot terms (one when t == 0, always the case
 * for alpha a power of two in range, e.g. +-1). Otherwise returns 0: the caller takes
 * exstar_gemv_step for those terms. */
EXSTAR_FN double exstar_gemv_scale_x(double alpha, double x, double *t)
{
  double s;
  if (exstar_two_prod_fast(alpha, x, &s, t)) return s;
  *t = 0.0;
  return 0.0;
}

#endif /* EXSTAR_CORE_GEMV_H */
