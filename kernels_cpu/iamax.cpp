// iamax on the CPU: one pass keeping the winning (key, index) pair (core/iamax.h).
#include "kernels_cpu/level1.h"
#include "core/strides.h"

void exstar_cpu_iamax(int64_t n, const double *x, int64_t offx, int64_t incx, int64_t base,
                      exstar_i64 *state)
{
  const int64_t fx = exstar_first_index(n, offx, incx);
  exstar_i64 key = state[0], idx = state[1];
  for (int64_t i = 0; i < n; ++i) {
    const exstar_i64 k = exstar_iamax_key(x[fx + i * incx]);
    if (exstar_iamax_beats(k, base + i, key, idx)) key = k, idx = base + i;
  }
  state[0] = key;
  state[1] = idx;
}

void exstar_cpu_iamax_init(exstar_i64 *state)
{
  state[0] = EXSTAR_IAMAX_EMPTY;
  state[1] = EXSTAR_IAMAX_EMPTY;
}

void exstar_cpu_iamax_merge(exstar_i64 *dst, const exstar_i64 *src)
{
  if (exstar_iamax_beats(src[0], src[1], dst[0], dst[1])) dst[0] = src[0], dst[1] = src[1];
}
