// Codelets of invscal: x (RW) := RN(x / alpha), alpha given by value (invscal) or read from
// an element of a vector or matrix buffer at run time (invscal_h).
#include "codelets/glue.h"
#include "kernels_cpu/level1.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/level1.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/level1.h"
#endif

/* ---- invscal: alpha by value ---- */
static void invscal_cpu(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_invscal(a.n, a.alpha, exstar_vec_ptr(buffers[0]), a.offx, a.incx);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void invscal_cuda(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_invscal(a.n, a.alpha, exstar_vec_ptr(buffers[0]), a.offx, a.incx,
                                                starpu_cuda_get_local_stream()),
                            "exstar_invscal");
}
#endif

#ifdef STARPU_USE_OPENCL
static void invscal_opencl(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_invscal", &q);
  cl_int e = exstar_cl_invscal(q, k, a.n, a.alpha, exstar_vec_mem(buffers[0]),
                               exstar_vec_off(buffers[0]) + a.offx, a.incx);
  exstar_codelet_cl_finish(q, e, "exstar_invscal");
}
#endif

/* ---- invscal_h: alpha = element (alpha_row, alpha_col) of buffer 0 ---- */
static int64_t alpha_offset(void *buf, const exstar_invscal_h_args &a)
{
  return a.alpha_row + a.alpha_col * exstar_buf_ld(buf);
}

static void invscal_h_cpu(void *buffers[], void *cl_arg)
{
  exstar_invscal_h_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const double alpha = ((const double *)exstar_buf_ptr(buffers[0]))[alpha_offset(buffers[0], a)];
  if (a.skip_zero && alpha == 0.0) return;
  exstar_cpu_invscal(a.n, alpha, exstar_vec_ptr(buffers[1]), a.offx, a.incx);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void invscal_h_cuda(void *buffers[], void *cl_arg)
{
  exstar_invscal_h_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const double *alpha = (const double *)exstar_buf_ptr(buffers[0]) + alpha_offset(buffers[0], a);
  exstar_codelet_cuda_check(exstar_cuda_invscal_dev(a.n, alpha, (int)a.skip_zero, exstar_vec_ptr(buffers[1]),
                                                    a.offx, a.incx, starpu_cuda_get_local_stream()),
                            "exstar_invscal_h");
}
#endif

#ifdef STARPU_USE_OPENCL
static void invscal_h_opencl(void *buffers[], void *cl_arg)
{
  exstar_invscal_h_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_invscal_mem", &q);
  cl_int e = exstar_cl_invscal_mem(q, k, a.n, exstar_buf_mem(buffers[0]),
                                   exstar_buf_off(buffers[0], sizeof(double)) + alpha_offset(buffers[0], a),
                                   (int)a.skip_zero, exstar_vec_mem(buffers[1]),
                                   exstar_vec_off(buffers[1]) + a.offx, a.incx);
  exstar_codelet_cl_finish(q, e, "exstar_invscal_h");
}
#endif

EXSTAR_CODELET(invscal, 1, STARPU_RW);
EXSTAR_CODELET(invscal_h, 2, STARPU_R, STARPU_RW);
