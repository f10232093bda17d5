// Codelet of scal: x (RW) := RN(alpha * x) over the range in exstar_level1_args.
#include "codelets/glue.h"
#include "kernels_cpu/level1.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/level1.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/level1.h"
#endif

static void scal_cpu(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_scal(a.n, a.alpha, exstar_vec_ptr(buffers[0]), a.offx, a.incx);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void scal_cuda(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(
      exstar_cuda_scal(a.n, a.alpha, exstar_vec_ptr(buffers[0]), a.offx, a.incx, starpu_cuda_get_local_stream()),
      "exstar_scal");
}
#endif

#ifdef STARPU_USE_OPENCL
static void scal_opencl(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_scal", &q);
  cl_int e = exstar_cl_scal(q, k, a.n, a.alpha, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]) + a.offx,
                            a.incx);
  exstar_codelet_cl_finish(q, e, "exstar_scal");
}
#endif

EXSTAR_CODELET(scal, 1, STARPU_RW);
