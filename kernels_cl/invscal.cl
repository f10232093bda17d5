/* exstar OpenCL: x_i := RN(x_i / alpha), one IEEE division (OpenCL's double division is
 * correctly rounded), never a multiplication by a rounded reciprocal. */
#include "core/strides.h"

EXSTAR_FN void exstar_invscal_loop(long n, double alpha, __global double *x, long offx, long incx)
{
  long fx = exstar_first_index(n, offx, incx), stride = (long)get_global_size(0);
  for (long i = (long)get_global_id(0); i < n; i += stride) x[fx + i * incx] = x[fx + i * incx] / alpha;
}

__kernel void exstar_invscal(long n, double alpha, __global double *x, long offx, long incx)
{
  exstar_invscal_loop(n, alpha, x, offx, incx);
}

/* The divisor is a[aoff], read on the device; skip_zero: a zero divisor leaves x unchanged. */
__kernel void exstar_invscal_mem(long n, __global const double *a, long aoff, int skip_zero,
                                 __global double *x, long offx, long incx)
{
  double alpha = a[aoff];
  if (skip_zero && alpha == 0.0) return;
  exstar_invscal_loop(n, alpha, x, offx, incx);
}
