// OpenCL launchers of invscal (invscal.cl): divisor given by value or read on the device.
#include "kernels_cl/level1.h"
#include "kernels_cl/launch_util.h"

extern "C" cl_int exstar_cl_invscal(cl_command_queue q, cl_kernel k, int64_t n, double alpha, cl_mem x,
                                    int64_t offx, int64_t incx)
{
  if (n <= 0) return CL_SUCCESS;
  cl_long n_ = n, offx_ = offx, incx_ = incx;
  cl_int e = exstar_cl::set_args(k, 0, n_, alpha, x, offx_, incx_);
  return e != CL_SUCCESS ? e : exstar_cl::enqueue_grid_stride(q, k, n);
}

extern "C" cl_int exstar_cl_invscal_mem(cl_command_queue q, cl_kernel k, int64_t n, cl_mem a, int64_t aoff,
                                        int skip_zero, cl_mem x, int64_t offx, int64_t incx)
{
  if (n <= 0) return CL_SUCCESS;
  cl_long n_ = n, aoff_ = aoff, offx_ = offx, incx_ = incx;
  cl_int skip = skip_zero ? 1 : 0;
  cl_int e = exstar_cl::set_args(k, 0, n_, a, aoff_, skip, x, offx_, incx_);
  return e != CL_SUCCESS ? e : exstar_cl::enqueue_grid_stride(q, k, n);
}
