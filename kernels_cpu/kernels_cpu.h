/* exstar CPU kernels: plain functions on raw pointers, no StarPU inside.
 *
 * Accumulators are arrays of EXSTAR_ACC_WORDS exstar_i64 (core/accumulator.h). Kernels ADD
 * the exact value of their reduction into acc and leave it normalized (every digit but the
 * top one in [0, 2^32)), so that accumulators can be merged many times without overflow.
 * Vectors follow BLAS (n, x, offx, incx): element i is x[first + i*incx], first from
 * exstar_first_index; offsets, never sub-pointers. */
#ifndef EXSTAR_KERNELS_CPU_H
#define EXSTAR_KERNELS_CPU_H
#include <stdint.h>
#include "core/accumulator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arrays of `count` accumulators (one per row for gemv and trsv; count 1 for sum and dot). */
void exstar_cpu_acc_zero(exstar_i64 *acc, int64_t count);
/* dst[k] += src[k] for each of the count accumulators, then dst normalized. */
void exstar_cpu_acc_merge(exstar_i64 *dst, const exstar_i64 *src, int64_t count);
/* RN of the exact value held (acc is not modified). */
double exstar_cpu_acc_round(const exstar_i64 *acc);
/* RN(sqrt(value of acc)), correctly rounded (core/sqrt.h); acc is only read. */
double exstar_cpu_acc_round_sqrt(const exstar_i64 *acc);

/* acc += Σ x_i exactly. */
void exstar_cpu_sum(int64_t n, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc);
/* acc += Σ x_i·y_i exactly. */
void exstar_cpu_dot(int64_t n, const double *x, int64_t offx, int64_t incx,
                    const double *y, int64_t offy, int64_t incy, exstar_i64 *acc);

/* The simple one-FPE scalar reference paths, kept beside the fast ones; tests compare them. */
void exstar_cpu_sum_ref(int64_t n, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc);
void exstar_cpu_dot_ref(int64_t n, const double *x, int64_t offx, int64_t incx,
                        const double *y, int64_t offy, int64_t incy, exstar_i64 *acc);

#ifdef __cplusplus
}
#endif
#endif
