// Codelet of the PLAIN-double solve with LU factors (R LU, R ipiv, RW B; LU and B matrix
// handles, n x n and n x nrhs): interchanges, then naive double substitutions (baseline only).
#include "codelets/lu_glue.h"
#include "kernels_cpu/lu.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/lu.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/lu.h"
#endif

static int64_t nrhs_of(void *bbuf) { return (int64_t)STARPU_MATRIX_GET_NY(bbuf); }

static void lu_plain_getrs_cpu(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_lu_plain_getrs(a.m, nrhs_of(buffers[2]), exstar_lu_mat_ptr(buffers[0]), 0, exstar_lu_ld(buffers[0]),
                            exstar_lu_ipiv_ptr(buffers[1]), 0, exstar_lu_mat_ptr(buffers[2]), 0,
                            exstar_lu_ld(buffers[2]));
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_plain_getrs_cuda(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(
      exstar_cuda_lu_plain_getrs(a.m, nrhs_of(buffers[2]), exstar_lu_mat_ptr(buffers[0]), 0, exstar_lu_ld(buffers[0]),
                                 exstar_lu_ipiv_ptr(buffers[1]), 0, exstar_lu_mat_ptr(buffers[2]), 0,
                                 exstar_lu_ld(buffers[2]), starpu_cuda_get_local_stream()),
      "exstar_lu_plain_getrs");
}
#endif

#ifdef STARPU_USE_OPENCL
static void lu_plain_getrs_opencl(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_lu_plain_getrs", &q);
  cl_int e = exstar_cl_lu_plain_getrs(q, k, a.m, nrhs_of(buffers[2]), exstar_lu_mat_mem(buffers[0]),
                                      exstar_lu_mat_off(buffers[0]), exstar_lu_ld(buffers[0]),
                                      exstar_vec_mem(buffers[1]), exstar_lu_ipiv_off(buffers[1]),
                                      exstar_lu_mat_mem(buffers[2]), exstar_lu_mat_off(buffers[2]),
                                      exstar_lu_ld(buffers[2]));
  exstar_codelet_cl_finish(q, e, "exstar_lu_plain_getrs");
}
#endif

EXSTAR_LU_CODELET(lu_plain_getrs, 3, STARPU_R, STARPU_R, STARPU_RW);
