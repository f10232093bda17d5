/* exstar OpenCL: exact Level 3 (core/gemm.h): gemm, the GEMM-accumulate state, trsm. One
 * work-item per entry (gemm, state) or per right-hand side (trsm); each entry's fast path
 * proves its rounding or declines, and a declined entry is computed exactly in the same
 * work-item (a private accumulator, core/gemm.inc). Both give RN of the same exact value.
 * Matrices column-major with element offsets; op(X)(i, l) = X[off + i*rs + l*cs]. */
#include "kernels_cl/gemv_cl.clh"
#include "core/checked_round.h"
#include "core/gemm.h"

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _private
#define EXSTAR_GEMM_DPTR __global const double *
#include "core/gemm.inc"

/* 2^e >= max |X(i, l)| over l < k (core/gemm.h's exponent codes). */
EXSTAR_FN int exstar_cl_line_exp(__global const double *X, long first, long step, long k)
{
  int e = EXSTAR_GEMM_EXP_ZERO;
  for (long l = 0; l < k; ++l) e = exstar_line_exp_step(e, X[first + l * step]);
  return e;
}

/* The fast sums of entry (i, j): S, R and their bound E. */
EXSTAR_FN void exstar_cl_entry_sums(long k, __global const double *A, long fa, long sa, __global const double *B,
                                    long fb, long sb, double *S, double *R, double *E)
{
  const double sigma = exstar_gemm_sigma(exstar_cl_line_exp(A, fa, sa, k), exstar_cl_line_exp(B, fb, sb, k),
                                         exstar_gemm_count_exp(k));
  double s = exstar_gemm_run_begin(0.0, sigma), r = 0.0;
  for (long l = 0; l < k; ++l) {
    exstar_gemm_term(A[fa + l * sa], B[fb + l * sb], &s, &r);
    if (exstar_gemm_folds_after(l)) exstar_gemm_fold(&s, &r);
  }
  *S = exstar_gemm_run_end(s, sigma);
  *R = r;
  *E = exstar_gemm_bound(k, sigma);
}

__kernel void exstar_l3_gemm(long m, long n, long k, double alpha, double beta, __global const double *A, long offa,
                             long ars, long acs, __global const double *B, long offb, long brs, long bcs,
                             __global double *C, long offc, long ldc, int exact_only, __global ulong *counter)
{
  const long x = (long)get_global_id(0);
  if (x >= m * n) return;
  const long i = x % m, j = x / m;
  const long fa = offa + i * ars, fb = offb + j * bcs;
  __global double *c = C + offc + i + j * ldc;
  const double cin = beta != 0.0 ? *c : 0.0;
  double y = 0.0;
  int ok = 0;
  if (!exact_only && k > 0) {
    double S, R, E;
    exstar_cl_entry_sums(k, A, fa, acs, B, fb, brs, &S, &R, &E);
    ok = exstar_gemm_finish_fast(S, R, E, alpha, beta, cin, &y);
  }
  if (!ok) {
    exstar_i64 acc[EXSTAR_ACC_WORDS];
    y = exact_only ? exstar_gemm_entry_exact_private(acc, k, alpha, A, fa, acs, B, fb, brs, beta, cin)
                   : exstar_gemm_entry_repair_private(acc, k, alpha, A, fa, acs, B, fb, brs, beta, cin);
    if (counter) atom_inc(counter);
  }
  *c = y;
}

/* st(i, j) += sign * (S + R) within E; a state entry is 4 doubles (hi, lo, err, mag). */
__kernel void exstar_l3_state_add(long m, long n, long k, double sign, __global const double *A, long offa, long ars,
                                  long acs, __global const double *B, long offb, long brs, long bcs,
                                  __global double *st, long offst, long ldst)
{
  const long x = (long)get_global_id(0);
  if (x >= m * n) return;
  const long i = x % m, j = x / m;
  double S, R, E;
  exstar_cl_entry_sums(k, A, offa + i * ars, acs, B, offb + j * bcs, brs, &S, &R, &E);
  __global double *e = st + 4 * (offst + i + j * ldst);
  exstar_bdd d;
  d.hi = e[0], d.lo = e[1], d.err = e[2], d.mag = e[3];
  exstar_gemm_state_add(&d, S, R, E, sign);
  e[0] = d.hi, e[1] = d.lo, e[2] = d.err, e[3] = d.mag;
}

