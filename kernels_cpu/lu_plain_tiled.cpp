// The plain-double tiled LU's CPU kernels (the baseline of the exact tiled LU: the same tiles
// and graph, vendor BLAS/LAPACK inside): LAPACK dgetrf on the gathered panel, dtrsm for block
// rows of U, dgemm for the updates. NOT exact, NOT reproducible: for comparison only.
#include "kernels_cpu/lu_tiled.h"
#ifdef EXSTAR_HAVE_LAPACK
#include <vector>

extern "C" {
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m, const int *n,
            const double *alpha, const double *a, const int *lda, double *b, const int *ldb);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc);
// OpenBLAS's own threads inside a StarPU task would fight the other workers: one thread a call.
void openblas_set_num_threads(int) __attribute__((weak));
}

namespace {
int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
void one_thread()
{
  if (openblas_set_num_threads) openblas_set_num_threads(1);
}
double *tile_ptr(const exstar_tile_view *v, int64_t I, int64_t J, int *ld)
{
  *ld = (int)v->lda[I + J * v->mt];
  return v->a[I + J * v->mt];
}
} // namespace

int exstar_cpu_lu_plain_panel(const exstar_tile_view *v, int64_t K, int32_t *ipiv)
{
  one_thread();
  const int64_t c0 = K * v->nb, w = min64(v->nb, v->n - c0), rows = v->m - c0;
  std::vector<double> P((size_t)(rows * w)); // the panel, gathered
  for (int64_t I = K; I < v->mt; ++I) {
    int ld;
    const double *t = tile_ptr(v, I, K, &ld);
    const int64_t r0 = I * v->nb - c0, nr = min64(v->nb, v->m - I * v->nb);
    for (int64_t j = 0; j < w; ++j)
      for (int64_t i = 0; i < nr; ++i) P[(size_t)(r0 + i + j * rows)] = t[i + j * ld];
  }
  int mi = (int)rows, ni = (int)w, info = 0;
  std::vector<int> ip((size_t)min64(rows, w));
  dgetrf_(&mi, &ni, P.data(), &mi, ip.data(), &info);
  for (size_t q = 0; q < ip.size(); ++q) ipiv[q] = (int32_t)(ip[q] + c0);
  for (int64_t I = K; I < v->mt; ++I) {
    int ld;
    double *t = tile_ptr(v, I, K, &ld);
    const int64_t r0 = I * v->nb - c0, nr = min64(v->nb, v->m - I * v->nb);
    for (int64_t j = 0; j < w; ++j)
      for (int64_t i = 0; i < nr; ++i) t[i + j * ld] = P[(size_t)(r0 + i + j * rows)];
  }
  if (v->lc && v->lc[K]) // the column copy the updates read (rows [c0, m), as the panel leaves them)
    for (int64_t j = 0; j < w; ++j)
      std::copy(P.begin() + j * rows, P.begin() + (j + 1) * rows, v->lc[K] + j * v->ldlc[K]);
  return info;
}

void exstar_cpu_lu_plain_urow(const exstar_tile_view *v, int64_t K, int64_t J)
{
  one_thread();
  int ldl, ldu;
  const double *L = tile_ptr(v, K, K, &ldl);
  double *U = tile_ptr(v, K, J, &ldu);
  int m = (int)min64(v->nb, v->m - K * v->nb), n = (int)min64(v->nb, v->n - J * v->nb);
  const double one = 1.0;
  dtrsm_("L", "L", "N", "U", &m, &n, &one, L, &ldl, U, &ldu);
}

void exstar_cpu_lu_plain_gemm(int64_t m, int64_t n, int64_t k, const double *L, int64_t ldl, const double *U,
                              int64_t ldu, double *C, int64_t ldc)
{
  one_thread();
  int mi = (int)m, ni = (int)n, ki = (int)k, l1 = (int)ldl, l2 = (int)ldu, l3 = (int)ldc;
  const double minus = -1.0, one = 1.0;
  dgemm_("N", "N", &mi, &ni, &ki, &minus, L, &l1, U, &l2, &one, C, &l3);
}
#endif
