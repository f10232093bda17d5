// Codelet of LU's one rounding of column j (R accs, RW A): v(r) := RN(acc_r + a(r,j)) for r in
// [r0, r0+rlen), the gemv_finish kernels with β = 1 on the column inside A.
#include "codelets/lu_glue.h"
#include "kernels_cpu/gemv.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/gemv.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/gemv.h"
#endif

static void lu_finish_cpu(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_gemv_finish(a.rlen, 1.0, exstar_lu_mat_ptr(buffers[1]), a.r0 + a.j * exstar_lu_ld(buffers[1]), 1,
                         exstar_acc_ptr(buffers[0]), a.r0);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_finish_cuda(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_gemv_finish(a.rlen, 1.0, exstar_lu_mat_ptr(buffers[1]),
                                                    a.r0 + a.j * exstar_lu_ld(buffers[1]), 1,
                                                    exstar_acc_ptr(buffers[0]), a.r0, starpu_cuda_get_local_stream()),
                            "exstar_lu_finish");
}
#endif

#ifdef STARPU_USE_OPENCL
static void lu_finish_opencl(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_gemv_finish", &q);
  cl_int e = exstar_cl_gemv_finish(q, k, a.rlen, 1.0, exstar_lu_mat_mem(buffers[1]),
                                   exstar_lu_mat_off(buffers[1]) + a.r0 + a.j * exstar_lu_ld(buffers[1]), 1,
                                   exstar_vec_mem(buffers[0]),
                                   (cl_ulong)(exstar_vec_off(buffers[0]) + a.r0 * EXSTAR_ACC_WORDS));
  exstar_codelet_cl_finish(q, e, "exstar_lu_finish");
}
#endif

EXSTAR_LU_CODELET(lu_finish, 2, STARPU_R, STARPU_RW);
