/* exstar OpenCL: gemv's exact accumulation (acc_i += Σ_j α·a_ij·x_j) and its finish.
 * Accumulator arrays: accumulator k at word acc_off + k*EXSTAR_ACC_WORDS. Matrices
 * column-major, a(i, j) = A[offa + i + j*lda]; fx: index of x's element 0 (BLAS strides). */
#include "kernels_cl/gemv_cl.clh"

/* 'N': one work-item per row, its FPE in registers, spilling into that row's accumulator,
 * which no other work-item touches during the kernel (plain adds; normalized at the end). */
__kernel void exstar_gemv_n(long m, long n, double alpha, __global const double *A, long offa, long lda,
                            __global const double *x, long fx, long incx,
                            __global exstar_i64 *acc, ulong acc_off)
{
  long i = (long)get_global_id(0);
  if (i >= m) return;
  __global exstar_i64 *ai = acc + acc_off + (ulong)i * EXSTAR_ACC_WORDS;
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = 0;
  for (long j = 0; j < n; ++j) {
    double xj = x[fx + j * incx], t;
    double s = exstar_gemv_scale_x(alpha, xj, &t);
    flags |= exstar_gemv_term_gown(ai, fpe, alpha, A[offa + i + j * lda], xj, s, t);
  }
  exstar_acc_flush_fpe_gown(ai, fpe);
  exstar_acc_add_flags_gown(ai, flags);
  exstar_acc_normalize_gown(ai);
}

/* 'T': one work-group per column j (a dot of a(:, j) with α·x), its accumulator in __local
 * memory as in dot.cl; the accumulators are normalized by exstar_gemv_normalize after. */
__kernel void exstar_gemv_t(long m, long n, double alpha, __global const double *A, long offa, long lda,
                            __global const double *x, long fx, long incx,
                            __global exstar_i64 *acc, ulong acc_off)
{
  __local exstar_i64 lacc[EXSTAR_ACC_WORDS];
  __local int lflags;
  long j = (long)get_group_id(0);
  exstar_cl_group_start(lacc, &lflags);
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = 0;
  for (long i = (long)get_local_id(0); i < m; i += (long)get_local_size(0)) {
    double xi = x[fx + i * incx], t;
    double s = exstar_gemv_scale_x(alpha, xi, &t);
    flags |= exstar_gemv_term_local(lacc, fpe, alpha, A[offa + i + j * lda], xi, s, t);
  }
  (void)n;
  exstar_cl_group_finish(lacc, &lflags, fpe, flags, acc + acc_off + (ulong)j * EXSTAR_ACC_WORDS);
}

/* One work-item per accumulator of the array: canonical form. */
__kernel void exstar_gemv_normalize(__global exstar_i64 *acc, ulong acc_off, ulong count)
{
  ulong k = get_global_id(0);
  if (k < count) exstar_acc_normalize_global(acc + acc_off + k * EXSTAR_ACC_WORDS);
}

/* One work-item per entry: y_i := RN(acc_i + β·y_i) on a private copy; β == 0: y not read. */
__kernel void exstar_gemv_finish(long n, double beta, __global double *y, long fy, long incy,
                                 __global const exstar_i64 *acc, ulong acc_off)
{
  long i = (long)get_global_id(0);
  if (i >= n) return;
  __global const exstar_i64 *src = acc + acc_off + (ulong)i * EXSTAR_ACC_WORDS;
  exstar_i64 copy[EXSTAR_ACC_WORDS];
  for (int k = 0; k < EXSTAR_ACC_WORDS; ++k) copy[k] = src[k];
  __global double *yi = y + fy + i * incy;
  exstar_acc_add_beta_y_private(copy, beta, beta != 0.0 ? *yi : 0.0);
  *yi = exstar_acc_round_private(copy);
}
