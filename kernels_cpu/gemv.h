/* exstar CPU kernels of gemv: plain functions on raw pointers, no StarPU inside.
 *
 * Matrices are column-major: a(i, j) = A[offa + i + j*lda]; vectors follow BLAS (n, off, inc)
 * as in kernels_cpu.h. acc is an array of accumulators (EXSTAR_ACC_WORDS words each); offacc
 * counts accumulators, not words. Kernels ADD exact values and leave every accumulator they
 * touched normalized. A call may add at most 2^26 terms to one accumulator (digit headroom);
 * the runtime's blocking stays far below. */
#ifndef EXSTAR_KERNELS_CPU_GEMV_H
#define EXSTAR_KERNELS_CPU_GEMV_H
#include <stdint.h>
#include "core/accumulator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* trans 'N': acc[offacc+i] += Σ_{j<n} α·a(i,j)·x_j for i < m (x has n entries);
 * trans 'T': acc[offacc+j] += Σ_{i<m} α·a(i,j)·x_i for j < n (x has m entries).
 * Every α·a·x is one exact term with the IEEE special-value rules of core/gemv.h. */
void exstar_cpu_gemv_acc(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa,
                         int64_t lda, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc,
                         int64_t offacc);
/* The plain reference of the same (one FPE per output, the general per-term step only). */
void exstar_cpu_gemv_acc_ref(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa,
                             int64_t lda, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc,
                             int64_t offacc);
/* y_i := RN(acc[offacc+i] + β·y_i) for i < n, one rounding; β == 0: y_i is not read. acc is
 * not modified. */
void exstar_cpu_gemv_finish(int64_t n, double beta, double *y, int64_t offy, int64_t incy, const exstar_i64 *acc,
                            int64_t offacc);

/* The whole gemv in one call: y_i := RN(α·Σ_j op(A)_ij·x_j + β·y_i) for every entry (the
 * exstar_dgemv definition; β == 0: y not read), through core/gemm.h's checked fast path, and
 * the exact path (exstar_cpu_gemv_acc, the exact finish) for the entries it declines;
 * exact_only: every entry by the exact path. Returns the number of entries not proven by the
 * fast path. At most 2^26 terms per entry, as exstar_cpu_gemv_acc. */
int64_t exstar_cpu_dgemv(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa, int64_t lda,
                         const double *x, int64_t offx, int64_t incx, double beta, double *y, int64_t offy,
                         int64_t incy, int exact_only);
/* st[offst + i] += sign·Σ_j op(A)_ij·x_j as bounded double-doubles (core/checked_round.h's
 * exstar_bdd, 4 doubles each; init: zeroed first), through the fast sums of core/gemm.h: the
 * GEMM-accumulate state of Level 3 for one column (trsv's off-diagonal blocks). An entry whose
 * sums cannot be bounded (NaN, inf, its scale guess exceeded) gets a NaN bound: its rounding
 * (exstar_bdd_round) declines, and the caller takes the exact path. */
void exstar_cpu_gemv_state_add(char trans, int64_t m, int64_t n, double sign, const double *A, int64_t offa,
                               int64_t lda, const double *x, int64_t offx, int64_t incx, double *st, int64_t offst,
                               int init);

#ifdef __cplusplus
}
#endif
#endif