__kernel void exstar_l3_state_init(long m, long n, __global const double *C, long offc, long ldc, __global double *st,
                                   long offst, long ldst)
{
  const long x = (long)get_global_id(0);
  if (x >= m * n) return;
  const long i = x % m, j = x / m;
  __global double *e = st + 4 * (offst + i + j * ldst);
  e[0] = C[offc + i + j * ldc], e[1] = 0.0, e[2] = 0.0, e[3] = 0.0;
}

/* C := RN(st) where proven; declined entries keep C, set mask (when given) and count. */
__kernel void exstar_l3_state_round(long m, long n, __global const double *st, long offst, long ldst,
                                    __global double *C, long offc, long ldc, __global uchar *mask,
                                    __global ulong *counter)
{
  const long x = (long)get_global_id(0);
  if (x >= m * n) return;
  const long i = x % m, j = x / m;
  __global const double *e = st + 4 * (offst + i + j * ldst);
  exstar_bdd d;
  d.hi = e[0], d.lo = e[1], d.err = e[2], d.mag = e[3];
  double y;
  const int ok = exstar_bdd_round_ok(&d, &y);
  if (ok) C[offc + i + j * ldc] = y;
  if (mask) mask[x] = (uchar)!ok;
  if (!ok && counter) atom_inc(counter);
}

/* trsm, one work-item per right-hand side v: unknown i of v is X[offx + i*es + v*vs];
 * op_e(T)(i, j) = T[offt + i*trs + j*tcs]; forward or backward substitution. */
__kernel void exstar_l3_trsm(long N, long nrhs, double alpha, __global const double *T, long offt, long trs, long tcs,
                             __global double *X, long offx, long es, long vs, int forward, int unit, int exact_only,
                             __global ulong *counter)
{
  const long v = (long)get_global_id(0);
  if (v >= nrhs) return;
  if (alpha == 0.0) { /* BLAS: X := 0, nothing read */
    for (long i = 0; i < N; ++i) X[offx + i * es + v * vs] = 0.0;
    return;
  }
  for (long step = 0; step < N; ++step) {
    const long i = forward ? step : N - 1 - step;
    const long j0 = forward ? 0 : i + 1, cnt = forward ? i : N - 1 - i;
    __global double *xi = X + offx + i * es + v * vs;
    double num = 0.0;
    int ok = 0;
    if (!exact_only) {
      exstar_bdd d;
      d.hi = 0.0, d.lo = 0.0, d.err = 0.0, d.mag = 0.0;
      ok = exstar_bdd_add_product(&d, alpha, *xi);
      for (long q = 0; q < cnt; ++q) {
        const long jj = j0 + q;
        ok &= exstar_bdd_add_product(&d, -T[offt + i * trs + jj * tcs], X[offx + jj * es + v * vs]);
      }
      ok &= exstar_bdd_round_ok(&d, &num);
    }
    if (!ok) {
      exstar_i64 acc[EXSTAR_ACC_WORDS];
      for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) acc[w] = 0;
      exstar_gemm_add_terms_private(acc, cnt, -1.0, T, offt + i * trs + j0 * tcs, tcs, (__global const double *)X,
                                    offx + j0 * es + v * vs, es);
      exstar_acc_add_beta_y_private(acc, alpha, *xi);
      num = exstar_acc_round_private(acc);
      if (counter) atom_inc(counter);
    }
    *xi = unit ? num : num / T[offt + i * trs + i * tcs];
  }
}
