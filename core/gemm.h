/* exstar core: exact Level 3 (gemm, trsm, the GEMM-accumulate state), written once for CPU,
 * CUDA and OpenCL. Include after checked_round.h (and gemv.h for the exact repair, gemm.inc).
 *
 * An entry of a product is a dot of k terms. Every entry takes a FAST path that proves its
 * rounding or declines, and a declined entry is recomputed by the exact REPAIR path (the gemv
 * term steps into a private long accumulator, gemm.inc). Both give RN of the same exact value,
 * so the path never shows in the bits; tests force the repair path and compare.
 *
 * The fast path: four floating-point operations a term (two FMAs, two additions).
 * For an entry (i, j), let 2^ea >= max_l |a_il| and 2^eb >= max_l |b_lj| (powers of two over
 * the entry's k terms) and sigma = 2^(ea + eb + ep) with 2^ep >= 2k. Then M = 2^(ea+eb) bounds
 * every |a*b| and sigma >= 2kM. The running sum S starts at 1.5 sigma (exstar_gemm_run_begin)
 * and per term
 *     t = fma(a, b, S)         RN(S + ab)
 *     q = t - S                exact: the part of ab that S took
 *     S = t
 *     R += fma(a, b, -q)       the rest ab - q, rounded, then summed
 * and at the end S - 1.5 sigma = sum q is exact (exstar_gemm_run_end). Why: |sum ab| <= kM <=
 * sigma/2 and every rest is at most 2^-52 sigma, so S stays within [sigma - d, 2 sigma + d]
 * (d = k 2^-52 sigma), where every double is a multiple of 2^-53 sigma; q, a difference of two
 * such multiples at most M + 2^-52 sigma in size, is exact, and so is S - 1.5 sigma; the rest
 * ab - q is the rounding error of S + ab, at most half an ulp of S < 4 sigma: 2^-52 sigma.
 * So ab summed over the terms is S + R_exact with S exact and |R_exact - R| <= E, where
 *     E = k(k+3) 2^-106 sigma (1 + k 2^-50) + k 2^-1074
 * (each rest rounds by at most 2^-53 of itself, 2^-105 sigma; each addition into R by 2^-53 of
 * the partial sum, at most t 2^-52 sigma after t terms: k 2^-105 + k(k+1)/2 2^-105 = k(k+3)
 * 2^-106 of sigma; the factor 1 + k 2^-50 takes the second-order terms and E's own roundings;
 * subnormal roundings by at most 2^-1075 each): exstar_gemm_bound_unfolded.
 * The k^2 is R's own recursive sum. A loop that FOLDS R into S after every EXSTAR_GEMM_FOLD-th
 * term (exstar_gemm_fold: t = S + R, q = t - S, S = t, R -= q; all exact: t and S are multiples
 * of 2^-53 sigma near each other, and R - q is the rounding error of S + R) restarts R below
 * 2^-52 sigma, so a run of f <= F terms after a fold adds at most f(f+3)/2 2^-105 sigma and
 * E = k(F+5) 2^-106 sigma (1 + k 2^-50) + k 2^-1074 (or the unfolded k(k+3), also valid: a
 * partial R after t terms is still at most t 2^-52 sigma):
 * exstar_gemm_bound, 14x below the unfolded bound at k = 512 for 3 more operations per F terms.
 * The folds sit after the terms l = F-1, 2F-1, ... (l < k) of an entry's own sequence, so they
 * are part of the bits: every back end's folding loop folds there (a tile of terms that
 * resumes S and R starts at a multiple of F). This is Rump-Ogita-Oishi's ExtractScalar with
 * the split constant fixed per entry, fused with the product's FMA, and the running sum itself
 * as the extractor: the constant's own subtraction and the addition into S become one FMA.
 * q depends on the running sum, so S's digits below the rest and R depend on the terms' order:
 * every back end takes an entry's terms in the order l = 0, 1, ... (a tile of terms, then the
 * next), so that they hold the same S and R bit for bit (tests compare the states); a kernel
 * that splits an entry's terms (the GPU's warp retry, which does not fold) sums the parts'
 * exact S as any order allows and stays within the unfolded E. (A fold moves R, at most
 * (F+1) 2^-52 sigma, into S: S stays within the d above.)
 * A NaN or inf factor, or a sigma out of range (exstar_gemm_sigma returns NaN), makes S or R
 * non-finite: the check declines and the repair applies the IEEE rules.
 *
 * The GEMM-accumulate state of a factorization is one exstar_bdd per entry (checked_round.h):
 * a bounded double-double to which tiles of terms add S + R with their E, in any order and on
 * any device; the algorithm rounds it once (exstar_bdd_round_ok), and repairs what declines. */
#ifndef EXSTAR_CORE_GEMM_H
#define EXSTAR_CORE_GEMM_H

