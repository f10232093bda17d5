// LAPACK dlaswp row interchanges on the CPU. Columns are independent; within a column the
// interchanges are applied in LAPACK's order (they do not commute).
#include "kernels_cpu/level1.h"

void exstar_cpu_laswp(int64_t n, double *a, int64_t offa, int64_t lda, int64_t nrows, int64_t k1,
                      int64_t k2, const int32_t *ipiv, int64_t offipiv, int64_t incx)
{
  if (incx == 0 || k2 < k1) return;
  // LAPACK: incx > 0 walks k = k1..k2 from IX = k1; incx < 0 walks k = k2..k1 from
  // IX = k1 + (k1 - k2)*incx.
  const int64_t kfirst = incx > 0 ? k1 : k2, kstep = incx > 0 ? 1 : -1;
  const int64_t ix0 = incx > 0 ? k1 : k1 + (k1 - k2) * incx;
  for (int64_t c = 0; c < n; ++c) {
    double *col = a + offa + c * lda;
    int64_t ix = ix0;
    for (int64_t t = 0, k = kfirst; t <= k2 - k1; ++t, k += kstep, ix += incx) {
      const int64_t p = ipiv[offipiv + ix - 1];
      if (p == k || p < 1 || p > nrows || k > nrows) continue;
      double tmp = col[k - 1];
      col[k - 1] = col[p - 1];
      col[p - 1] = tmp;
    }
  }
}
