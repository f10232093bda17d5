// Codelets of LU's exact updates of column j (R A, REDUX accs):
//   acc_r += −Σ_{k0<=k<k0+klen} l(r,k)·u(k,j)  for r in [r0, r0+rlen),
// the gemv_acc kernels ('N', α = −1) with the block of L and the column u(·,j) both inside A.
// Two codelets of the same function, so that their models stay apart: exstar_lu_gemv (a block
// of rows) and exstar_lu_dot (the one row j, LU's α11 −= a10ᵀ·a01).
#include "codelets/lu_glue.h"
#include "kernels_cpu/gemv.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/gemv.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/gemv.h"
#endif

static void lu_gemv_cpu(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const double *A = exstar_lu_mat_ptr(buffers[0]);
  const int64_t ld = exstar_lu_ld(buffers[0]);
  exstar_cpu_gemv_acc('N', a.rlen, a.klen, -1.0, A, a.r0 + a.k0 * ld, ld, A, a.k0 + a.j * ld, 1,
                      exstar_acc_ptr(buffers[1]), a.r0);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_gemv_cuda(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const double *A = exstar_lu_mat_ptr(buffers[0]);
  const int64_t ld = exstar_lu_ld(buffers[0]);
  exstar_codelet_cuda_check(exstar_cuda_gemv_acc('N', a.rlen, a.klen, -1.0, A, a.r0 + a.k0 * ld, ld, A,
                                                 a.k0 + a.j * ld, 1, exstar_acc_ptr(buffers[1]), a.r0,
                                                 starpu_cuda_get_local_stream()),
                            "exstar_lu_gemv");
}
#endif

#ifdef STARPU_USE_OPENCL
static void lu_gemv_opencl(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_gemv_n", &q);
  cl_kernel norm = exstar_codelet_cl_kernel("exstar_gemv_normalize", &q);
  cl_mem A = exstar_lu_mat_mem(buffers[0]);
  const int64_t base = exstar_lu_mat_off(buffers[0]), ld = exstar_lu_ld(buffers[0]);
  cl_int e = exstar_cl_gemv_acc(q, k, norm, 'N', a.rlen, a.klen, -1.0, A, base + a.r0 + a.k0 * ld, ld, A,
                                base + a.k0 + a.j * ld, 1, exstar_vec_mem(buffers[1]),
                                (cl_ulong)(exstar_vec_off(buffers[1]) + a.r0 * EXSTAR_ACC_WORDS));
  exstar_codelet_cl_finish(q, e, "exstar_lu_gemv");
}
#endif

#define lu_dot_cpu lu_gemv_cpu
#define lu_dot_cuda lu_gemv_cuda
#define lu_dot_opencl lu_gemv_opencl

EXSTAR_LU_CODELET(lu_gemv, 2, STARPU_R, STARPU_REDUX);
EXSTAR_LU_CODELET(lu_dot, 2, STARPU_R, STARPU_REDUX);
