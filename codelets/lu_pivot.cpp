// Codelet of LU's pivot of column j (RW A, RW ipiv): p := the first row in [j, m) of the
// largest |v| (NaN largest), ipiv[j] := p + 1, rows j and p interchanged in columns 0..j.
#include "codelets/lu_glue.h"
#include "kernels_cpu/lu.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/lu.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/lu.h"
#endif

static void lu_pivot_cpu(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_lu_pivot(a.m, a.j, exstar_lu_mat_ptr(buffers[0]), 0, exstar_lu_ld(buffers[0]),
                      exstar_lu_ipiv_ptr(buffers[1]), 0);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_pivot_cuda(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_lu_pivot(a.m, a.j, exstar_lu_mat_ptr(buffers[0]), 0, exstar_lu_ld(buffers[0]),
                                                 exstar_lu_ipiv_ptr(buffers[1]), 0, starpu_cuda_get_local_stream()),
                            "exstar_lu_pivot");
}
#endif

#ifdef STARPU_USE_OPENCL
static void lu_pivot_opencl(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_lu_pivot", &q);
  cl_int e = exstar_cl_lu_pivot(q, k, a.m, a.j, exstar_lu_mat_mem(buffers[0]), exstar_lu_mat_off(buffers[0]),
                                exstar_lu_ld(buffers[0]), exstar_vec_mem(buffers[1]), exstar_lu_ipiv_off(buffers[1]));
  exstar_codelet_cl_finish(q, e, "exstar_lu_pivot");
}
#endif

EXSTAR_LU_CODELET(lu_pivot, 2, STARPU_RW, STARPU_RW);
