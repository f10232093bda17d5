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
 * [1.25 s_j, 1.75 s_j]: one binade, one ulp, every q_j exact. The remainders t2 and e3 are ZERO
 * for every square the window takes, because it takes none below its floor 2^(k−53+2C):
 *   - t = p − q1 is a multiple of ulp(p) (q1 is a multiple of ulp(H1) = 2^(k−52) >= ulp(p)), and
 *     p >= 2^(k−53+C) makes ulp(p) >= 2^(k−105+C) = ulp(H2): H2 + t is exact, t2 = 0;
 *   - e = x² − p is a multiple of ulp(x)², at least 2^(e_p−105) for p in [2^e_p, 2^(e_p+1)),
 *     so e2 = e − q3 is too (q3 is a multiple of ulp(H2), larger), and p >= 2^(k−53+2C) makes
 *     that at least 2^(k−158+2C) = ulp(H3): H3 + e2 is exact, e3 = 0.
 * So a window's squares cost 10 floating-point operations, no remainder and no test of one. A
 * full window, or a p above lim, ends the window: H_j − 1.5 s_j (three exact doubles,
 * exstar_sumsq_part) go to the accumulator and a new window starts at that p (its floor is then
 * 2^-18 of p, its lim 16x to 32x p). A square below the floor of an open window goes to the
 * caller's exact step instead (for uniform data, |x| below ~2^-9.5 of the largest: about one in
 * 700). So Σ x² = Σ windows' parts + Σ the others, all exact: the bits are those of the dot of x
 * with itself.
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
  double floor;      /* the smallest: 2^(k−53+2C), at least EXSTAR_SUMSQ_MIN */
  exstar_u64 span;   /* bits(lim) − bits(floor): exstar_sumsq_takes's one comparison */
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
  w->floor = 0.0;
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
  const int f = k - 53 + 2 * EXSTAR_SUMSQ_C;
  w->floor = f > -600 ? exstar_pow2(f) : EXSTAR_SUMSQ_MIN; /* EXSTAR_SUMSQ_MIN is 2^-600 */
  w->span = exstar_bits(w->lim) - exstar_bits(w->floor);
  w->left = 1 << (EXSTAR_SUMSQ_C - 2);
}

/* Whether the fast path takes the square p: floor <= p <= lim and room left. One comparison in
 * integer operations (a square is +0 or more, or NaN; the bits of doubles >= +0 are ordered as
 * their values, NaN's above inf's, and the unsigned difference wraps below the floor), which
 * leave the floating-point pipes to the sums. False when no window is open. */
EXSTAR_FN int exstar_sumsq_takes(const exstar_sumsq *w, double p)
{
  return exstar_bits(p) - exstar_bits(w->floor) <= w->span && w->left > 0;
}

/* Whether p, in range and not taken, is below the floor of an open window that still has room:
 * the caller then adds it exactly elsewhere and keeps the window (else it opens one at p). */
EXSTAR_FN int exstar_sumsq_below(const exstar_sumsq *w, double p) { return w->left > 0 && p < w->floor; }

/* Adds the square p + e (p = RN(x²) taken by the window, e = fma(x, x, −p)) to the sums h,
 * exactly (the remainders t2 and e3 of the top of this file are zero). */
EXSTAR_FN void exstar_sumsq_add(exstar_sumsq *w, double h[3], double p, double e)
{
  const double h1 = h[0] + p;
  const double t = p - (h1 - h[0]);
  h[0] = h1;
  h[1] += t;
  const double h2e = h[1] + e;
  const double e2 = e - (h2e - h[1]);
  h[1] = h2e;
  h[2] += e2;
  w->left -= 1;
}

#endif
