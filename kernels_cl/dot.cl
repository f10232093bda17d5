/* exstar OpenCL: acc += sum of x_i * y_i, exactly (same scheme as sum.cl). */
#include "kernels_cl/acc_cl.clh"

__kernel void exstar_dot(long n, __global const double *x, long offx, long incx,
                         __global const double *y, long offy, long incy,
                         __global exstar_i64 *acc, ulong acc_off)
{
  __local exstar_i64 lacc[EXSTAR_ACC_WORDS];
  __local int lflags;
  exstar_cl_group_start(lacc, &lflags);
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = 0;
  long fx = exstar_first_index(n, offx, incx), fy = exstar_first_index(n, offy, incy);
  long stride = (long)get_global_size(0);
  for (long i = (long)get_global_id(0); i < n; i += stride)
    flags |= exstar_dot_step_local(lacc, fpe, x[fx + i * incx], y[fy + i * incy]);
  exstar_cl_group_finish(lacc, &lflags, fpe, flags, acc + acc_off);
}
