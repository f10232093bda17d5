// Codelet of the exact trsm: R T, RW B; B's block := the exact substitution (exstar_trsm_args;
// definition in kernels_cpu/gemm.h).
#include "codelets/level3_glue.h"

static void trsm_cpu(void *buffers[], void *cl_arg)
{
  exstar_trsm_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_dtrsm(a.side, a.uplo, a.transa, a.diag, a.m, a.n, a.alpha,
                   (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), exstar_mat_off(buffers[0], a.it, a.jt),
                   exstar_mat_ld(buffers[0]), (double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                   exstar_mat_off(buffers[1], a.ib, a.jb), exstar_mat_ld(buffers[1]), a.exact_only);
}

#ifdef EXSTAR_L3_CUDA
static void trsm_cuda(void *buffers[], void *cl_arg)
{
  exstar_trsm_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(
      exstar_cuda_dtrsm(a.side, a.uplo, a.transa, a.diag, a.m, a.n, a.alpha,
                        (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), exstar_mat_off(buffers[0], a.it, a.jt),
                        exstar_mat_ld(buffers[0]), (double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                        exstar_mat_off(buffers[1], a.ib, a.jb), exstar_mat_ld(buffers[1]), a.exact_only, nullptr,
                        starpu_cuda_get_local_stream()),
      "exstar_trsm");
}
#endif

#ifdef EXSTAR_L3_OPENCL
static void trsm_opencl(void *buffers[], void *cl_arg)
{
  exstar_trsm_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  exstar_cl_gemm_kernels *k = exstar_codelet_cl_gemm_kernels(&q);
  if (!k) return;
  cl_int e = exstar_cl_dtrsm(q, k, a.side, a.uplo, a.transa, a.diag, a.m, a.n, a.alpha, exstar_mat_mem(buffers[0]),
                             exstar_mat_cl_off(buffers[0], a.it, a.jt), exstar_mat_ld(buffers[0]),
                             exstar_mat_mem(buffers[1]), exstar_mat_cl_off(buffers[1], a.ib, a.jb),
                             exstar_mat_ld(buffers[1]), a.exact_only, nullptr);
  exstar_codelet_cl_finish(q, e, "exstar_trsm");
}
#endif

EXSTAR_CODELET(trsm, 2, STARPU_R, STARPU_RW);
