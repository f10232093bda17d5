/* exstar core: exact integer products for the gemm fast path by the Chinese remainder theorem,
 * so that the products run on integer (tensor-core) GEMMs. Written once for the CPU (tests) and
 * CUDA. Include after checked_round.h and gemm.h.
 *
 * An entry s = sum_l a_l b_l (k terms) with 2^ea >= max_l |a_l| over its row of op(A) and
 * 2^eb >= max_l |b_l| over its column of op(B) (core/gemm.h's codes). With w bits:
 *     a_l = 2^(ea-w) (A_l + fa_l),  A_l = trunc(a_l 2^(w-ea)) an integer, |A_l| <= 2^w, |fa_l| < 1
 * and the same for b. Then
 *     s = 2^(ea+eb-2w) S + rest,   S = sum_l A_l B_l (an integer, |S| <= k 2^2w)
 *     |rest| <= sum_l 2^(ea+eb-2w) (|A_l| + |B_l| + 1) < k 2^(ea+eb-w+1) (1 + 2^-(w+1)) =: E.
 * S is exact from its residues modulo the EXSTAR_CRT_COUNT coprime moduli p of crt_moduli.h:
 * a_l and b_l go to int8 residues of A_l and B_l (symmetric, in [-128, 127]), each modulus's
 * residue matrices multiply in an int8 GEMM with int32 sums (exact: |sum| <= k 2^14 < 2^31 for
 * k <= 2^16), and S is the unique integer in (-M/2, M/2) with those residues (M their product):
 *     S = X - q M,  X = sum_p y_p (M/p),  y_p = (c_p (M/p)^-1) mod p,  q = rint(sum_p y_p / p).
 * (sum_p y_p / p = X / M, computed in doubles within 2^-40 of its value, whose fractional part
 * is S/M mod 1, within 1/8 of an integer since w keeps |S| <= k 2^2w <= M/8: rint is exact.)
 * S's EXSTAR_CRT_LIMBS (7) 32-bit limbs, scaled by 2^(ea+eb-2w), enter a bounded double-double
 * (exact terms, the roundings of its additions bounded by the bdd itself) with err E, which takes
 * exstar_bdd_finish (gemm) or is added to a state: the same checked rounding as the FP64 fast
 * path, so the bits cannot differ. An entry whose codes are not finite, or whose scale would
 * leave the window (a limb below 2^-1074, a value past 2^960) declines: the repair path takes it.
 *
 * w is the largest width with k 2^2w <= 2^(log2 M - 3): 90 bits for k = 16384, 93 for k = 512
 * (26 moduli, M ~ 2^198.97), so E is 2^-75 and 2^-83 of 2^(ea+eb) there (the folded FP64
 * loop's bound, k 37 2^-106 sigma with sigma <= k 2^(ea+eb): about 2^-73 and 2^-83). With 24
 * moduli (M ~ 2^184.6, six limbs) w was 83 and 86 and E 2^-68 and 2^-76: the LU's panels then
 * declined ~45x more roundings of the states it had updated than after the FP64 loop (one
 * H200, n = 16384: 10976 against 246). */
#ifndef EXSTAR_CORE_CRT_H
#define EXSTAR_CORE_CRT_H

#include "core/crt_moduli.h"

/* The largest k the int32 sums hold: k 128^2 < 2^31. */
#define EXSTAR_CRT_MAX_K 65536

/* ceil(log2 k), k >= 1. */
EXSTAR_FN int exstar_crt_log2_ceil(exstar_i64 k)
{
  int e = 0;
  while ((((exstar_i64)1) << e) < k) ++e;
  return e;
}

/* w for k terms: k 2^2w <= 2^(LOG2M_FLOOR - 3) <= M/8, and w <= 95 (12 bytes hold |A| <= 2^w). */
EXSTAR_FN int exstar_crt_width(exstar_i64 k)
{
  const int w = (EXSTAR_CRT_LOG2M_FLOOR - 3 - exstar_crt_log2_ceil(k)) / 2;
  return w > 95 ? 95 : w;
}