/* Exponent codes of row and column scales: 2^e >= max |x| over the row (or column). */
#define EXSTAR_GEMM_EXP_ZERO (-4000) /* every value is zero: sigma clamps to its minimum */
#define EXSTAR_GEMM_EXP_NONFINITE 4000 /* a NaN or inf: sigma is NaN, the entry declines */
/* sigma's range: below 2^-1000 a larger sigma is still valid (any sigma >= 2kM is) and the
 * products are far too small for the checked rounding anyway; above 2^990 the sums could
 * overflow, so those entries decline. */
#define EXSTAR_GEMM_SIGMA_MIN_EXP (-1000)
#define EXSTAR_GEMM_SIGMA_MAX_EXP 990

/* The smallest e with |x| <= 2^e (subnormals: -1022, a valid bound); EXSTAR_GEMM_EXP_ZERO
 * for zeros, EXSTAR_GEMM_EXP_NONFINITE for NaN and inf: exstar_exp_above(x), or
 * exstar_exp_of_bits of x's bit pattern (its sign bit is not read). */
EXSTAR_FN int exstar_exp_of_bits(exstar_u64 u)
{
  const int be = (int)((u >> 52) & 0x7ff);
  const exstar_u64 f = u & ((((exstar_u64)1) << 52) - 1);
  if (be == 0x7ff) return EXSTAR_GEMM_EXP_NONFINITE;
  if (be == 0) return f == 0 ? EXSTAR_GEMM_EXP_ZERO : -1022;
  return f == 0 ? be - 1023 : be - 1022;
}
EXSTAR_FN int exstar_exp_above(double x) { return exstar_exp_of_bits(exstar_bits(x)); }

/* max of two exponent codes (a non-finite value dominates, zeros are at the bottom). */
EXSTAR_FN int exstar_exp_max(int a, int b) { return a > b ? a : b; }

/* A line's exponent code (a row of op(A) or a column of op(B): 2^e >= max_l |x_l|), one value
 * at a time: e := exstar_line_exp_step(e, x_l) from e = EXSTAR_GEMM_EXP_ZERO. exp_above is
 * monotone in |x| and maps NaN and inf above everything, so the max of the codes is the code of
 * the max, in any order: every back end's reduction (a loop, a warp, a tree) gives one code. */
EXSTAR_FN int exstar_line_exp_step(int e, double x) { return exstar_exp_max(e, exstar_exp_above(x)); }

/* The same code by way of magnitudes' bits, for vector loops: the IEEE bit pattern of |x| (the
 * sign cleared), compared as an unsigned integer, orders the magnitudes, with inf and then every
 * NaN above all finite values. So keep m := exstar_mag_bits_max(m, x_l) from m = 0 (the bits of
 * +0) over the line, a plain integer max with no branch, then take the line's code once:
 * exstar_exp_of_bits(m) == the codes' max by exstar_line_exp_step, in any order. */
EXSTAR_FN exstar_u64 exstar_mag_bits_max(exstar_u64 m, double x)
{
  const exstar_u64 b = exstar_bits(x) & EXSTAR_U64(0x7fffffffffffffff);
  return m > b ? m : b;
}

/* ep: the smallest e with 2^e >= 2k (k >= 1). */
EXSTAR_FN int exstar_gemm_count_exp(exstar_i64 k)
{
  int e = 1;
  while ((((exstar_i64)1) << (e - 1)) < k) ++e;
  return e;
}

/* sigma for an entry: 2^(ea + eb + ep), at least 2^-1000; NaN when out of range or when a
 * factor row or column holds a NaN or inf (the entry then declines). */
EXSTAR_FN double exstar_gemm_sigma(int ea, int eb, int ep)
{
  if (ea >= EXSTAR_GEMM_EXP_NONFINITE || eb >= EXSTAR_GEMM_EXP_NONFINITE)
    return exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
  int e = ea + eb + ep;
  if (e > EXSTAR_GEMM_SIGMA_MAX_EXP) return exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
  if (e < EXSTAR_GEMM_SIGMA_MIN_EXP) e = EXSTAR_GEMM_SIGMA_MIN_EXP;
  return exstar_pow2(e);
}

/* The running sum of an entry's fast path (see the top of this file) starts, or resumes an
 * exact sum S0 that exstar_gemm_run_end gave under the same sigma, at S0 + 1.5 sigma (exact). */
EXSTAR_FN double exstar_gemm_run_begin(double S0, double sigma) { return S0 + 1.5 * sigma; }

/* The exact sum of the terms' top parts: the running sum less 1.5 sigma (exact). */
EXSTAR_FN double exstar_gemm_run_end(double S, double sigma) { return S - 1.5 * sigma; }

/* One term of the fast path into the running sum S and the rests' sum R. Kernels may inline
 * the same four operations in their own registers, in the same order of the terms (and the
 * folds, exstar_gemm_fold, at the same terms). */
EXSTAR_FN void exstar_gemm_term(double a, double b, double *S, double *R)
{
  const double t = fma(a, b, *S);
  const double q = t - *S;
  *S = t;
  *R += fma(a, b, -q);
}

/* R folds into S after every EXSTAR_GEMM_FOLD-th term of a folding loop (see the top). */
#define EXSTAR_GEMM_FOLD 32

