/* exstar OpenCL: acc += sum of x_i, exactly.
 * Each work-item runs a grid-stride loop with its own FPE, spilling into the work-group's
 * __local accumulator; the group then adds its normalized accumulator to acc. The launcher
 * enqueues exstar_acc_normalize after it. */
#include "kernels_cl/acc_cl.clh"

__kernel void exstar_sum(long n, __global const double *x, long offx, long incx,
                         __global exstar_i64 *acc, ulong acc_off)
{
  __local exstar_i64 lacc[EXSTAR_ACC_WORDS];
  __local int lflags;
  exstar_cl_group_start(lacc, &lflags);
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = 0;
  long first = exstar_first_index(n, offx, incx);
  long stride = (long)get_global_size(0);
  for (long i = (long)get_global_id(0); i < n; i += stride)
    flags |= exstar_sum_step_local(lacc, fpe, x[first + i * incx]);
  exstar_cl_group_finish(lacc, &lflags, fpe, flags, acc + acc_off);
}