/* How an entry with codes ea and eb goes: EXSTAR_CRT_DECLINE (a NaN or inf in its lines, or a
 * scale outside the window: a limb's 2^(32t + ea + eb - 2w) below 2^-1074, or the value, below
 * k 2^(ea+eb), and E not far below overflow), EXSTAR_CRT_ZERO (a line of zeros: the product is
 * exactly 0, E = 0) or EXSTAR_CRT_PRODUCT. */
#define EXSTAR_CRT_DECLINE 0
#define EXSTAR_CRT_ZERO 1
#define EXSTAR_CRT_PRODUCT 2
EXSTAR_FN int exstar_crt_entry_kind(int ea, int eb, int w, exstar_i64 k)
{
  if (ea >= EXSTAR_GEMM_EXP_NONFINITE || eb >= EXSTAR_GEMM_EXP_NONFINITE) return EXSTAR_CRT_DECLINE;
  if (ea <= EXSTAR_GEMM_EXP_ZERO || eb <= EXSTAR_GEMM_EXP_ZERO) return EXSTAR_CRT_ZERO;
  const int e = ea + eb;
  return (e - 2 * w >= -1074) & (e + exstar_crt_log2_ceil(k) <= 960) ? EXSTAR_CRT_PRODUCT : EXSTAR_CRT_DECLINE;
}

/* E of the top of this file, rounded up (1 + 2^-40 covers 1 + 2^-(w+1) and the rounding). */
EXSTAR_FN double exstar_crt_bound(exstar_i64 k, int ea, int eb, int w)
{
  return (double)k * exstar_pow2(ea + eb - w + 1) * (1.0 + 0x1p-40);
}

/* |A| = trunc(|a| 2^(w-e)) in 96 bits (w0 least significant) and A's sign. */
typedef struct {
  unsigned w0, w1, w2;
  int neg;
} exstar_crt_int;

/* A for a with |a| <= 2^e (the line's code); zero for a zero, a NaN or an inf (their entries
 * decline by their codes). */
EXSTAR_FN exstar_crt_int exstar_crt_split(double a, int e, int w)
{
  exstar_crt_int r;
  const exstar_u64 u = exstar_bits(a);
  const int be = (int)((u >> 52) & 0x7ff);
  exstar_u64 mant = u & ((((exstar_u64)1) << 52) - 1), lo = 0, hi = 0;
  r.neg = (int)(u >> 63);
  if (be != 0) mant |= ((exstar_u64)1) << 52;
  const int s = (be != 0 ? be - 1075 : -1074) - e + w; /* A = mant 2^s, truncated */
  if (be != 0x7ff && mant != 0 && s < 96) {
    if (s >= 64) hi = mant << (s - 64);
    else if (s > 0) lo = mant << s, hi = mant >> (64 - s);
    else if (s > -64) lo = mant >> (-s);
  }
  r.w0 = (unsigned)lo, r.w1 = (unsigned)(lo >> 32), r.w2 = (unsigned)hi;
  return r;
}

/* sum of the products of the four bytes of a and b (unsigned). */
EXSTAR_FN unsigned exstar_dot4u8(unsigned a, unsigned b)
{
#if defined(__CUDA_ARCH__)
  return __dp4a(a, b, 0u);
#else
  unsigned s = 0;
  for (int i = 0; i < 32; i += 8) s += ((a >> i) & 0xffu) * ((b >> i) & 0xffu);
  return s;
#endif
}

/* A mod p as a signed residue in [-128, 127] (c0..c2: crt_moduli.h's bytes 2^(8t) mod p). */
EXSTAR_FN int exstar_crt_residue(exstar_crt_int x, unsigned p, unsigned c0, unsigned c1, unsigned c2)
{
  const unsigned raw = exstar_dot4u8(x.w0, c0) + exstar_dot4u8(x.w1, c1) + exstar_dot4u8(x.w2, c2);
  unsigned r = raw % p;
  if (x.neg && r != 0) r = p - r;
  return (int)r - (r >= (p + 1) / 2 ? (int)p : 0);
}

