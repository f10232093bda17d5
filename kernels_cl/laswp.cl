/* exstar OpenCL: LAPACK dlaswp, one work-item per column (grid-stride over columns); within a
 * column the interchanges run in LAPACK's order. Same contract as exstar_cpu_laswp. */
#include "core/strides.h"

__kernel void exstar_laswp(long n, __global double *a, long offa, long lda, long nrows, long k1,
                           long k2, __global const int *ipiv, long offipiv, long incx)
{
  if (incx == 0 || k2 < k1) return;
  long kfirst = incx > 0 ? k1 : k2, kstep = incx > 0 ? 1 : -1;
  long ix0 = incx > 0 ? k1 : k1 + (k1 - k2) * incx;
  long stride = (long)get_global_size(0);
  for (long c = (long)get_global_id(0); c < n; c += stride) {
    __global double *col = a + offa + c * lda;
    long ix = ix0, k = kfirst;
    for (long t = 0; t <= k2 - k1; ++t, k += kstep, ix += incx) {
      long p = ipiv[offipiv + ix - 1];
      if (p == k || p < 1 || p > nrows || k > nrows) continue;
      double tmp = col[k - 1];
      col[k - 1] = col[p - 1];
      col[p - 1] = tmp;
    }
  }
}
