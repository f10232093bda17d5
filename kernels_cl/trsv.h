/* exstar OpenCL launchers of trsv (kernels in kernels_cl/trsv.cl), same contracts as
 * kernels_cpu/trsv.h. Kernels by name: k_solve "exstar_trsv_solve", k_resid
 * "exstar_trsv_resid", k_update "exstar_trsv_update". t0, ldt and vector offsets in doubles;
 * acc_off in 64-bit words. Asynchronous on the in-order queue q; CL_SUCCESS or the error. */
#ifndef EXSTAR_KERNELS_CL_TRSV_H
#define EXSTAR_KERNELS_CL_TRSV_H
#include "kernels_cl/kernels_cl.h"
#include "core/trsv.h" /* exstar_trsv_shape (plain data) */

#ifdef __cplusplus
extern "C" {
#endif

cl_int exstar_cl_trsv_solve(cl_command_queue q, cl_kernel k_solve, const exstar_trsv_shape *s, cl_mem t,
                            cl_mem accs, cl_ulong acc_off, cl_mem y, int64_t offy, int64_t incy);
cl_int exstar_cl_trsv_resid(cl_command_queue q, cl_kernel k_resid, const exstar_trsv_shape *s, cl_mem t,
                            cl_mem accs, cl_ulong acc_off, cl_mem x, int64_t offx, int64_t incx, cl_mem b,
                            int64_t offb, int64_t incb, cl_mem r, int64_t offr, int64_t incr);
cl_int exstar_cl_trsv_update(cl_command_queue q, cl_kernel k_update, int64_t n, int add, cl_mem d,
                             int64_t offd, int64_t incd, cl_mem x, int64_t offx, int64_t incx);

#ifdef __cplusplus
}
#endif
#endif
