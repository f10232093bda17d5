/* exstar CUDA launchers of Level 3 (kernels_cuda/gemm.cu, trsm.cu); conventions of
 * kernels_cuda.h (device pointers, asynchronous on `stream`, 0 or a negative cudaError_t code,
 * never a host synchronization). Same contracts, bit for bit, as kernels_cpu/gemm.h:
 * op(A)(i, l) = A[offa + i + l*lda] ('N') or A[offa + l + i*lda] ('T'/'C'). Every entry takes
 * a fast path that proves its rounding or declines: core/gemm.h's FP64 sums, or for large
 * products the integer path on the int8 tensor cores (core/crt.h, gemm_crt.cu;
 * EXSTAR_CUDA_GEMM_CRT); what its check declines is recomputed exactly (core/gemm.inc) by a
 * second kernel over a device-side list, so the bits never depend on the path. exact_only != 0
 * sends every entry to the exact path. `repaired`, when not NULL, is a DEVICE counter that the
 * launch ADDS the number of exactly computed entries to. */
#ifndef EXSTAR_KERNELS_CUDA_GEMM_H
#define EXSTAR_KERNELS_CUDA_GEMM_H
#include <stdint.h>
#include "kernels_cuda/kernels_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether exstar_cuda_gemm_state_add takes the integer path for products that fill the GPU
 * (default off; EXSTAR_CUDA_GEMM_CRT overrides: 0 never, 1 always, 2 on default-priority
 * streams only). Never changes the bits. */
void exstar_cuda_set_state_integer_path(int on);
/* As exstar_cpu_dgemm. */
int exstar_cuda_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double *A,
                      int64_t offa, int64_t lda, const double *B, int64_t offb, int64_t ldb, double beta, double *C,
                      int64_t offc, int64_t ldc, int exact_only, unsigned long long *repaired,
                      exstar_cuda_stream stream);
/* As exstar_cpu_dgemm_tiles (A[l], B[l]: device pointers to the tiles; the pointer and ld arrays
 * themselves on the host): the tiles gathered into stream-ordered strips, then exstar_cuda_dgemm. */
int exstar_cuda_dgemm_tiles(char transa, char transb, int64_t m, int64_t n, int64_t k, int64_t kb, int64_t kt,
                            double alpha, const double *const *A, const int64_t *lda, const double *const *B,
                            const int64_t *ldb, double beta, double *C, int64_t ldc, int exact_only,
                            unsigned long long *repaired, exstar_cuda_stream stream);
/* As exstar_cpu_gemm_state_add / _init / _round; st points to exstar_gemm_state_entry
 * (32 bytes: hi, lo, err, mag), st(i,j) = st[offst + i + j*ldst]. mask (device, m*n bytes,
 * index i + j*m) and declined (device counter, added to) may be NULL. */
int exstar_cuda_gemm_state_add(char transa, char transb, int64_t m, int64_t n, int64_t k, double sign,
                               const double *A, int64_t offa, int64_t lda, const double *B, int64_t offb,
                               int64_t ldb, void *st, int64_t offst, int64_t ldst, exstar_cuda_stream stream);
int exstar_cuda_gemm_state_init(int64_t m, int64_t n, const double *C, int64_t offc, int64_t ldc, void *st,
                                int64_t offst, int64_t ldst, exstar_cuda_stream stream);
int exstar_cuda_gemm_state_round(int64_t m, int64_t n, const void *st, int64_t offst, int64_t ldst, double *C,
                                 int64_t offc, int64_t ldc, unsigned char *mask, unsigned long long *declined,
                                 exstar_cuda_stream stream);
/* As exstar_cpu_dtrsm. */
int exstar_cuda_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                      const double *T, int64_t offt, int64_t ldt, double *B, int64_t offb, int64_t ldb,
                      int exact_only, unsigned long long *repaired, exstar_cuda_stream stream);

#ifdef __cplusplus
}
#endif
#endif
