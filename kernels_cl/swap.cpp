// OpenCL launcher of swap (swap.cl).
#include "kernels_cl/level1.h"
#include "kernels_cl/launch_util.h"

extern "C" cl_int exstar_cl_swap(cl_command_queue q, cl_kernel k, int64_t n, cl_mem x, int64_t offx,
                                 int64_t incx, cl_mem y, int64_t offy, int64_t incy)
{
  if (n <= 0) return CL_SUCCESS;
  cl_long n_ = n, offx_ = offx, incx_ = incx, offy_ = offy, incy_ = incy;
  cl_int e = exstar_cl::set_args(k, 0, n_, x, offx_, incx_, y, offy_, incy_);
  return e != CL_SUCCESS ? e : exstar_cl::enqueue_grid_stride(q, k, n);
}
