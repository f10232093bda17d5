// x_i <-> y_i on the CPU.
#include "kernels_cpu/level1.h"
#include "core/strides.h"

void exstar_cpu_swap(int64_t n, double *x, int64_t offx, int64_t incx, double *y, int64_t offy,
                     int64_t incy)
{
  const int64_t fx = exstar_first_index(n, offx, incx), fy = exstar_first_index(n, offy, incy);
  for (int64_t i = 0; i < n; ++i) {
    double t = x[fx + i * incx];
    x[fx + i * incx] = y[fy + i * incy];
    y[fy + i * incy] = t;
  }
}
