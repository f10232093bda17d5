// x_i := RN(alpha * x_i) on the CPU.
#include "kernels_cpu/level1.h"
#include "core/strides.h"

void exstar_cpu_scal(int64_t n, double alpha, double *x, int64_t offx, int64_t incx)
{
  const int64_t fx = exstar_first_index(n, offx, incx);
  for (int64_t i = 0; i < n; ++i) x[fx + i * incx] = alpha * x[fx + i * incx];
}
