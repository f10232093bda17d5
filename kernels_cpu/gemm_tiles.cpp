// The exact gemm on tiled operands (exstar_dgemm_desc_insert's tasks): a tile row of op(A) and a
// tile column of op(B) gathered into one strip each, then exstar_cpu_dgemm. An entry's terms
// are the same numbers in the same order, so the bits are exstar_cpu_dgemm's.
#include "kernels_cpu/gemm.h"
#include "core/strides.h"
#include <cstring>
#include <vector>

namespace {

bool is_trans(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

// The kt tiles X[l] (ld[l]) as one strip of w lines and k terms (core/strides.h).
std::vector<double> gather(bool along_rows, const double *const *X, const int64_t *ld, int64_t kt, int64_t kb,
                           int64_t k, int64_t w)
{
  std::vector<double> strip((size_t)(k * w));
  const int64_t sld = exstar_strip_ld(along_rows, k, w);
  for (int64_t l = 0; l < kt; ++l) {
    exstar_i64 off, rows, cols;
    exstar_strip_tile(along_rows, l, kb, k, w, &off, &rows, &cols);
    for (int64_t j = 0; j < cols; ++j)
      std::memcpy(strip.data() + off + j * sld, X[l] + j * ld[l], (size_t)rows * sizeof(double));
  }
  return strip;
}

} // namespace

int64_t exstar_cpu_dgemm_tiles(char transa, char transb, int64_t m, int64_t n, int64_t k, int64_t kb, int64_t kt,
                               double alpha, const double *const *A, const int64_t *lda, const double *const *B,
                               const int64_t *ldb, double beta, double *C, int64_t ldc, int exact_only)
{
  if (kt <= 1 || k == 0)
    return exstar_cpu_dgemm(transa, transb, m, n, k, alpha, kt ? A[0] : nullptr, 0, kt ? lda[0] : 1,
                            kt ? B[0] : nullptr, 0, kt ? ldb[0] : 1, beta, C, 0, ldc, exact_only);
  const bool ar = is_trans(transa), br = !is_trans(transb);
  const std::vector<double> a = gather(ar, A, lda, kt, kb, k, m), b = gather(br, B, ldb, kt, kb, k, n);
  return exstar_cpu_dgemm(transa, transb, m, n, k, alpha, a.data(), 0, exstar_strip_ld(ar, k, m), b.data(), 0,
                          exstar_strip_ld(br, k, n), beta, C, 0, ldc, exact_only);
}
