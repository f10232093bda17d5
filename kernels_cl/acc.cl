/* exstar OpenCL: accumulator housekeeping (zero, merge, normalize, round).
 * Accumulators are EXSTAR_ACC_WORDS longs at word offset off of a buffer. */
#include "kernels_cl/acc_cl.clh"
#include "core/sqrt.h"

/* One work-item per word of an array of accumulators. */
__kernel void exstar_acc_zero(__global exstar_i64 *acc, ulong off, ulong words)
{
  size_t i = get_global_id(0);
  if (i < words) acc[off + i] = 0;
}

/* One work-item per accumulator of the arrays: dst += src, then dst normalized. */
__kernel void exstar_acc_merge(__global exstar_i64 *dst, ulong dst_off,
                               __global const exstar_i64 *src, ulong src_off, ulong count)
{
  size_t k = get_global_id(0);
  if (k >= count) return;
  __global exstar_i64 *d = dst + dst_off + k * EXSTAR_ACC_WORDS;
  __global const exstar_i64 *s = src + src_off + k * EXSTAR_ACC_WORDS;
  for (int i = 0; i < EXSTAR_ACC_WORDS; ++i) d[i] += s[i];
  exstar_acc_normalize_global(d);
}

/* One work-item: canonical form (carries propagated, special counters 0/1). */
__kernel void exstar_acc_normalize(__global exstar_i64 *acc, ulong off)
{
  if (get_global_id(0) == 0) exstar_acc_normalize_global(acc + off);
}

/* One work-item: result[result_off] = RN(acc); acc is not modified. */
__kernel void exstar_acc_round(__global const exstar_i64 *acc, ulong off,
                               __global double *result, ulong result_off)
{
  if (get_global_id(0) != 0) return;
  exstar_i64 copy[EXSTAR_ACC_WORDS];
  for (int i = 0; i < EXSTAR_ACC_WORDS; ++i) copy[i] = acc[off + i];
  result[result_off] = exstar_acc_round_private(copy);
}

/* One work-item: result[result_off] = RN(sqrt(acc)) (core/sqrt.h); acc is not modified. */
__kernel void exstar_acc_round_sqrt(__global const exstar_i64 *acc, ulong off,
                                    __global double *result, ulong result_off)
{
  if (get_global_id(0) != 0) return;
  exstar_i64 copy[EXSTAR_ACC_WORDS], work[EXSTAR_ACC_WORDS];
  for (int i = 0; i < EXSTAR_ACC_WORDS; ++i) copy[i] = acc[off + i];
  result[result_off] = exstar_acc_round_sqrt_private(copy, work);
}
