// Codelet of the PLAIN-double LU baseline's column update (RW A): forward substitution for
// u(0..j-1, j), then v(i) := a(i,j) − Σ_{k<j} l(i,k)·u(k,j) for i >= j, rounded in double at
// every step (not exact, not reproducible across implementations: the comparison baseline).
#include "codelets/lu_glue.h"
#include "kernels_cpu/lu.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/lu.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/lu.h"
#endif

static void lu_plain_cpu(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_lu_plain_column(a.m, a.j, exstar_lu_mat_ptr(buffers[0]), 0, exstar_lu_ld(buffers[0]));
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_plain_cuda(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_lu_plain_column(a.m, a.j, exstar_lu_mat_ptr(buffers[0]), 0,
                                                        exstar_lu_ld(buffers[0]), starpu_cuda_get_local_stream()),
                            "exstar_lu_plain");
}
#endif

#ifdef STARPU_USE_OPENCL
static void lu_plain_opencl(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel kt = exstar_codelet_cl_kernel("exstar_lu_plain_trsv", &q);
  cl_kernel kg = exstar_codelet_cl_kernel("exstar_lu_plain_gemv", &q);
  cl_int e = exstar_cl_lu_plain_column(q, kt, kg, a.m, a.j, exstar_lu_mat_mem(buffers[0]),
                                       exstar_lu_mat_off(buffers[0]), exstar_lu_ld(buffers[0]));
  exstar_codelet_cl_finish(q, e, "exstar_lu_plain");
}
#endif

EXSTAR_LU_CODELET(lu_plain, 1, STARPU_RW);
