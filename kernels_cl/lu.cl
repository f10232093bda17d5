/* exstar OpenCL: the LU driver's own steps. exstar_lu_pivot: ONE work-group finds the pivot of
 * column j (iamax order of core/iamax.h: any split gives the same winner), writes ipiv and
 * interchanges the two rows in columns 0..j. exstar_lu_plain_*: the plain-double baseline
 * (not reproducible, not exact). Matrices column-major, element (r, c) at a[offa + r + c*lda]. */
#include "kernels_cl/iamax_cl.clh"

#define EXSTAR_CL_LU_WG 256

__kernel __attribute__((reqd_work_group_size(EXSTAR_CL_LU_WG, 1, 1)))
void exstar_lu_pivot(long m, long j, __global double *a, long offa, long lda, __global int *ipiv, long offipiv)
{
  __local exstar_i64 lkey[EXSTAR_CL_LU_WG], lidx[EXSTAR_CL_LU_WG];
  size_t lid = get_local_id(0);
  exstar_i64 key = EXSTAR_IAMAX_EMPTY, idx = EXSTAR_IAMAX_EMPTY;
  for (long i = j + (long)lid; i < m; i += EXSTAR_CL_LU_WG) {
    exstar_i64 k = exstar_iamax_key(a[offa + i + j * lda]);
    if (exstar_iamax_beats(k, i, key, idx)) key = k, idx = i;
  }
  exstar_cl_iamax_group(lkey, lidx, EXSTAR_CL_LU_WG, key, idx);
  long p = (long)lidx[0];
  if (lid == 0) ipiv[offipiv + j] = (int)(p + 1);
  if (p == j) return;
  for (long c = (long)lid; c <= j; c += EXSTAR_CL_LU_WG) {
    double t = a[offa + j + c * lda];
    a[offa + j + c * lda] = a[offa + p + c * lda];
    a[offa + p + c * lda] = t;
  }
}

/* a(i,j) -= Σ_{k<kend} a(i,k)·a(k,j) in double, k increasing. */
static double exstar_lu_plain_row(__global const double *a, long offa, long lda, long i, long j, long kend)
{
  double s = a[offa + i + j * lda];
  for (long k = 0; k < kend; ++k) s -= a[offa + i + k * lda] * a[offa + k + j * lda];
  return s;
}

/* One work-item: forward substitution of rows 0..utop-1 of column j (unit lower L). */
__kernel void exstar_lu_plain_trsv(long utop, long j, __global double *a, long offa, long lda)
{
  if (get_global_id(0) != 0) return;
  for (long i = 0; i < utop; ++i) a[offa + i + j * lda] = exstar_lu_plain_row(a, offa, lda, i, j, i);
}

/* One work-item per row i in [j, m): v(i) := a(i,j) - Σ_{k<j} l(i,k)·u(k,j). */
__kernel void exstar_lu_plain_gemv(long m, long j, __global double *a, long offa, long lda)
{
  long i = j + (long)get_global_id(0);
  if (i < m) a[offa + i + j * lda] = exstar_lu_plain_row(a, offa, lda, i, j, j);
}

/* One work-item per right-hand side c: interchanges, unit lower then upper substitution. */
__kernel void exstar_lu_plain_getrs(long n, long nrhs, __global const double *t, long offt, long ldt,
                                    __global const int *ipiv, long offipiv, __global double *b, long offb, long ldb)
{
  long c = (long)get_global_id(0);
  if (c >= nrhs) return;
  __global double *x = b + offb + c * ldb;
  t += offt;
  for (long k = 0; k < n; ++k) {
    long p = (long)ipiv[offipiv + k] - 1;
    if (p != k && p >= 0 && p < n) {
      double s = x[k];
      x[k] = x[p];
      x[p] = s;
    }
  }
  for (long i = 0; i < n; ++i) {
    double s = x[i];
    for (long k = 0; k < i; ++k) s -= t[i + k * ldt] * x[k];
    x[i] = s;
  }
  for (long i = n - 1; i >= 0; --i) {
    double s = x[i];
    for (long k = i + 1; k < n; ++k) s -= t[i + k * ldt] * x[k];
    x[i] = s / t[i + i * ldt];
  }
}
