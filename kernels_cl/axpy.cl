/* exstar OpenCL: y_i := RN(alpha * x_i + y_i), one rounding: fma. */
#include "core/strides.h"

__kernel void exstar_axpy(long n, double alpha, __global const double *x, long offx, long incx,
                          __global double *y, long offy, long incy)
{
  long fx = exstar_first_index(n, offx, incx), fy = exstar_first_index(n, offy, incy);
  long stride = (long)get_global_size(0);
  for (long i = (long)get_global_id(0); i < n; i += stride)
    y[fy + i * incy] = fma(alpha, x[fx + i * incx], y[fy + i * incy]);
}
