/* exstar OpenCL launchers of the LU driver's own steps (kernels_cl/lu.cl), same contracts as
 * kernels_cpu/lu.h. Offsets in elements (doubles; int32 for ipiv). Asynchronous on the
 * in-order queue q; CL_SUCCESS or the OpenCL error code. */
#ifndef EXSTAR_KERNELS_CL_LU_H
#define EXSTAR_KERNELS_CL_LU_H
#include "kernels_cl/kernels_cl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* k: "exstar_lu_pivot" (one work-group of 256). */
cl_int exstar_cl_lu_pivot(cl_command_queue q, cl_kernel k, int64_t m, int64_t j, cl_mem a, int64_t offa,
                          int64_t lda, cl_mem ipiv, int64_t offipiv);
/* k_trsv: "exstar_lu_plain_trsv", k_gemv: "exstar_lu_plain_gemv". */
cl_int exstar_cl_lu_plain_column(cl_command_queue q, cl_kernel k_trsv, cl_kernel k_gemv, int64_t m, int64_t j,
                                 cl_mem a, int64_t offa, int64_t lda);

/* k: "exstar_lu_plain_getrs" (one work-item per right-hand side). */
cl_int exstar_cl_lu_plain_getrs(cl_command_queue q, cl_kernel k, int64_t n, int64_t nrhs, cl_mem lu, int64_t offlu,
                                int64_t ldlu, cl_mem ipiv, int64_t offipiv, cl_mem b, int64_t offb, int64_t ldb);

#ifdef __cplusplus
}
#endif
#endif
