// Codelet of LU's triangular solve on column j, one diagonal block of rows [r0, r0+rlen)
// (RW A, R accs): u(r,j) := RN(acc_r + a(r,j) − Σ_{r0<=k<r} l(r,k)·u(k,j)) in increasing r,
// acc_r holding the exact −Σ over the earlier blocks. The exact trsv kernels, with the unit
// lower block of L and the column both inside A.
#include "codelets/lu_glue.h"
#include "kernels_cpu/trsv.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/trsv.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/trsv.h"
#endif

// The unit lower diagonal block L(r0.., r0..) of A (base: A's offset in its buffer).
static exstar_trsv_shape lu_block(void *abuf, const exstar_lu_args &a, int64_t base)
{
  exstar_trsv_shape s;
  s.forward = 1, s.trans = 0, s.unit = 1;
  s.nb = a.rlen;
  s.ldt = exstar_lu_ld(abuf);
  s.t0 = base + a.r0 + a.r0 * s.ldt;
  return s;
}

static void lu_trsv_cpu(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const exstar_trsv_shape s = lu_block(buffers[0], a, 0);
  double *A = exstar_lu_mat_ptr(buffers[0]);
  exstar_cpu_trsv_solve(&s, A, exstar_acc_ptr(buffers[1]) + a.r0 * EXSTAR_ACC_WORDS, A, a.r0 + a.j * s.ldt, 1);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_trsv_cuda(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const exstar_trsv_shape s = lu_block(buffers[0], a, 0);
  double *A = exstar_lu_mat_ptr(buffers[0]);
  exstar_codelet_cuda_check(exstar_cuda_trsv_solve(&s, A, exstar_acc_ptr(buffers[1]) + a.r0 * EXSTAR_ACC_WORDS, A,
                                                   a.r0 + a.j * s.ldt, 1, starpu_cuda_get_local_stream()),
                            "exstar_lu_trsv");
}
#endif

#ifdef STARPU_USE_OPENCL
static void lu_trsv_opencl(void *buffers[], void *cl_arg)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const int64_t base = exstar_lu_mat_off(buffers[0]);
  const exstar_trsv_shape s = lu_block(buffers[0], a, base);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_trsv_solve", &q);
  cl_mem A = exstar_lu_mat_mem(buffers[0]);
  cl_int e = exstar_cl_trsv_solve(q, k, &s, A, exstar_vec_mem(buffers[1]),
                                  (cl_ulong)(exstar_vec_off(buffers[1]) + a.r0 * EXSTAR_ACC_WORDS), A,
                                  base + a.r0 + a.j * s.ldt, 1);
  exstar_codelet_cl_finish(q, e, "exstar_lu_trsv");
}
#endif

EXSTAR_LU_CODELET(lu_trsv, 2, STARPU_RW, STARPU_R);
