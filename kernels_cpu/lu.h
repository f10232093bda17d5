/* exstar CPU kernels of the LU driver's own steps (the rest of LU is the Level 1, gemv and trsv
 * kernels). Plain functions on raw pointers, no StarPU inside. The matrix is column-major:
 * element (r, c), 0-based, at a[offa + r + c*lda]; it has m rows. ipiv holds LAPACK's 1-based
 * int32 pivots, ipiv[offipiv + j] for column j. */
#ifndef EXSTAR_KERNELS_CPU_LU_H
#define EXSTAR_KERNELS_CPU_LU_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The pivot step of column j < m: p := the first i in [j, m) of the largest |a(i, j)| (a NaN
 * counts as larger than every number: the first NaN wins, core/iamax.h); ipiv[offipiv + j] :=
 * p + 1; rows j and p are interchanged in columns 0..j. */
void exstar_cpu_lu_pivot(int64_t m, int64_t j, double *a, int64_t offa, int64_t lda, int32_t *ipiv,
                         int64_t offipiv);

/* The plain-double (NOT reproducible, NOT exact) update of column j, the baseline of the
 * exact driver: rows i < min(j, m) by forward substitution with the unit lower L, then rows
 * i in [j, m): a(i,j) -= Σ_{k<kend} a(i,k)·a(k,j), each product and difference rounded in
 * double, k increasing (kend = i for the substitution, j below). */
void exstar_cpu_lu_plain_column(int64_t m, int64_t j, double *a, int64_t offa, int64_t lda);

/* The plain-double (NOT exact) solve A·X = B with the factors of a plain or exact LU (n x n,
 * element (r, c) of LU at lu[offlu + r + c*ldlu]): for each of the nrhs columns of B (element
 * (r, c) at b[offb + r + c*ldb]): the interchanges ipiv[offipiv + 0..n-1], then the unit lower
 * and the upper substitutions, every operation rounded in double. */
void exstar_cpu_lu_plain_getrs(int64_t n, int64_t nrhs, const double *lu, int64_t offlu, int64_t ldlu,
                               const int32_t *ipiv, int64_t offipiv, double *b, int64_t offb, int64_t ldb);

#ifdef __cplusplus
}
#endif
#endif
