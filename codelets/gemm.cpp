// Codelets of the exact gemm: R A, R B, RW (or W) C; C's block := RN(α·op(A)·op(B) + β·C)
// entry by entry (exstar_gemm_args).
#include "codelets/level3_glue.h"

static void gemm_cpu(void *buffers[], void *cl_arg)
{
  exstar_gemm_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_dgemm(a.transa, a.transb, a.m, a.n, a.k, a.alpha, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                   exstar_mat_off(buffers[0], a.ia, a.ja), exstar_mat_ld(buffers[0]),
                   (const double *)STARPU_MATRIX_GET_PTR(buffers[1]), exstar_mat_off(buffers[1], a.ib, a.jb),
                   exstar_mat_ld(buffers[1]), a.beta, (double *)STARPU_MATRIX_GET_PTR(buffers[2]),
                   exstar_mat_off(buffers[2], a.ic, a.jc), exstar_mat_ld(buffers[2]), a.exact_only);
}

#ifdef EXSTAR_L3_CUDA
static void gemm_cuda(void *buffers[], void *cl_arg)
{
  exstar_gemm_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(
      exstar_cuda_dgemm(a.transa, a.transb, a.m, a.n, a.k, a.alpha, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                        exstar_mat_off(buffers[0], a.ia, a.ja), exstar_mat_ld(buffers[0]),
                        (const double *)STARPU_MATRIX_GET_PTR(buffers[1]), exstar_mat_off(buffers[1], a.ib, a.jb),
                        exstar_mat_ld(buffers[1]), a.beta, (double *)STARPU_MATRIX_GET_PTR(buffers[2]),
                        exstar_mat_off(buffers[2], a.ic, a.jc), exstar_mat_ld(buffers[2]), a.exact_only, nullptr,
                        starpu_cuda_get_local_stream()),
      "exstar_gemm");
}
#endif

#ifdef EXSTAR_L3_OPENCL
static void gemm_opencl(void *buffers[], void *cl_arg)
{
  exstar_gemm_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  exstar_cl_gemm_kernels *k = exstar_codelet_cl_gemm_kernels(&q);
  if (!k) return;
  cl_int e = exstar_cl_dgemm(q, k, a.transa, a.transb, a.m, a.n, a.k, a.alpha, exstar_mat_mem(buffers[0]),
                             exstar_mat_cl_off(buffers[0], a.ia, a.ja), exstar_mat_ld(buffers[0]),
                             exstar_mat_mem(buffers[1]), exstar_mat_cl_off(buffers[1], a.ib, a.jb),
                             exstar_mat_ld(buffers[1]), a.beta, exstar_mat_mem(buffers[2]),
                             exstar_mat_cl_off(buffers[2], a.ic, a.jc), exstar_mat_ld(buffers[2]), a.exact_only,
                             nullptr);
  exstar_codelet_cl_finish(q, e, "exstar_gemm");
}
#endif

EXSTAR_CODELET(gemm, 3, STARPU_R, STARPU_R, STARPU_RW);
// β == 0 on a whole C handle: C is not read, so StarPU need not bring it.
EXSTAR_CODELET_OF(gemm_w, gemm, NULL, 3, STARPU_R, STARPU_R, STARPU_W);
