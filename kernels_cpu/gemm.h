/* exstar CPU kernels of Level 3 (gemm, the GEMM-accumulate state, trsm): plain functions on
 * raw pointers, no StarPU inside. Column-major, BLAS arguments, offsets not sub-pointers:
 * op(A)(i, l) is A[offa + i + l*lda] ('N') or A[offa + l + i*lda] ('T'/'C').
 *
 * Every entry takes core/gemm.h's fast path, which proves its rounding or declines; declined
 * entries are recomputed exactly (core/gemm.inc). exact_only != 0 sends every entry to the
 * exact path (tests prove both paths give the same bits). The kernels return how many entries
 * the exact path computed. */
#ifndef EXSTAR_KERNELS_CPU_GEMM_H
#define EXSTAR_KERNELS_CPU_GEMM_H
#include <stdint.h>
#include "core/portable.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The state of one entry of a GEMM-accumulate: a bounded double-double (core/checked_round.h,
 * exstar_bdd: hi, lo, err, mag), 32 bytes. */
struct exstar_gemm_state_entry {
  double hi, lo, err, mag;
};

/* C(i,j) := RN(Σ_l α·op(A)_il·op(B)_lj + β·C(i,j)) for i < m, j < n (gemv's definition, entry
 * by entry: every α·a·b and β·c an exact term; β == 0: C not read). */
int64_t exstar_cpu_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double *A,
                         int64_t offa, int64_t lda, const double *B, int64_t offb, int64_t ldb, double beta, double *C,
                         int64_t offc, int64_t ldc, int exact_only);

/* exstar_cpu_dgemm on operands given as tiles along the k terms (a tiled matrix's tile row of
 * op(A) and tile column of op(B), core/strides.h's strips): A[l] (leading dimension lda[l]) is
 * tile l of op(A) as stored, holding terms [l kb, min(k, (l + 1) kb)), l < kt; B likewise. The
 * tiles are gathered into one strip each (none when kt == 1), so every entry is exstar_cpu_dgemm's,
 * the same bits. k == 0: A and B are not read (kt 0). */
int64_t exstar_cpu_dgemm_tiles(char transa, char transb, int64_t m, int64_t n, int64_t k, int64_t kb, int64_t kt,
                               double alpha, const double *const *A, const int64_t *lda, const double *const *B,
                               const int64_t *ldb, double beta, double *C, int64_t ldc, int exact_only);

/* st(i,j) += sign·Σ_l op(A)_il·op(B)_lj (sign ±1), within the state's bound. st(i,j) is
 * st[offst + i + j*ldst]. uplo 'L': only the entries i >= j (the others are left as they are,
 * and their products mostly not computed); 0 or anything else: all. */
void exstar_cpu_gemm_state_add(char transa, char transb, int64_t m, int64_t n, int64_t k, double sign,
                               const double *A, int64_t offa, int64_t lda, const double *B, int64_t offb, int64_t ldb,
                               struct exstar_gemm_state_entry *st, int64_t offst, int64_t ldst, char uplo);
/* st(i,j) := C(i,j), one exact term. */
void exstar_cpu_gemm_state_init(int64_t m, int64_t n, const double *C, int64_t offc, int64_t ldc,
                                struct exstar_gemm_state_entry *st, int64_t offst, int64_t ldst);
/* C(i,j) := RN(st(i,j)) where provable; returns the number of entries it could NOT round
 * (their C is left unchanged and mask[i + j*m] set to 1; mask may be NULL). */
int64_t exstar_cpu_gemm_state_round(int64_t m, int64_t n, const struct exstar_gemm_state_entry *st, int64_t offst,
                                    int64_t ldst, double *C, int64_t offc, int64_t ldc, unsigned char *mask);

/* trsm: side 'L': op(T)·X = α·B, T m x m; side 'R': X·op(T) = α·B, T n x n; X overwrites B.
 * Every column (side L) or row (side R) of X is what exstar_dtrsv computes for it from α·b:
 *   x_i := RN( RN(α·b_i − Σ_j op_e(T)_ij·x_j) / op_e(T)_ii )   (no division for diag 'U'),
 * in substitution order, α·b_i and each −t·x one exact term; op_e = op (side L) or its
 * transpose (side R). α == 0: X := +0 (B and T not read). */
int64_t exstar_cpu_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                         const double *T, int64_t offt, int64_t ldt, double *B, int64_t offb, int64_t ldb,
                         int exact_only);

#ifdef __cplusplus
}
#endif
#endif
