// exstar_dgesv (no refinement, as LAPACK's dgesv) on the system of dgesv_program.f90, printed
// the same way: info, pivots, the solution's bits in hex. The ctest blas_fortran_dgesv compares.
#include <exstar/exstar.h>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
  const int n = 60, nrhs = 2;
  std::vector<double> a((size_t)n * n), b((size_t)n * nrhs);
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i <= n; ++i) a[(size_t)((i - 1) + (j - 1) * n)] = (double)((i * 7 + j * 13) % 17 - 8) + 1.0 / (double)(i + j);
  for (int j = 1; j <= nrhs; ++j)
    for (int i = 1; i <= n; ++i) b[(size_t)((i - 1) + (j - 1) * n)] = (double)(i * j) / 3.0;
  if (exstar_init(nullptr) != EXSTAR_SUCCESS) return 1;
  std::vector<int32_t> ipiv(n);
  int64_t info = 0;
  const int s = exstar_dgesv(n, nrhs, a.data(), n, ipiv.data(), b.data(), n, 0, &info);
  exstar_shutdown();
  if (s != EXSTAR_SUCCESS && s != EXSTAR_ERR_SINGULAR) return 1;
  std::printf("%" PRId64 "\n", info);
  for (int i = 0; i < n; ++i) std::printf("%d\n", (int)ipiv[(size_t)i]);
  for (double v : b) {
    uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    std::printf("%016" PRIX64 "\n", u);
  }
  return 0;
}
