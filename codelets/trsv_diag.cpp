// Codelet of trsv's diagonal-block solve: R T (matrix), R accs (the block row's accumulators,
// holding -Σ over the other blocks), RW x: x_block := the block's substitution
// (exstar_trsv_block_args; definition in kernels_cpu/trsv.h).
#include "codelets/trsv_glue.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/trsv.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/trsv.h"
#endif

static void trsv_diag_cpu(void *buffers[], void *cl_arg)
{
  exstar_trsv_block_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_trsv_shape s = exstar_trsv_block_shape(buffers[0], &a, 0);
  exstar_cpu_trsv_solve(&s, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), exstar_acc_ptr(buffers[1]),
                        exstar_vec_ptr(buffers[2]), a.offx, a.incx);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void trsv_diag_cuda(void *buffers[], void *cl_arg)
{
  exstar_trsv_block_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_trsv_shape s = exstar_trsv_block_shape(buffers[0], &a, 0);
  exstar_codelet_cuda_check(exstar_cuda_trsv_solve(&s, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                                                   exstar_acc_ptr(buffers[1]), exstar_vec_ptr(buffers[2]), a.offx,
                                                   a.incx, starpu_cuda_get_local_stream()),
                            "exstar_trsv_diag");
}
#endif

#ifdef STARPU_USE_OPENCL
static void trsv_diag_opencl(void *buffers[], void *cl_arg)
{
  exstar_trsv_block_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_trsv_shape s = exstar_trsv_block_shape(buffers[0], &a, (int64_t)(STARPU_MATRIX_GET_OFFSET(buffers[0]) / 8));
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_trsv_solve", &q);
  cl_int e = exstar_cl_trsv_solve(q, k, &s, (cl_mem)STARPU_MATRIX_GET_DEV_HANDLE(buffers[0]),
                                  exstar_vec_mem(buffers[1]), (cl_ulong)exstar_vec_off(buffers[1]),
                                  exstar_vec_mem(buffers[2]), exstar_vec_off(buffers[2]) + a.offx, a.incx);
  exstar_codelet_cl_finish(q, e, "exstar_trsv_diag");
}
#endif

EXSTAR_CODELET(trsv_diag, 3, STARPU_R, STARPU_R, STARPU_RW);
