/* exstar OpenCL launchers of Level 3 (kernels_cl/gemm.cl); conventions of kernels_cl.h
 * (in-order queue, kernels by name from the one program, element offsets, CL_SUCCESS or the
 * OpenCL error code, nothing waits on the host). Same contracts, bit for bit, as
 * kernels_cpu/gemm.h. The kernels are created once per device (exstar_cl_gemm_kernels_create) and
 * must not be used by two threads at once. `counter` (a buffer of one cl_ulong, or NULL) gets the
 * number of entries (rows, for trsm) the exact path computed ADDED to it. */
#ifndef EXSTAR_KERNELS_CL_GEMM_H
#define EXSTAR_KERNELS_CL_GEMM_H
#include "kernels_cl/kernels_cl.h"

#ifdef __cplusplus
extern "C" {
#endif

struct exstar_cl_gemm_kernels; /* opaque: the cl_kernels the launchers below need */
/* Creates the kernels from the built exstar program (NULL and *err set on failure). */
struct exstar_cl_gemm_kernels *exstar_cl_gemm_kernels_create(cl_program prog, cl_int *err);
void exstar_cl_gemm_kernels_release(struct exstar_cl_gemm_kernels *k);

cl_int exstar_cl_dgemm(cl_command_queue q, struct exstar_cl_gemm_kernels *k, char transa, char transb, int64_t m,
                       int64_t n, int64_t kk, double alpha, cl_mem A, int64_t offa, int64_t lda, cl_mem B,
                       int64_t offb, int64_t ldb, double beta, cl_mem C, int64_t offc, int64_t ldc, int exact_only,
                       cl_mem counter);
/* As exstar_cpu_dgemm_tiles: A[l] at element offset offa[l] (leading dimension lda[l]) is tile
 * l of op(A) as stored; the tiles are gathered into strips (buffers of the queue's context)
 * by rectangle copies, then exstar_cl_dgemm. */
cl_int exstar_cl_dgemm_tiles(cl_command_queue q, struct exstar_cl_gemm_kernels *k, char transa, char transb,
                             int64_t m, int64_t n, int64_t kk, int64_t kb, int64_t kt, double alpha, const cl_mem *A,
                             const int64_t *offa, const int64_t *lda, const cl_mem *B, const int64_t *offb,
                             const int64_t *ldb, double beta, cl_mem C, int64_t offc, int64_t ldc, int exact_only);
/* st: exstar_gemm_state_entry (4 doubles: hi, lo, err, mag) in a buffer of doubles; offst and
 * ldst count ENTRIES. */
cl_int exstar_cl_gemm_state_add(cl_command_queue q, struct exstar_cl_gemm_kernels *k, char transa, char transb,
                                int64_t m, int64_t n, int64_t kk, double sign, cl_mem A, int64_t offa, int64_t lda,
                                cl_mem B, int64_t offb, int64_t ldb, cl_mem st, int64_t offst, int64_t ldst);
cl_int exstar_cl_gemm_state_init(cl_command_queue q, struct exstar_cl_gemm_kernels *k, int64_t m, int64_t n,
                                 cl_mem C, int64_t offc, int64_t ldc, cl_mem st, int64_t offst, int64_t ldst);
/* mask: m*n bytes (index i + j*m) or NULL; counter as above (declined entries). */
cl_int exstar_cl_gemm_state_round(cl_command_queue q, struct exstar_cl_gemm_kernels *k, int64_t m, int64_t n,
                                  cl_mem st, int64_t offst, int64_t ldst, cl_mem C, int64_t offc, int64_t ldc,
                                  cl_mem mask, cl_mem counter);
cl_int exstar_cl_dtrsm(cl_command_queue q, struct exstar_cl_gemm_kernels *k, char side, char uplo, char transa,
                       char diag, int64_t m, int64_t n, double alpha, cl_mem T, int64_t offt, int64_t ldt, cl_mem B,
                       int64_t offb, int64_t ldb, int exact_only, cl_mem counter);

#ifdef __cplusplus
}
#endif
#endif
