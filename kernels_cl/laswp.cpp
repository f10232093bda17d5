// OpenCL launcher of laswp (laswp.cl): one work-item per column.
#include "kernels_cl/level1.h"
#include "kernels_cl/launch_util.h"

extern "C" cl_int exstar_cl_laswp(cl_command_queue q, cl_kernel k, int64_t n, cl_mem a, int64_t offa,
                                  int64_t lda, int64_t nrows, int64_t k1, int64_t k2, cl_mem ipiv,
                                  int64_t offipiv, int64_t incx)
{
  if (n <= 0 || k2 < k1) return CL_SUCCESS;
  cl_long v[] = {n, offa, lda, nrows, k1, k2, offipiv, incx};
  cl_int e = exstar_cl::set_args(k, 0, v[0], a, v[1], v[2], v[3], v[4], v[5], ipiv, v[6], v[7]);
  return e != CL_SUCCESS ? e : exstar_cl::enqueue_grid_stride(q, k, n);
}
