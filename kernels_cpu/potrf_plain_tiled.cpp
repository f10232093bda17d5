// The plain-double tiled Cholesky's CPU kernels (the baseline of the exact tiled Cholesky: the
// same tiles and graph, vendor LAPACK/BLAS inside): dpotrf on the diagonal tile, dtrsm for a
// tile below it, dsyrk/dgemm for the updates. NOT exact, NOT reproducible: for comparison only.
#include "kernels_cpu/potrf_tiled.h"
#ifdef EXSTAR_HAVE_LAPACK

extern "C" {
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m, const int *n,
            const double *alpha, const double *a, const int *lda, double *b, const int *ldb);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc);
void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha, const double *a,
            const int *lda, const double *beta, double *c, const int *ldc);
// OpenBLAS's own threads inside a StarPU task would fight the other workers: one thread a call.
void openblas_set_num_threads(int) __attribute__((weak));
}

namespace {
int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
void one_thread()
{
  if (openblas_set_num_threads) openblas_set_num_threads(1);
}
} // namespace

void exstar_cpu_potrf_plain_panel(const exstar_tile_view *v, int64_t K, int64_t I, int32_t *fail)
{
  one_thread();
  const int nk = (int)min64(v->nb, v->n - K * v->nb), ni = (int)min64(v->nb, v->n - I * v->nb);
  const int64_t d = K + K * v->mt, t = I + K * v->mt;
  const int ldd = (int)v->lda[d], ldt = (int)v->lda[t];
  if (I == K) {
    int info = 0;
    dpotrf_("L", &nk, v->a[d], &ldd, &info);
    for (int j = 0; j < nk; ++j) fail[j] = info > 0 && j >= info - 1 ? 1 : 0;
    return;
  }
  const double one = 1.0;
  dtrsm_("R", "L", "T", "N", &ni, &nk, &one, v->a[d], &ldd, v->a[t], &ldt);
}

void exstar_cpu_potrf_plain_update(int64_t m, int64_t n, int64_t k, const double *A, int64_t lda, const double *B,
                                   int64_t ldb, double *C, int64_t ldc, int diagonal)
{
  one_thread();
  const int mi = (int)m, ni = (int)n, ki = (int)k, la = (int)lda, lb = (int)ldb, lc = (int)ldc;
  const double minus = -1.0, one = 1.0;
  if (diagonal) dsyrk_("L", "N", &ni, &ki, &minus, A, &la, &one, C, &lc);
  else dgemm_("N", "T", &mi, &ni, &ki, &minus, A, &la, B, &lb, &one, C, &lc);
}
#endif
