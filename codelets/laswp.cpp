// Codelet of laswp: LAPACK row interchanges on A (RW, vector or matrix buffer) from the int32
// pivots of buffer 1 (R), columns [col0, col0+n).
#include "codelets/glue.h"
#include "kernels_cpu/level1.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/level1.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/level1.h"
#endif

static int32_t *ipiv_ptr(void *buf) { return (int32_t *)STARPU_VECTOR_GET_PTR(buf); }

static void laswp_cpu(void *buffers[], void *cl_arg)
{
  exstar_laswp_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const int64_t ld = exstar_buf_ld(buffers[0]);
  exstar_cpu_laswp(a.n, (double *)exstar_buf_ptr(buffers[0]), a.col0 * ld, ld, exstar_buf_rows(buffers[0]), a.k1,
                   a.k2, ipiv_ptr(buffers[1]), a.offipiv, a.incx);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void laswp_cuda(void *buffers[], void *cl_arg)
{
  exstar_laswp_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const int64_t ld = exstar_buf_ld(buffers[0]);
  exstar_codelet_cuda_check(exstar_cuda_laswp(a.n, (double *)exstar_buf_ptr(buffers[0]), a.col0 * ld, ld,
                                              exstar_buf_rows(buffers[0]), a.k1, a.k2, ipiv_ptr(buffers[1]),
                                              a.offipiv, a.incx, starpu_cuda_get_local_stream()),
                            "exstar_laswp");
}
#endif

#ifdef STARPU_USE_OPENCL
static void laswp_opencl(void *buffers[], void *cl_arg)
{
  exstar_laswp_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_laswp", &q);
  const int64_t ld = exstar_buf_ld(buffers[0]);
  cl_int e = exstar_cl_laswp(q, k, a.n, exstar_buf_mem(buffers[0]),
                             exstar_buf_off(buffers[0], sizeof(double)) + a.col0 * ld, ld,
                             exstar_buf_rows(buffers[0]), a.k1, a.k2, exstar_buf_mem(buffers[1]),
                             exstar_buf_off(buffers[1], sizeof(int32_t)) + a.offipiv, a.incx);
  exstar_codelet_cl_finish(q, e, "exstar_laswp");
}
#endif

EXSTAR_CODELET(laswp, 2, STARPU_RW, STARPU_R);
