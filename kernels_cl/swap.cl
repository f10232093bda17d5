/* exstar OpenCL: x_i <-> y_i. */
#include "core/strides.h"

__kernel void exstar_swap(long n, __global double *x, long offx, long incx, __global double *y,
                          long offy, long incy)
{
  long fx = exstar_first_index(n, offx, incx), fy = exstar_first_index(n, offy, incy);
  long stride = (long)get_global_size(0);
  for (long i = (long)get_global_id(0); i < n; i += stride) {
    double t = x[fx + i * incx];
    x[fx + i * incx] = y[fy + i * incy];
    y[fy + i * incy] = t;
  }
}
