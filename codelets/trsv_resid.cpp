// Codelet of the residual of refined trsv on one diagonal block: R T (matrix), R accs (the
// block row's accumulators, holding -Σ over the other blocks), R x, R b, RW r:
// r_i := RN(acc_i + b_i - Σ_{k in the block's triangle} op(T)_ik x_k) (exstar_trsv_block_args).
#include "codelets/trsv_glue.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/trsv.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/trsv.h"
#endif

static void trsv_resid_cpu(void *buffers[], void *cl_arg)
{
  exstar_trsv_block_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_trsv_shape s = exstar_trsv_block_shape(buffers[0], &a, 0);
  exstar_cpu_trsv_resid(&s, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), exstar_acc_ptr(buffers[1]),
                        exstar_vec_ptr(buffers[2]), a.offx, a.incx, exstar_vec_ptr(buffers[3]), a.offb, a.incb,
                        exstar_vec_ptr(buffers[4]), a.offr, a.incr);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void trsv_resid_cuda(void *buffers[], void *cl_arg)
{
  exstar_trsv_block_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_trsv_shape s = exstar_trsv_block_shape(buffers[0], &a, 0);
  exstar_codelet_cuda_check(
      exstar_cuda_trsv_resid(&s, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), exstar_acc_ptr(buffers[1]),
                             exstar_vec_ptr(buffers[2]), a.offx, a.incx, exstar_vec_ptr(buffers[3]), a.offb, a.incb,
                             exstar_vec_ptr(buffers[4]), a.offr, a.incr, starpu_cuda_get_local_stream()),
      "exstar_trsv_resid");
}
#endif

#ifdef STARPU_USE_OPENCL
static void trsv_resid_opencl(void *buffers[], void *cl_arg)
{
  exstar_trsv_block_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_trsv_shape s = exstar_trsv_block_shape(buffers[0], &a, (int64_t)(STARPU_MATRIX_GET_OFFSET(buffers[0]) / 8));
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_trsv_resid", &q);
  cl_int e = exstar_cl_trsv_resid(q, k, &s, (cl_mem)STARPU_MATRIX_GET_DEV_HANDLE(buffers[0]),
                                  exstar_vec_mem(buffers[1]), (cl_ulong)exstar_vec_off(buffers[1]),
                                  exstar_vec_mem(buffers[2]), exstar_vec_off(buffers[2]) + a.offx, a.incx,
                                  exstar_vec_mem(buffers[3]), exstar_vec_off(buffers[3]) + a.offb, a.incb,
                                  exstar_vec_mem(buffers[4]), exstar_vec_off(buffers[4]) + a.offr, a.incr);
  exstar_codelet_cl_finish(q, e, "exstar_trsv_resid");
}
#endif

EXSTAR_CODELET(trsv_resid, 5, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_RW); // RW: a block writes part of r
