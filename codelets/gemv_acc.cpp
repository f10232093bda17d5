// Codelets of gemv's exact accumulation: accs (REDUX, or RW for a single contributor) +=
// α·op(A block)·x, one accumulator per output entry (exstar_gemv_acc_args).
#include "codelets/glue.h"
#include "kernels_cpu/gemv.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/gemv.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/gemv.h"
#endif

// Element offset of a(ia, ja) in the matrix buffer (its ld from the handle).
static int64_t block_offset(void *buf, const exstar_gemv_acc_args *a)
{
  return a->ia + a->ja * (int64_t)STARPU_MATRIX_GET_LD(buf);
}

static void gemv_acc_cpu(void *buffers[], void *cl_arg)
{
  exstar_gemv_acc_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_gemv_acc(a.trans, a.m, a.n, a.alpha, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                      block_offset(buffers[0], &a), (int64_t)STARPU_MATRIX_GET_LD(buffers[0]),
                      exstar_vec_ptr(buffers[1]), a.offx, a.incx, exstar_acc_ptr(buffers[2]), a.offacc);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void gemv_acc_cuda(void *buffers[], void *cl_arg)
{
  exstar_gemv_acc_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(
      exstar_cuda_gemv_acc(a.trans, a.m, a.n, a.alpha, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                           block_offset(buffers[0], &a), (int64_t)STARPU_MATRIX_GET_LD(buffers[0]),
                           exstar_vec_ptr(buffers[1]), a.offx, a.incx, exstar_acc_ptr(buffers[2]), a.offacc,
                           starpu_cuda_get_local_stream()),
      "exstar_gemv_acc");
}
#endif

#ifdef STARPU_USE_OPENCL
static void gemv_acc_opencl(void *buffers[], void *cl_arg)
{
  exstar_gemv_acc_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const bool notrans = a.trans == 'N' || a.trans == 'n';
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel(notrans ? "exstar_gemv_n" : "exstar_gemv_t", &q);
  cl_kernel norm = exstar_codelet_cl_kernel("exstar_gemv_normalize", &q);
  const int64_t offA = (int64_t)(STARPU_MATRIX_GET_OFFSET(buffers[0]) / sizeof(double));
  cl_int e = exstar_cl_gemv_acc(q, k, norm, a.trans, a.m, a.n, a.alpha,
                                (cl_mem)STARPU_MATRIX_GET_DEV_HANDLE(buffers[0]),
                                offA + block_offset(buffers[0], &a), (int64_t)STARPU_MATRIX_GET_LD(buffers[0]),
                                exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1]) + a.offx, a.incx,
                                exstar_vec_mem(buffers[2]),
                                (cl_ulong)(exstar_vec_off(buffers[2]) + a.offacc * EXSTAR_ACC_WORDS));
  exstar_codelet_cl_finish(q, e, "exstar_gemv_acc");
}
#endif

EXSTAR_CODELET(gemv_acc, 3, STARPU_R, STARPU_R, STARPU_REDUX);
// The same for accumulators that one task alone adds to (gemv with one inner block, a trsv
// block row on one worker): RW, no per-worker copies to zero and reduce.
EXSTAR_CODELET_OF(gemv_acc_rw, gemv_acc, NULL, 3, STARPU_R, STARPU_R, STARPU_RW);
