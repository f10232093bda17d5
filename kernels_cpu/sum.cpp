// Exact sum on the CPU: acc += Σ x_i.
#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cpu/acc_cpu.h"
#include "kernels_cpu/wide.h"

namespace {

// EXSTAR_CPU_LANES independent FPEs over interleaved elements; Inc is the stride, or 0 for
// "the runtime stride inc" (unit stride gets its own instantiation so it vectorises loads).
template <int Inc>
void sum_lanes(int64_t n, const double *x, int64_t first, int64_t inc, exstar_i64 *acc)
{
  const int64_t step = Inc ? Inc : inc;
  double fpe[EXSTAR_CPU_LANES][EXSTAR_FPE_N] = {};
  int flags = 0;
  int64_t i = 0;
  for (; i + EXSTAR_CPU_LANES <= n; i += EXSTAR_CPU_LANES)
    for (int l = 0; l < EXSTAR_CPU_LANES; ++l)
      flags |= exstar_sum_step_cpu(acc, fpe[l], x[first + (i + l) * step]);
  for (; i < n; ++i) flags |= exstar_sum_step_cpu(acc, fpe[0], x[first + i * step]);
  for (int l = 0; l < EXSTAR_CPU_LANES; ++l) exstar_acc_flush_fpe_cpu(acc, fpe[l]);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}

} // namespace

void EXSTAR_CPU_ENTRY(exstar_cpu_sum)(int64_t n, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc)
{
  EXSTAR_CPU_TRY_WIDE(exstar_cpu_sum_wide(n, x, offx, incx, acc));
  int64_t first = exstar_first_index(n, offx, incx);
  if (incx == 1)
    sum_lanes<1>(n, x, first, 1, acc);
  else
    sum_lanes<0>(n, x, first, incx, acc);
}

#ifndef EXSTAR_CPU_WIDE
void exstar_cpu_sum_ref(int64_t n, const double *x, int64_t offx, int64_t incx, exstar_i64 *acc)
{
  int64_t first = exstar_first_index(n, offx, incx);
  double fpe[EXSTAR_FPE_N] = {};
  int flags = 0;
  for (int64_t i = 0; i < n; ++i) flags |= exstar_sum_step_cpu(acc, fpe, x[first + i * incx]);
  exstar_acc_flush_fpe_cpu(acc, fpe);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}
#endif
