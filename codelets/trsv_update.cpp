// Codelets of refined trsv's vector steps (exstar_trsv_update_args): trsv_update (R d, RW x):
// x_i := RN(x_i + d_i) when add, else x_i := d_i; trsv_copy (R d, W x): x_i := d_i, add
// ignored (W: it initializes the refinement's workspaces).
#include "codelets/glue.h"
#include "kernels_cpu/trsv.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/trsv.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/trsv.h"
#endif

static void update_or_copy_cpu(void *buffers[], void *cl_arg, bool copy)
{
  exstar_trsv_update_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_trsv_update(a.n, copy ? 0 : a.add, exstar_vec_ptr(buffers[0]), a.offd, a.incd, exstar_vec_ptr(buffers[1]),
                         a.offx, a.incx);
}
static void trsv_update_cpu(void *buffers[], void *cl_arg) { update_or_copy_cpu(buffers, cl_arg, false); }
static void trsv_copy_cpu(void *buffers[], void *cl_arg) { update_or_copy_cpu(buffers, cl_arg, true); }

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void update_or_copy_cuda(void *buffers[], void *cl_arg, bool copy)
{
  exstar_trsv_update_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_trsv_update(a.n, copy ? 0 : a.add, exstar_vec_ptr(buffers[0]), a.offd, a.incd,
                                                    exstar_vec_ptr(buffers[1]), a.offx, a.incx,
                                                    starpu_cuda_get_local_stream()),
                            "exstar_trsv_update");
}
static void trsv_update_cuda(void *buffers[], void *cl_arg) { update_or_copy_cuda(buffers, cl_arg, false); }
static void trsv_copy_cuda(void *buffers[], void *cl_arg) { update_or_copy_cuda(buffers, cl_arg, true); }
#endif

#ifdef STARPU_USE_OPENCL
static void update_or_copy_opencl(void *buffers[], void *cl_arg, bool copy)
{
  exstar_trsv_update_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_trsv_update", &q);
  cl_int e = exstar_cl_trsv_update(q, k, a.n, copy ? 0 : a.add, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]) + a.offd,
                                   a.incd, exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1]) + a.offx, a.incx);
  exstar_codelet_cl_finish(q, e, "exstar_trsv_update");
}
static void trsv_update_opencl(void *buffers[], void *cl_arg) { update_or_copy_opencl(buffers, cl_arg, false); }
static void trsv_copy_opencl(void *buffers[], void *cl_arg) { update_or_copy_opencl(buffers, cl_arg, true); }
#endif

EXSTAR_CODELET(trsv_update, 2, STARPU_R, STARPU_RW);
EXSTAR_CODELET(trsv_copy, 2, STARPU_R, STARPU_W);