/* The fold: S + R unchanged, exactly; |R| <= 2^-52 sigma after it. */
EXSTAR_FN void exstar_gemm_fold(double *S, double *R)
{
  const double t = *S + *R;
  const double q = t - *S;
  *S = t;
  *R -= q;
}

/* 1 when a folding loop folds after term l (0-based) of an entry's k terms. */
EXSTAR_FN int exstar_gemm_folds_after(exstar_i64 l) { return (l + 1) % EXSTAR_GEMM_FOLD == 0; }

/* E for k terms under sigma (NaN when sigma is), any order and any split of the terms without
 * folds. The factor 1 + k 2^-50 (k < 2^31) covers the second-order terms of the bound and the
 * roundings of this product. */
EXSTAR_FN double exstar_gemm_bound_unfolded(exstar_i64 k, double sigma)
{
  const double kd = (double)k;
  return (kd * (kd + 3.0)) * 0x1p-106 * sigma * (1.0 + kd * 0x1p-50) + kd * 0x1p-1074;
}

/* E for k terms of a folding loop (at most EXSTAR_GEMM_FOLD terms between folds; the unfolded
 * bound holds too, and is the smaller one up to F + 2 terms). */
EXSTAR_FN double exstar_gemm_bound(exstar_i64 k, double sigma)
{
  if (k <= EXSTAR_GEMM_FOLD + 2) return exstar_gemm_bound_unfolded(k, sigma);
  const double kd = (double)k;
  return (kd * (EXSTAR_GEMM_FOLD + 5.0)) * 0x1p-106 * sigma * (1.0 + kd * 0x1p-50) + kd * 0x1p-1074;
}

/* The bounded double-double of S + R within E (sign -1 negates it, exactly). */
EXSTAR_FN void exstar_gemm_to_bdd(double S, double R, double E, double sign, exstar_bdd *d)
{
  d->hi = sign * S;
  d->lo = sign * R;
  d->err = E;
  d->mag = 0.0;
}

/* The state of an entry takes a tile's terms: st += sign * (S + R), error E. A non-finite S
 * or R makes the state's hi or lo non-finite: its rounding declines. */
EXSTAR_FN void exstar_gemm_state_add(exstar_bdd *st, double S, double R, double E, double sign)
{
  exstar_bdd_add_pair(st, sign * S, sign * R);
  st->err += E;
}

/* The state of an entry starts as x (one exact term; a non-finite x makes it decline). */
EXSTAR_FN void exstar_gemm_state_init(exstar_bdd *st, double x)
{
  st->hi = x;
  st->lo = 0.0;
  st->err = 0.0;
  st->mag = 0.0;
}

/* Scales a bounded double-double by alpha: alpha*(hi + lo) = p1 + e1 + alpha*lo with p1 + e1
 * exact (TwoProd) and alpha*lo rounded once. 0 when TwoProd leaves its window (the caller
 * declines). The bound grows by |alpha| times itself (1 + 2^-50 covers that product's own
 * rounding) and 2^-52 of |alpha*lo|. */
EXSTAR_FN int exstar_bdd_scale(exstar_bdd *d, double alpha)
{
  if (alpha == 1.0) return 1;
  double p1, e1;
  const int ok = exstar_bdd_product(alpha, d->hi, &p1, &e1);
  const double p2 = alpha * d->lo;
  exstar_bdd z;
  z.hi = 0.0, z.lo = 0.0, z.mag = 0.0;
  z.err = fabs(alpha) * (d->err + d->mag * EXSTAR_BDD_REL) * (1.0 + 0x1p-50) + fabs(p2) * EXSTAR_BDD_REL;
  exstar_bdd_add_pair(&z, p1, e1);
  exstar_bdd_add_pair(&z, p2, 0.0);
  *d = z;
  return ok & (fabs(p2) < EXSTAR_FPE_TERM_MAX);
}

/* The fast finish from a bounded double-double d of the sum (d is scaled in place): *y :=
 * RN(alpha*exact + beta*c) when provable, returning 1; 0 when the entry must be repaired (*y is
 * then meaningless). beta == 0: c is not read. */
EXSTAR_FN int exstar_bdd_finish(exstar_bdd *d, double alpha, double beta, double c, double *y)
{
  int ok = exstar_bdd_scale(d, alpha);
  if (beta != 0.0) ok &= exstar_bdd_add_product(d, beta, c);
  ok &= exstar_bdd_round_ok(d, y);
  return ok;
}

/* The fast finish of a gemm entry: *y := RN(alpha*(S + R_exact) + beta*c) when provable,
 * returning 1; 0 when the entry must be repaired (*y is then meaningless). beta == 0: c is
 * not read. Branch-light: every caller computes it for every entry. */
EXSTAR_FN int exstar_gemm_finish_fast(double S, double R, double E, double alpha, double beta, double c, double *y)
{
  exstar_bdd d;
  exstar_gemm_to_bdd(S, R, E, 1.0, &d);
  return exstar_bdd_finish(&d, alpha, beta, c, y);
}

#endif /* EXSTAR_CORE_GEMM_H */
