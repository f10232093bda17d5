// Codelet of the exact dot product: acc (REDUX) += Σ x_i·y_i over the range in exstar_reduce_args.
#include "codelets/glue.h"
#include "kernels_cpu/kernels_cpu.h"

static void dot_cpu(void *buffers[], void *cl_arg)
{
  exstar_reduce_args args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const exstar_reduce_args *a = &args;
  exstar_cpu_dot(a->n, exstar_vec_ptr(buffers[0]), a->offx, a->incx, exstar_vec_ptr(buffers[1]), a->offy,
                 a->incy, exstar_acc_ptr(buffers[2]));
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void dot_cuda(void *buffers[], void *cl_arg)
{
  exstar_reduce_args args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const exstar_reduce_args *a = &args;
  exstar_codelet_cuda_check(exstar_cuda_dot(a->n, exstar_vec_ptr(buffers[0]), a->offx, a->incx,
                                            exstar_vec_ptr(buffers[1]), a->offy, a->incy,
                                            exstar_acc_ptr(buffers[2]), starpu_cuda_get_local_stream()),
                            "exstar_dot");
}
#endif

#ifdef STARPU_USE_OPENCL
static void dot_opencl(void *buffers[], void *cl_arg)
{
  exstar_reduce_args args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const exstar_reduce_args *a = &args;
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_dot", &q);
  cl_kernel norm = exstar_codelet_cl_kernel("exstar_acc_normalize", &q);
  cl_int e = exstar_cl_dot(q, k, norm, a->n, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]) + a->offx,
                           a->incx, exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1]) + a->offy, a->incy,
                           exstar_vec_mem(buffers[2]), exstar_vec_off(buffers[2]));
  exstar_codelet_cl_finish(q, e, "exstar_dot");
}
#endif

EXSTAR_CODELET(dot, 3, STARPU_R, STARPU_R, STARPU_REDUX);
