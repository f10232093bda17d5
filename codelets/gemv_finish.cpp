// Codelet of gemv's one rounding: y_i := RN(acc_{offacc+i} + β·y_i) (exstar_gemv_finish_args).
#include "codelets/glue.h"
#include "kernels_cpu/gemv.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/gemv.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/gemv.h"
#endif

static void gemv_finish_cpu(void *buffers[], void *cl_arg)
{
  exstar_gemv_finish_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_gemv_finish(a.n, a.beta, exstar_vec_ptr(buffers[1]), a.offy, a.incy, exstar_acc_ptr(buffers[0]),
                         a.offacc);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void gemv_finish_cuda(void *buffers[], void *cl_arg)
{
  exstar_gemv_finish_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_gemv_finish(a.n, a.beta, exstar_vec_ptr(buffers[1]), a.offy, a.incy,
                                                    exstar_acc_ptr(buffers[0]), a.offacc,
                                                    starpu_cuda_get_local_stream()),
                            "exstar_gemv_finish");
}
#endif

#ifdef STARPU_USE_OPENCL
static void gemv_finish_opencl(void *buffers[], void *cl_arg)
{
  exstar_gemv_finish_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_gemv_finish", &q);
  cl_int e = exstar_cl_gemv_finish(q, k, a.n, a.beta, exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1]) + a.offy,
                                   a.incy, exstar_vec_mem(buffers[0]),
                                   (cl_ulong)(exstar_vec_off(buffers[0]) + a.offacc * EXSTAR_ACC_WORDS));
  exstar_codelet_cl_finish(q, e, "exstar_gemv_finish");
}
#endif

EXSTAR_CODELET(gemv_finish, 2, STARPU_R, STARPU_RW);
