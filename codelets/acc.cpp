// Codelets of exact accumulators: zero (STARPU_REDUX init) and merge (redux) of a handle
// holding an array of accumulators (a vector of count*EXSTAR_ACC_WORDS words), and rounding
// of a single one.
#include "codelets/glue.h"
#include "kernels_cpu/kernels_cpu.h"

/* ---- init: acc := 0 ---- */
static void acc_init_cpu(void *buffers[], void *)
{
  exstar_cpu_acc_zero(exstar_acc_ptr(buffers[0]), exstar_acc_count(buffers[0]));
}
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void acc_init_cuda(void *buffers[], void *)
{
  exstar_codelet_cuda_check(exstar_cuda_acc_zero(exstar_acc_ptr(buffers[0]), exstar_acc_count(buffers[0]),
                                                     starpu_cuda_get_local_stream()),
                            "exstar_acc_init");
}
#endif
#ifdef STARPU_USE_OPENCL
static void acc_init_opencl(void *buffers[], void *)
{
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_acc_zero", &q);
  exstar_codelet_cl_finish(q, exstar_cl_acc_zero(q, k, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]),
                                                       exstar_acc_count(buffers[0])),
                           "exstar_acc_init");
}
#endif

/* ---- redux: dst += src (exact integer addition, so any reduction tree gives the same bits) ---- */
static void acc_redux_cpu(void *buffers[], void *)
{
  exstar_cpu_acc_merge(exstar_acc_ptr(buffers[0]), exstar_acc_ptr(buffers[1]), exstar_acc_count(buffers[0]));
}
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void acc_redux_cuda(void *buffers[], void *)
{
  exstar_codelet_cuda_check(exstar_cuda_acc_merge(exstar_acc_ptr(buffers[0]), exstar_acc_ptr(buffers[1]),
                                                  exstar_acc_count(buffers[0]), starpu_cuda_get_local_stream()),
                            "exstar_acc_redux");
}
#endif
#ifdef STARPU_USE_OPENCL
static void acc_redux_opencl(void *buffers[], void *)
{
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_acc_merge", &q);
  exstar_codelet_cl_finish(q,
                           exstar_cl_acc_merge(q, k, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]),
                                               exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1]),
                                               exstar_acc_count(buffers[0])),
                           "exstar_acc_redux");
}
#endif

/* ---- round: result := RN(acc), the one rounding ---- */
static void acc_round_cpu(void *buffers[], void *)
{
  double *r = (double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
  *r = exstar_cpu_acc_round(exstar_acc_ptr(buffers[0]));
}
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void acc_round_cuda(void *buffers[], void *)
{
  double *r = (double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
  exstar_codelet_cuda_check(exstar_cuda_acc_round(exstar_acc_ptr(buffers[0]), r, starpu_cuda_get_local_stream()),
                            "exstar_acc_round");
}
#endif
#ifdef STARPU_USE_OPENCL
static void acc_round_opencl(void *buffers[], void *)
{
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_acc_round", &q);
  cl_mem r = (cl_mem)STARPU_VARIABLE_GET_PTR(buffers[1]);
  cl_ulong roff = STARPU_VARIABLE_GET_OFFSET(buffers[1]) / sizeof(double);
  exstar_codelet_cl_finish(
      q, exstar_cl_acc_round(q, k, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]), r, roff),
      "exstar_acc_round");
}
#endif

/* ---- round_sqrt: result := RN(sqrt(acc)), correctly rounded (core/sqrt.h) ---- */
static void acc_round_sqrt_cpu(void *buffers[], void *)
{
  double *r = (double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
  *r = exstar_cpu_acc_round_sqrt(exstar_acc_ptr(buffers[0]));
}
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void acc_round_sqrt_cuda(void *buffers[], void *)
{
  double *r = (double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
  exstar_codelet_cuda_check(exstar_cuda_acc_round_sqrt(exstar_acc_ptr(buffers[0]), r, starpu_cuda_get_local_stream()),
                            "exstar_acc_round_sqrt");
}
#endif
#ifdef STARPU_USE_OPENCL
static void acc_round_sqrt_opencl(void *buffers[], void *)
{
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_acc_round_sqrt", &q);
  cl_mem r = (cl_mem)STARPU_VARIABLE_GET_PTR(buffers[1]);
  cl_ulong roff = STARPU_VARIABLE_GET_OFFSET(buffers[1]) / sizeof(double);
  exstar_codelet_cl_finish(
      q, exstar_cl_acc_round_sqrt(q, k, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]), r, roff),
      "exstar_acc_round_sqrt");
}
#endif

EXSTAR_CODELET(acc_init, 1, STARPU_W);
EXSTAR_CODELET(acc_redux, 2, STARPU_RW, STARPU_R); // StarPU 1.3 wants exactly RW here
EXSTAR_CODELET(acc_round, 2, STARPU_R, STARPU_W);
EXSTAR_CODELET(acc_round_sqrt, 2, STARPU_R, STARPU_W);
