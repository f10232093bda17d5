// Codelet of LU's first step of column j: the earlier row interchanges ipiv[0..npiv-1] applied
// to column j of A (RW A, R ipiv), with the laswp kernels on one column.
#include "codelets/lu_glue.h"
#include "kernels_cpu/level1.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/level1.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/level1.h"
#endif

static void lu_swap_cpu(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const int64_t ld = exstar_lu_ld(buffers[0]);
  exstar_cpu_laswp(1, exstar_lu_mat_ptr(buffers[0]), a.j * ld, ld, a.m, 1, a.npiv, exstar_lu_ipiv_ptr(buffers[1]), 0,
                   1);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_swap_cuda(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const int64_t ld = exstar_lu_ld(buffers[0]);
  exstar_codelet_cuda_check(exstar_cuda_laswp(1, exstar_lu_mat_ptr(buffers[0]), a.j * ld, ld, a.m, 1, a.npiv,
                                              exstar_lu_ipiv_ptr(buffers[1]), 0, 1, starpu_cuda_get_local_stream()),
                            "exstar_lu_swap");
}
#endif

#ifdef STARPU_USE_OPENCL
static void lu_swap_opencl(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_laswp", &q);
  const int64_t ld = exstar_lu_ld(buffers[0]);
  cl_int e = exstar_cl_laswp(q, k, 1, exstar_lu_mat_mem(buffers[0]), exstar_lu_mat_off(buffers[0]) + a.j * ld, ld,
                             a.m, 1, a.npiv, exstar_vec_mem(buffers[1]), exstar_lu_ipiv_off(buffers[1]), 1);
  exstar_codelet_cl_finish(q, e, "exstar_lu_swap");
}
#endif

EXSTAR_LU_CODELET(lu_swap, 2, STARPU_RW, STARPU_R);
