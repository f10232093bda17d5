// Codelet of axpy: y (RW) := RN(alpha * x + y), one rounding, over the range in exstar_level1_args.
#include "codelets/glue.h"
#include "kernels_cpu/level1.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/level1.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/level1.h"
#endif

static void axpy_cpu(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_axpy(a.n, a.alpha, exstar_vec_ptr(buffers[0]), a.offx, a.incx, exstar_vec_ptr(buffers[1]), a.offy,
                  a.incy);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void axpy_cuda(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_axpy(a.n, a.alpha, exstar_vec_ptr(buffers[0]), a.offx, a.incx,
                                             exstar_vec_ptr(buffers[1]), a.offy, a.incy,
                                             starpu_cuda_get_local_stream()),
                            "exstar_axpy");
}
#endif

#ifdef STARPU_USE_OPENCL
static void axpy_opencl(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_axpy", &q);
  cl_int e = exstar_cl_axpy(q, k, a.n, a.alpha, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]) + a.offx,
                            a.incx, exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1]) + a.offy, a.incy);
  exstar_codelet_cl_finish(q, e, "exstar_axpy");
}
#endif

EXSTAR_CODELET(axpy, 2, STARPU_R, STARPU_RW);
