/* exstar OpenCL launchers of gemv (kernels_cl/gemv.cl); conventions of kernels_cl.h.
 * Matrices column-major: a(i, j) at element offa + i + j*lda of A; vectors (off, inc) BLAS;
 * acc_off: the first accumulator's offset in 64-bit WORDS (accumulator k follows at
 * acc_off + k*EXSTAR_ACC_WORDS). */
#ifndef EXSTAR_KERNELS_CL_GEMV_H
#define EXSTAR_KERNELS_CL_GEMV_H
#include "kernels_cl/kernels_cl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* As exstar_cpu_gemv_acc. k: "exstar_gemv_n" for trans 'N', "exstar_gemv_t" for 'T';
 * k_norm: "exstar_gemv_normalize". */
cl_int exstar_cl_gemv_acc(cl_command_queue q, cl_kernel k, cl_kernel k_norm, char trans, int64_t m, int64_t n,
                          double alpha, cl_mem A, int64_t offa, int64_t lda, cl_mem x, int64_t offx,
                          int64_t incx, cl_mem acc, cl_ulong acc_off);
/* As exstar_cpu_gemv_finish. k: "exstar_gemv_finish". */
cl_int exstar_cl_gemv_finish(cl_command_queue q, cl_kernel k, int64_t n, double beta, cl_mem y, int64_t offy,
                             int64_t incy, cl_mem acc, cl_ulong acc_off);

#ifdef __cplusplus
}
#endif
#endif