/* The reconstruction of S from its residues, one modulus at a time, in any order. */
typedef struct {
  exstar_u64 x[EXSTAR_CRT_LIMBS]; /* X's limbs, not carried (each below 26 2^40 < 2^45) */
  double f;        /* sum of y_p / p */
} exstar_crt_sum;

EXSTAR_FN void exstar_crt_sum_init(exstar_crt_sum *s)
{
  for (int t = 0; t < EXSTAR_CRT_LIMBS; ++t) s->x[t] = 0;
  s->f = 0.0;
}

/* c: any integer congruent to S mod p (an int32 GEMM sum); the rest: crt_moduli.h's row of p. */
EXSTAR_FN void exstar_crt_sum_add(exstar_crt_sum *s, int c, unsigned p, unsigned inv, unsigned m0, unsigned m1,
                                  unsigned m2, unsigned m3, unsigned m4, unsigned m5, unsigned m6)
{
  const int cm = c % (int)p; /* in (-p, p) */
  const unsigned y = ((unsigned)(cm + (int)p) * inv) % p;
  s->x[0] += (exstar_u64)y * m0, s->x[1] += (exstar_u64)y * m1, s->x[2] += (exstar_u64)y * m2;
  s->x[3] += (exstar_u64)y * m3, s->x[4] += (exstar_u64)y * m4, s->x[5] += (exstar_u64)y * m5;
  s->x[6] += (exstar_u64)y * m6;
  s->f += (double)y * (1.0 / (double)p);
}

/* S = X - q M into d (which it sets), scaled by 2^e0 (e0 >= -1074, so every limb's value is an
 * exact double): d->hi + d->lo + xi with |xi| <= d->mag 2^-52, d->err = 0. */
EXSTAR_FN void exstar_crt_sum_to_bdd(const exstar_crt_sum *s, int e0, exstar_bdd *d)
{
  const exstar_i64 q = (exstar_i64)rint(s->f);
  const exstar_u64 M[EXSTAR_CRT_LIMBS] = {EXSTAR_CRT_M0, EXSTAR_CRT_M1, EXSTAR_CRT_M2, EXSTAR_CRT_M3,
                                          EXSTAR_CRT_M4, EXSTAR_CRT_M5, EXSTAR_CRT_M6};
  unsigned limb[EXSTAR_CRT_LIMBS];
  exstar_i64 carry = 0;
  for (int t = 0; t < EXSTAR_CRT_LIMBS; ++t) {
    const exstar_i64 v = (exstar_i64)s->x[t] - q * (exstar_i64)M[t] + carry;
    limb[t] = (unsigned)((exstar_u64)v & 0xffffffffu);
    carry = (v - (exstar_i64)limb[t]) / 4294967296LL; /* exact */
  }
  /* carry is 0 (S >= 0) or -1 (S < 0, limbs in two's complement): take |S| */
  double sign = 1.0;
  if (carry < 0) {
    sign = -1.0;
    exstar_u64 b = 1;
    for (int t = 0; t < EXSTAR_CRT_LIMBS; ++t) {
      b += (exstar_u64)(~limb[t]);
      limb[t] = (unsigned)(b & 0xffffffffu);
      b >>= 32;
    }
  }
  d->hi = 0.0, d->lo = 0.0, d->err = 0.0, d->mag = 0.0;
  for (int t = EXSTAR_CRT_LIMBS - 1; t >= 0; --t)
    if (limb[t] != 0) exstar_bdd_add_pair(d, sign * (double)limb[t] * exstar_pow2(32 * t + e0), 0.0);
}

#endif /* EXSTAR_CORE_CRT_H */
