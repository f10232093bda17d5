/* exstar core: the exact sum of squares Σ x_i² on fixed grids, for nrm2's fast kernels. Written
 * once for every back end (the CUDA kernel uses it; the CPU's dot kernels are fast enough).
 * Include after accumulator.h and gemm.h.
 *
 * A square x² = p + e exactly (TwoProd: p = RN(x²), e = fma(x, x, −p)) when p is in range. The
 * dot's FPE adds p and e by TwoSum chains, ~38 floating-point operations an element, which bounds
 * an H100 at ~1.65 TB/s for nrm2. Squares are never negative, so their sum grows without
 * cancellation and a window of three fixed grids holds it exactly, after Rump, Ogita and Oishi's
 * ExtractScalar (SISC 2008, Lemma 3.2: for sigma = 2^k and |p| <= sigma, q = RN(RN(sigma + p) −
 * sigma) is a multiple of 2^-53 sigma, |q| <= 2^-M sigma when |p| <= 2^-M sigma, and p − q is a
 * double, so RN(p − q) is exact):
 *
 *   window k:  s1 = 2^k, s2 = 2^(k−53+C), s3 = 2^(k−106+2C); every p <= lim = 2^(k−C)
 *   q1 = (s1 + p) − s1   h1 += q1   t = p − q1       |t| <= 2^(k−53) = 2^-C s2
 *   q2 = (s2 + t) − s2   h2 += q2   t2 = t − q2      |t2| <= 2^(k−106+C)
 *   q3 = (s2 + e) − s2   h2 += q3   e2 = e − q3      |e| <= 2^-53 p <= 2^-C s2
 *   q4 = (s3 + e2) − s3  h3 += q4   e3 = e2 − q4     |e2| <= 2^(k−106+C) = 2^-C s3
 *
 * Every q_j is a multiple of its grid (2^-53 of its sigma) and at most 2^-C of it (plus one grid
 * step), and a window takes at most 2^(C−2) squares (two terms each into h2), so every partial
 * sum h_j stays below s_j in size on its grid: each addition is exact. The remainders t2 and
 * e3 are exact doubles; they are zero unless p is far below lim (for t2: p < 2^(k−54+C), for e3:
 * p < 2^(k−54+2C) — with C = 10 and lim 16x the window's first square, below 2^-20 of it), and
 * the caller adds them to its accumulator exactly. A full window, or a p above lim, ends the
 * window: h1 + h2 + h3 (three exact doubles) go to the accumulator and a new window starts at
 * that p. So Σ x² = Σ windows' h1 + h2 + h3 + Σ remainders, all exact: the bits are those of the
 * dot of x with itself. 22 operations an element, no branch taken on ordinary data.
 *
 * Range: the fast path takes 2^-600 <= p <= 2^1000 (every sigma and grid then normal, nothing
 * overflows); zeros, tiny, huge and non-finite squares take the caller's exact slow path. */
#ifndef EXSTAR_CORE_SUMSQ_H
#define EXSTAR_CORE_SUMSQ_H

#define EXSTAR_SUMSQ_C 10      /* headroom bits of each grid */
#define EXSTAR_SUMSQ_MARGIN 4  /* a window's lim is 2^MARGIN times its first square's scale */
#define EXSTAR_SUMSQ_MIN 0x1p-600
#define EXSTAR_SUMSQ_MAX 0x1p1000

typedef struct {
  double s1, s2, s3; /* the grids' sigmas */
  double lim;        /* the largest square the window takes (0: no window yet) */
  exstar_u64 span;   /* bits(lim) − bits(EXSTAR_SUMSQ_MIN): exstar_sumsq_takes's one comparison */
  int left;          /* squares the window may still take, over all its sums */
} exstar_sumsq;

/* The exact partial sums on the three grids, h[0..2]. A window may feed several sets of them
 * (independent chains of additions): the bounds above hold for each, as each takes at most
 * the window's 2^(C−2) squares. */
EXSTAR_FN void exstar_sumsq_zero(double h[3]) { h[0] = h[1] = h[2] = 0.0; }

/* No window: the first square in range opens one. */
EXSTAR_FN void exstar_sumsq_init(exstar_sumsq *w)
{
  w->s1 = w->s2 = w->s3 = 0.0;
  w->lim = 0.0;
  w->span = 0;
  w->left = 0;
}

/* Whether p (a square) is for the fast path at all. */
EXSTAR_FN int exstar_sumsq_in_range(double p) { return p >= EXSTAR_SUMSQ_MIN && p <= EXSTAR_SUMSQ_MAX; }

/* Opens a window for p (in range); the caller has taken every set of sums out of the old one. */
EXSTAR_FN void exstar_sumsq_open(exstar_sumsq *w, double p)
{
  const int k = exstar_exp_above(p) + EXSTAR_SUMSQ_MARGIN + EXSTAR_SUMSQ_C;
  w->s1 = exstar_pow2(k);
  w->s2 = exstar_pow2(k - 53 + EXSTAR_SUMSQ_C);
  w->s3 = exstar_pow2(k - 106 + 2 * EXSTAR_SUMSQ_C);
  w->lim = exstar_pow2(k - EXSTAR_SUMSQ_C);
  w->span = exstar_bits(w->lim) - exstar_bits(EXSTAR_SUMSQ_MIN);
  w->left = 1 << (EXSTAR_SUMSQ_C - 2);
}

/* Whether the open window takes p (p <= lim and room left; false for NaN). */
EXSTAR_FN int exstar_sumsq_fits(const exstar_sumsq *w, double p) { return p <= w->lim && w->left > 0; }

/* Whether the fast path takes the square p whole: EXSTAR_SUMSQ_MIN <= p <= lim, room left. The
 * same test as exstar_sumsq_fits && p >= EXSTAR_SUMSQ_MIN in integer operations (a square is
 * +0 or more, or NaN; the bits of doubles >= +0 are ordered as their values, NaN's above inf's),
 * which leave the floating-point pipes to the sums. */
EXSTAR_FN int exstar_sumsq_takes(const exstar_sumsq *w, double p)
{
  return exstar_bits(p) - exstar_bits(EXSTAR_SUMSQ_MIN) <= w->span && w->left > 0;
}

/* Whether a remainder is nonzero (±0 both zero), in integer operations. */
EXSTAR_FN int exstar_sumsq_any(double a, double b) { return ((exstar_bits(a) | exstar_bits(b)) << 1) != 0; }

/* Adds the square p + e (p = RN(x²) fitting the window, e = fma(x, x, −p)) to the sums h; *t2
 * and *e3 receive the exact remainders (usually 0) the caller must add elsewhere. */
EXSTAR_FN void exstar_sumsq_add(exstar_sumsq *w, double h[3], double p, double e, double *t2, double *e3)
{
  const double q1 = (w->s1 + p) - w->s1;
  h[0] += q1;
  const double t = p - q1;
  const double q2 = (w->s2 + t) - w->s2;
  h[1] += q2;
  *t2 = t - q2;
  const double q3 = (w->s2 + e) - w->s2;
  h[1] += q3;
  const double e2 = e - q3;
  const double q4 = (w->s3 + e2) - w->s3;
  h[2] += q4;
  *e3 = e2 - q4;
  w->left -= 1;
}

#endif
