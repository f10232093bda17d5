// Codelet of swap: x (RW) <-> y (RW) over the range in exstar_level1_args.
#include "codelets/glue.h"
#include "kernels_cpu/level1.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/level1.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/level1.h"
#endif

static void swap_cpu(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_swap(a.n, exstar_vec_ptr(buffers[0]), a.offx, a.incx, exstar_vec_ptr(buffers[1]), a.offy, a.incy);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void swap_cuda(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_swap(a.n, exstar_vec_ptr(buffers[0]), a.offx, a.incx,
                                             exstar_vec_ptr(buffers[1]), a.offy, a.incy,
                                             starpu_cuda_get_local_stream()),
                            "exstar_swap");
}
#endif

#ifdef STARPU_USE_OPENCL
static void swap_opencl(void *buffers[], void *cl_arg)
{
  exstar_level1_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_swap", &q);
  cl_int e = exstar_cl_swap(q, k, a.n, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]) + a.offx, a.incx,
                            exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1]) + a.offy, a.incy);
  exstar_codelet_cl_finish(q, e, "exstar_swap");
}
#endif

EXSTAR_CODELET(swap, 2, STARPU_RW, STARPU_RW);
