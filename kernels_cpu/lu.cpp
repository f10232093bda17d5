// CPU kernels of the LU driver's own steps: the pivot (iamax order of core/iamax.h, then the
// row interchange with the Level 1 swap) and the plain-double column update of the baseline.
#include "kernels_cpu/lu.h"
#include "kernels_cpu/level1.h"

extern "C" void exstar_cpu_lu_pivot(int64_t m, int64_t j, double *a, int64_t offa, int64_t lda, int32_t *ipiv,
                                    int64_t offipiv)
{
  exstar_i64 state[EXSTAR_IAMAX_WORDS];
  exstar_cpu_iamax_init(state);
  exstar_cpu_iamax(m - j, a, offa + j + j * lda, 1, j, state);
  const int64_t p = state[1];
  ipiv[offipiv + j] = (int32_t)(p + 1);
  if (p != j) exstar_cpu_swap(j + 1, a, offa + j, lda, a, offa + p, lda);
}

// a(i,j) -= Σ_{k<kend} a(i,k)·a(k,j), in double.
static double plain_row(const double *a, int64_t offa, int64_t lda, int64_t i, int64_t j, int64_t kend)
{
  double s = a[offa + i + j * lda];
  for (int64_t k = 0; k < kend; ++k) s -= a[offa + i + k * lda] * a[offa + k + j * lda];
  return s;
}

extern "C" void exstar_cpu_lu_plain_column(int64_t m, int64_t j, double *a, int64_t offa, int64_t lda)
{
  const int64_t utop = j < m ? j : m;
  for (int64_t i = 0; i < utop; ++i) a[offa + i + j * lda] = plain_row(a, offa, lda, i, j, i);
  for (int64_t i = j; i < m; ++i) a[offa + i + j * lda] = plain_row(a, offa, lda, i, j, j);
}

extern "C" void exstar_cpu_lu_plain_getrs(int64_t n, int64_t nrhs, const double *lu, int64_t offlu, int64_t ldlu,
                                          const int32_t *ipiv, int64_t offipiv, double *b, int64_t offb, int64_t ldb)
{
  for (int64_t c = 0; c < nrhs; ++c) {
    double *x = b + offb + c * ldb;
    const double *t = lu + offlu;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t p = ipiv[offipiv + k] - 1;
      if (p != k && p >= 0 && p < n) {
        const double s = x[k];
        x[k] = x[p];
        x[p] = s;
      }
    }
    for (int64_t i = 0; i < n; ++i) {
      double s = x[i];
      for (int64_t k = 0; k < i; ++k) s -= t[i + k * ldlu] * x[k];
      x[i] = s;
    }
    for (int64_t i = n - 1; i >= 0; --i) {
      double s = x[i];
      for (int64_t k = i + 1; k < n; ++k) s -= t[i + k * ldlu] * x[k];
      x[i] = s / t[i + i * ldlu];
    }
  }
}
