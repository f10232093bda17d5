// Exact dot product on the CPU: acc += Σ x_i·y_i.
#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cpu/acc_cpu.h"

namespace {

// As sum_lanes: independent FPEs per lane; unit strides get their own instantiation.
template <bool Unit>
void dot_lanes(int64_t n, const double *x, int64_t fx, int64_t incx, const double *y,
               int64_t fy, int64_t incy, exstar_i64 *acc)
{
  const int64_t sx = Unit ? 1 : incx, sy = Unit ? 1 : incy;
  double fpe[EXSTAR_CPU_LANES][EXSTAR_FPE_N] = {};
  int flags = 0;
  int64_t i = 0;
  for (; i + EXSTAR_CPU_LANES <= n; i += EXSTAR_CPU_LANES)
    for (int l = 0; l < EXSTAR_CPU_LANES; ++l)
      flags |= exstar_dot_step_cpu(acc, fpe[l], x[fx + (i + l) * sx], y[fy + (i + l) * sy]);
  for (; i < n; ++i) flags |= exstar_dot_step_cpu(acc, fpe[0], x[fx + i * sx], y[fy + i * sy]);
  for (int l = 0; l < EXSTAR_CPU_LANES; ++l) exstar_acc_flush_fpe_cpu(acc, fpe[l]);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}

} // namespace

void exstar_cpu_dot(int64_t n, const double *x, int64_t offx, int64_t incx,
                    const double *y, int64_t offy, int64_t incy, exstar_i64 *acc)
{
  int64_t fx = exstar_first_index(n, offx, incx), fy = exstar_first_index(n, offy, incy);
  if (incx == 1 && incy == 1)
    dot_lanes<true>(n, x, fx, 1, y, fy, 1, acc);
  else
    dot_lanes<false>(n, x, fx, incx, y, fy, incy, acc);
}

void exstar_cpu_dot_ref(int64_t n, const double *x, int64_t offx, int64_t incx,
                        const double *y, int64_t offy, int64_t incy, exstar_i64 *acc)
{
  int64_t fx = exstar_first_index(n, offx, incx), fy = exstar_first_index(n, offy, incy);
  double fpe[EXSTAR_FPE_N] = {};
  int flags = 0;
  for (int64_t i = 0; i < n; ++i)
    flags |= exstar_dot_step_cpu(acc, fpe, x[fx + i * incx], y[fy + i * incy]);
  exstar_acc_flush_fpe_cpu(acc, fpe);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}
