/* exstar OpenCL launchers of Level 1 (scal, invscal, axpy, swap, laswp, iamax), on a caller's
 * in-order queue, no StarPU inside. Same contracts as kernels_cpu/level1.h; buffers are cl_mem
 * with offsets in elements (doubles; int32 for ipiv; 64-bit words for iamax states). Each
 * launcher takes the kernels named in its comment ("exstar_<name>" in the program), enqueues
 * asynchronously and returns CL_SUCCESS or the OpenCL error code. */
#ifndef EXSTAR_KERNELS_CL_LEVEL1_H
#define EXSTAR_KERNELS_CL_LEVEL1_H
#include "kernels_cl/kernels_cl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* k: "exstar_scal" */
cl_int exstar_cl_scal(cl_command_queue q, cl_kernel k, int64_t n, double alpha, cl_mem x, int64_t offx,
                      int64_t incx);
/* k: "exstar_invscal" */
cl_int exstar_cl_invscal(cl_command_queue q, cl_kernel k, int64_t n, double alpha, cl_mem x, int64_t offx,
                         int64_t incx);
/* k: "exstar_invscal_mem": the divisor is a[aoff] on the device; skip_zero != 0: a zero divisor
 * leaves x unchanged. */
cl_int exstar_cl_invscal_mem(cl_command_queue q, cl_kernel k, int64_t n, cl_mem a, int64_t aoff,
                             int skip_zero, cl_mem x, int64_t offx, int64_t incx);
/* k: "exstar_axpy" */
cl_int exstar_cl_axpy(cl_command_queue q, cl_kernel k, int64_t n, double alpha, cl_mem x, int64_t offx,
                      int64_t incx, cl_mem y, int64_t offy, int64_t incy);
/* k: "exstar_swap" */
cl_int exstar_cl_swap(cl_command_queue q, cl_kernel k, int64_t n, cl_mem x, int64_t offx, int64_t incx,
                      cl_mem y, int64_t offy, int64_t incy);
/* k: "exstar_laswp"; ipiv holds int32 */
cl_int exstar_cl_laswp(cl_command_queue q, cl_kernel k, int64_t n, cl_mem a, int64_t offa, int64_t lda,
                       int64_t nrows, int64_t k1, int64_t k2, cl_mem ipiv, int64_t offipiv, int64_t incx);
/* k_part: "exstar_iamax_part", k_combine: "exstar_iamax_combine"; state: 2 words at soff. Uses
 * a temporary buffer of one pair per work-group. */
cl_int exstar_cl_iamax(cl_command_queue q, cl_kernel k_part, cl_kernel k_combine, int64_t n, cl_mem x,
                       int64_t offx, int64_t incx, int64_t base, cl_mem state, int64_t soff);
/* k: "exstar_iamax_init" */
cl_int exstar_cl_iamax_init(cl_command_queue q, cl_kernel k, cl_mem state, int64_t soff);
/* k_combine: "exstar_iamax_combine"; dst := winner of dst and src */
cl_int exstar_cl_iamax_merge(cl_command_queue q, cl_kernel k_combine, cl_mem dst, int64_t doff, cl_mem src,
                             int64_t soff);
/* k: "exstar_iamax_index": out[ooff] (int64) := the state's index */
cl_int exstar_cl_iamax_index(cl_command_queue q, cl_kernel k, cl_mem state, int64_t soff, cl_mem out,
                             int64_t ooff);
/* k: "exstar_iamax_ipiv": ipiv[ooff] (int32) := the state's index + base */
cl_int exstar_cl_iamax_ipiv(cl_command_queue q, cl_kernel k, cl_mem state, int64_t soff, cl_mem ipiv,
                            int64_t ooff, int64_t base);

#ifdef __cplusplus
}
#endif
#endif
