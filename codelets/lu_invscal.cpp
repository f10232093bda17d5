// Codelet of LU's scaling of column j (RW A): l(r,j) := RN(v(r) / u(j,j)) for r in (j, m), one
// division each, skipped when u(j,j) == ±0 (LAPACK's zero pivot). The invscal kernels with the
// divisor read where the task runs, from A itself.
#include "codelets/lu_glue.h"
#include "kernels_cpu/level1.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/level1.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/level1.h"
#endif

static void lu_invscal_cpu(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  double *A = exstar_lu_mat_ptr(buffers[0]);
  const int64_t ld = exstar_lu_ld(buffers[0]);
  const double ujj = A[a.j + a.j * ld];
  if (ujj != 0.0) exstar_cpu_invscal(a.m - a.j - 1, ujj, A, a.j + 1 + a.j * ld, 1);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_invscal_cuda(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  double *A = exstar_lu_mat_ptr(buffers[0]);
  const int64_t ld = exstar_lu_ld(buffers[0]);
  exstar_codelet_cuda_check(exstar_cuda_invscal_dev(a.m - a.j - 1, A + a.j + a.j * ld, 1, A, a.j + 1 + a.j * ld, 1,
                                                    starpu_cuda_get_local_stream()),
                            "exstar_lu_invscal");
}
#endif

#ifdef STARPU_USE_OPENCL
static void lu_invscal_opencl(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_invscal_mem", &q);
  cl_mem A = exstar_lu_mat_mem(buffers[0]);
  const int64_t base = exstar_lu_mat_off(buffers[0]), ld = exstar_lu_ld(buffers[0]);
  cl_int e = exstar_cl_invscal_mem(q, k, a.m - a.j - 1, A, base + a.j + a.j * ld, 1, A, base + a.j + 1 + a.j * ld, 1);
  exstar_codelet_cl_finish(q, e, "exstar_lu_invscal");
}
#endif

EXSTAR_LU_CODELET(lu_invscal, 1, STARPU_RW);
