// The status of a finished tile of the LU factors (exstar_cpu_lu_check, kernels_cpu/lu_tiled.h):
// read on the device that holds the tile, so that the LU's info and its NaN/inf error need no
// copy of the factors to the host.
#include "kernels_cpu/lu_tiled.h"
#include <cmath>

extern "C" void exstar_cpu_lu_check(int64_t m, int64_t n, const double *A, int64_t lda, int64_t ndiag, int64_t diag0,
                                    uint64_t status[2])
{
  for (int64_t d = 0; d < ndiag; ++d)
    if (A[d + d * lda] == 0.0) {
      if ((uint64_t)(diag0 + d) < status[1]) status[1] = (uint64_t)(diag0 + d);
      break;
    }
  for (int64_t j = 0; j < n && !status[0]; ++j)
    for (int64_t i = 0; i < m; ++i)
      if (!std::isfinite(A[i + j * lda])) {
        status[0] = 1;
        break;
      }
}
