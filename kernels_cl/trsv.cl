/* exstar OpenCL: trsv's diagonal-block solve, residual of refinement and refinement update
 * (contracts in kernels_cl/trsv.h). */
#include "kernels_cl/acc_cl.clh"

#define EXSTAR_TRSV_ACC_PTR __local exstar_i64 *
#define EXSTAR_TRSV_OPS_SFX _local
#define EXSTAR_TRSV_MEM __global
#define EXSTAR_TRSV_SFX _cl_local
#include "core/trsv.inc"

#define EXSTAR_TRSV_ACC_PTR exstar_i64 *
#define EXSTAR_TRSV_OPS_SFX _private
#define EXSTAR_TRSV_MEM __global
#define EXSTAR_TRSV_SFX _cl_private
#include "core/trsv.inc"

/* ONE work-group: rows in substitution order; for each row the group adds the in-block terms
 * to a __local copy of the row's accumulator, then work-item 0 rounds a private copy of it
 * once and divides once. y holds b on entry. */
__kernel void exstar_trsv_solve(int forward, int trans, int unit, long nb,
                                __global const double *t, long t0, long ldt,
                                __global const exstar_i64 *accs, ulong acc_off,
                                __global double *y, long offy, long incy)
{
  __local exstar_i64 lacc[EXSTAR_ACC_WORDS];
  __local int lflags;
  const size_t lid = get_local_id(0), lsize = get_local_size(0);
  const long fy = exstar_first_index(nb, offy, incy);
  for (long step = 0; step < nb; ++step) {
    const long r = forward ? step : nb - 1 - step;
    for (size_t w = lid; w < EXSTAR_ACC_WORDS; w += lsize) lacc[w] = accs[acc_off + r * EXSTAR_ACC_WORDS + w];
    if (lid == 0) lflags = 0;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    double fpe[EXSTAR_FPE_N];
    exstar_fpe_zero(fpe);
    int flags = exstar_trsv_row_terms_cl_local(lacc, fpe, forward, trans, unit, 0, nb, r, t, t0, ldt, y,
                                               fy, incy, (long)lid, (long)lsize);
    if (lid == 0) flags |= exstar_sum_step_local(lacc, fpe, y[fy + r * incy]);
    exstar_acc_flush_fpe_local(lacc, fpe);
    if (flags) atomic_or(&lflags, flags);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      exstar_i64 a[EXSTAR_ACC_WORDS];
      for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) a[w] = lacc[w];
      exstar_acc_add_flags_private(a, lflags);
      double v = exstar_acc_round_private(a);
      y[fy + r * incy] = unit ? v : v / exstar_trsv_elem_cl_local(t, t0, ldt, trans, r, r);
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* y_r visible to the group */
  }
}

/* One work-item per row: r_i := RN(acc_i + b_i - in-block triangle terms, diagonal included). */
__kernel void exstar_trsv_resid(int forward, int trans, int unit, long nb,
                                __global const double *t, long t0, long ldt,
                                __global const exstar_i64 *accs, ulong acc_off,
                                __global const double *x, long offx, long incx,
                                __global const double *b, long offb, long incb,
                                __global double *r, long offr, long incr)
{
  const long i = (long)get_global_id(0);
  if (i >= nb) return;
  exstar_i64 a[EXSTAR_ACC_WORDS];
  for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) a[w] = accs[acc_off + i * EXSTAR_ACC_WORDS + w];
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  const long fx = exstar_first_index(nb, offx, incx);
  int flags = exstar_sum_step_private(a, fpe, b[exstar_first_index(nb, offb, incb) + i * incb]);
  flags |= exstar_trsv_row_terms_cl_private(a, fpe, forward, trans, unit, 1, nb, i, t, t0, ldt, x, fx, incx, 0, 1);
  exstar_acc_flush_fpe_private(a, fpe);
  exstar_acc_add_flags_private(a, flags);
  r[exstar_first_index(nb, offr, incr) + i * incr] = exstar_acc_round_private(a);
}

/* One work-item per element: x_i := RN(x_i + d_i) (add != 0), or x_i := d_i. */
__kernel void exstar_trsv_update(long n, int add, __global const double *d, long offd, long incd,
                                 __global double *x, long offx, long incx)
{
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  const long fd = exstar_first_index(n, offd, incd), fx = exstar_first_index(n, offx, incx);
  x[fx + i * incx] = add ? x[fx + i * incx] + d[fd + i * incd] : d[fd + i * incd];
}
