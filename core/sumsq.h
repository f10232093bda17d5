/* exstar core: the exact sum of squares Σ x_i² on fixed grids, for nrm2's fast kernels. Written
 * once for every back end (the CUDA kernel uses it; the CPU's dot kernels are fast enough).
 * Include after accumulator.h and gemm.h.
 *
 * A square x² = p + e exactly (TwoProd: p = RN(x²), e = fma(x, x, −p)) when p is in range. The
 * dot's FPE adds p and e by TwoSum chains, ~38 floating-point operations an element, which bounds
 * an H100 at ~1.65 TB/s for nrm2. Squares are never negative, so their sum grows without
 * cancellation and a window of three fixed grids holds it exactly, after Rump, Ogita and Oishi's
 * ExtractScalar (SISC 2008, Lemma 3.2), with each grid's running sum itself as the extractor
 * (as core/gemm.h's fast path): a running sum H starts at 1.5 sigma and stays in [sigma, 2 sigma),
 * where its ulp is 2^-52 sigma; H' = RN(H + v) takes v's top part q = H' − H exactly (two doubles
 * of one binade), and v − q, the rounding error of a sum of two doubles, is a double (TwoSum):
 *
 *   window k:  s1 = 2^k, s2 = 2^(k−53+C), s3 = 2^(k−106+2C); every p <= lim = 2^(k−C)
 *   H1' = H1 + p    q1 = H1' − H1   t = p − q1       |t| <= 2^(k−53) = 2^-C s2
 *   H2' = H2 + t    q2 = H2' − H2   t2 = t − q2      |t2| <= 2^(k−105+C)
 *   H2' = H2 + e    q3 = H2' − H2   e2 = e − q3      |e| <= 2^-53 p, |e2| <= 2^(k−105+C) = 2^-C s3
 *   H3' = H3 + e2   q4 = H3' − H3   e3 = e2 − q4
 *
 * A window takes at most 2^(C−2) squares, so each grid's q's sum to at most about s_j/4 in size
 * (p <= 2^-C s1; t and e together about 2^-C s2; e2 <= 2^-C s3) and every H_j stays within
 * [1.25 s_j, 1.75 s_j]: one binade, one ulp, every q_j exact. The remainders t2 and e3 are exact
 * doubles; they are zero unless p is far below lim (for t2: p < 2^(k−53+C), for e3: about
 * p < 2^(k−53+2C) — with C = 10 and lim 16x the window's first square, below 2^-19 of it), and
 * the caller adds them to its accumulator exactly. A full window, or a p above lim, ends the
 * window: H_j − 1.5 s_j (three exact doubles, exstar_sumsq_part) go to the accumulator and a new
 * window starts at that p. So Σ x² = Σ windows' parts + Σ remainders, all exact: the bits are
 * those of the dot of x with itself. 18 operations an element (with the fixed sigmas as
 * extractors, 22), no branch taken on ordinary data.
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

/* The running sums on the three grids, h[0..2] (H_j above: 1.5 s_j plus the exact part taken). A
 * window may feed several sets of them (independent chains of additions): the bounds above hold
 * for each, as each takes at most the window's 2^(C−2) squares. Zero before the first window
 * (whose sigmas are zero): exstar_sumsq_part is then zero too. */
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

/* Grid j's exact part of a window's sums: h[j] − 1.5 s_j (exact: both in one binade). */
EXSTAR_FN double exstar_sumsq_part(const exstar_sumsq *w, const double h[3], int j)
{
  const double s = j == 0 ? w->s1 : j == 1 ? w->s2 : w->s3;
  return h[j] - 1.5 * s;
}

/* Starts a set of sums h in the open window w. */
EXSTAR_FN void exstar_sumsq_start(const exstar_sumsq *w, double h[3])
{
  h[0] = 1.5 * w->s1;
  h[1] = 1.5 * w->s2;
  h[2] = 1.5 * w->s3;
}

/* Opens a window for p (in range); the caller has taken every set of sums out of the old one
 * (exstar_sumsq_part) and starts them again in the new one (exstar_sumsq_start). */
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
  const double h1 = h[0] + p;
  const double t = p - (h1 - h[0]);
  h[0] = h1;
  const double h2 = h[1] + t;
  *t2 = t - (h2 - h[1]);
  const double h2e = h2 + e;
  const double e2 = e - (h2e - h2);
  h[1] = h2e;
  const double h3 = h[2] + e2;
  *e3 = e2 - (h3 - h[2]);
  h[2] = h3;
  w->left -= 1;
}

#endif
