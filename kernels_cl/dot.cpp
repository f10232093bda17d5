// OpenCL launcher of the exact dot product (dot.cl).
#include "kernels_cl/kernels_cl.h"
#include "kernels_cl/launch_util.h"

extern "C" cl_int exstar_cl_dot(cl_command_queue q, cl_kernel k_dot, cl_kernel k_norm, int64_t n,
                                cl_mem x, int64_t offx, int64_t incx, cl_mem y, int64_t offy,
                                int64_t incy, cl_mem acc, cl_ulong acc_off)
{
  if (n > 0) {
    cl_long n_ = n, offx_ = offx, incx_ = incx, offy_ = offy, incy_ = incy;
    cl_int e = exstar_cl::set_args(k_dot, 0, n_, x, offx_, incx_, y, offy_, incy_, acc, acc_off);
    if (e != CL_SUCCESS) return e;
  }
  return exstar_cl::enqueue_reduction(q, k_dot, k_norm, n, acc, acc_off);
}
