// Codelet of the exact sum: acc (REDUX) += Σ x_i over the range in exstar_reduce_args.
#include "codelets/glue.h"
#include "kernels_cpu/kernels_cpu.h"

static void sum_cpu(void *buffers[], void *cl_arg)
{
  exstar_reduce_args args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const exstar_reduce_args *a = &args;
  exstar_cpu_sum(a->n, exstar_vec_ptr(buffers[0]), a->offx, a->incx, exstar_acc_ptr(buffers[1]));
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void sum_cuda(void *buffers[], void *cl_arg)
{
  exstar_reduce_args args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const exstar_reduce_args *a = &args;
  exstar_codelet_cuda_check(exstar_cuda_sum(a->n, exstar_vec_ptr(buffers[0]), a->offx, a->incx,
                                            exstar_acc_ptr(buffers[1]), starpu_cuda_get_local_stream()),
                            "exstar_sum");
}
#endif

#ifdef STARPU_USE_OPENCL
static void sum_opencl(void *buffers[], void *cl_arg)
{
  exstar_reduce_args args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const exstar_reduce_args *a = &args;
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_sum", &q);
  cl_kernel norm = exstar_codelet_cl_kernel("exstar_acc_normalize", &q);
  cl_int e = exstar_cl_sum(q, k, norm, a->n, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]) + a->offx,
                           a->incx, exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1]));
  exstar_codelet_cl_finish(q, e, "exstar_sum");
}
#endif

EXSTAR_CODELET(sum, 2, STARPU_R, STARPU_REDUX);
