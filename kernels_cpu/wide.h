/* The hot CPU kernels (sum, dot, gemv accumulation) exist twice: as compiled for the build's
 * CPU baseline (EXSTAR_CPU_ARCH, x86-64-v3 by default) and, where the compiler can, for
 *  AVX-512 (kernels_cpu/wide_<op>.cpp: the same sources under a target pragma, 512-bit
 * vectors). The public entry points pick the wide copy at run time when the CPU has AVX-512
 * and EXSTAR_CPU_ISA is not "baseline". Lanes are independent exact FPEs either way, so the
 * bits never depend on the choice; only the speed does. */
#ifndef EXSTAR_KERNELS_CPU_WIDE_H
#define EXSTAR_KERNELS_CPU_WIDE_H
#include <stdint.h>
#include "core/portable.h" /* exstar_i64; not accumulator.h: the kernels choose their EXSTAR_FPE_N first */

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the wide kernels were compiled in, the CPU runs them, and EXSTAR_CPU_ISA (read once)
 * does not ask for "baseline". */
int exstar_cpu_wide_enabled(void);

void exstar_cpu_sum_wide(int64_t n, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc);
void exstar_cpu_dot_wide(int64_t n, const double *x, int64_t offx, int64_t incx, const double *y, int64_t offy,
                         int64_t incy, exstar_i64 *acc);
void exstar_cpu_gemv_acc_wide(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa,
                              int64_t lda, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc,
                              int64_t offacc);

#ifdef __cplusplus
}
#endif

/* In an entry point of the baseline copy: hand the call to the wide copy when enabled. In the
 * wide copy (EXSTAR_CPU_WIDE) the entry point is the _wide one, and this is empty. */
#if defined(EXSTAR_CPU_WIDE) || !defined(EXSTAR_CPU_HAVE_WIDE)
#define EXSTAR_CPU_TRY_WIDE(call)
#else
#define EXSTAR_CPU_TRY_WIDE(call)                                                              \
  do {                                                                                         \
    if (exstar_cpu_wide_enabled()) {                                                           \
      call;                                                                                    \
      return;                                                                                  \
    }                                                                                          \
  } while (0)
#endif

/* The entry point's name in this copy. */
#ifdef EXSTAR_CPU_WIDE
#define EXSTAR_CPU_ENTRY(name) name##_wide
#else
#define EXSTAR_CPU_ENTRY(name) name
#endif

#endif
