// Accumulator housekeeping on the CPU: zero, exact merge, rounding (and of the square root).
#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/sqrt.h"

void exstar_cpu_acc_zero(exstar_i64 *acc, int64_t count)
{
  for (int64_t i = 0; i < count * EXSTAR_ACC_WORDS; ++i) acc[i] = 0;
}

void exstar_cpu_acc_merge(exstar_i64 *dst, const exstar_i64 *src, int64_t count)
{
  for (int64_t k = 0; k < count; ++k, dst += EXSTAR_ACC_WORDS, src += EXSTAR_ACC_WORDS) {
    for (int i = 0; i < EXSTAR_ACC_WORDS; ++i) dst[i] += src[i];
    exstar_acc_normalize_cpu(dst);
  }
}

double exstar_cpu_acc_round(const exstar_i64 *acc)
{
  exstar_i64 copy[EXSTAR_ACC_WORDS];
  for (int i = 0; i < EXSTAR_ACC_WORDS; ++i) copy[i] = acc[i];
  return exstar_acc_round_private(copy);
}

double exstar_cpu_acc_round_sqrt(const exstar_i64 *acc)
{
  exstar_i64 work[EXSTAR_ACC_WORDS];
  return exstar_acc_round_sqrt_private(acc, work);
}
