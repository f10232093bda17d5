/* exstar OpenCL: x_i := RN(alpha * x_i), a grid-stride loop. */
#include "core/strides.h"

__kernel void exstar_scal(long n, double alpha, __global double *x, long offx, long incx)
{
  long fx = exstar_first_index(n, offx, incx), stride = (long)get_global_size(0);
  for (long i = (long)get_global_id(0); i < n; i += stride) x[fx + i * incx] = alpha * x[fx + i * incx];
}
