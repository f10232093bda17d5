/* The tiled exact LU's descriptor and graph (runtime/getrf_tiled.cpp), used by the LU drivers. */
#ifndef EXSTAR_RUNTIME_GETRF_TILED_H
#define EXSTAR_RUNTIME_GETRF_TILED_H
#include "include/exstar/exstar.h"
#include <vector>

namespace exstar_rt {

/* A matrix as nb x nb tiles (Chameleon's descriptor, reduced to what the LU needs): a handle
 * per tile over the user's column-major array, a GEMM-accumulate state per tile, a pivot
 * handle per panel over the user's ipiv. Drivers speak in tile indices. */
struct tiled_desc {
  int64_t m = 0, n = 0, nb = 0, mt = 0, nt = 0, kt = 0; /* kt: panels, ceil(min(m,n)/nb) */
  std::vector<starpu_data_handle_t> tiles, states, pivots;
  starpu_data_handle_t &tile(int64_t I, int64_t J) { return tiles[(size_t)(I + J * mt)]; }
  starpu_data_handle_t tile(int64_t I, int64_t J) const { return tiles[(size_t)(I + J * mt)]; }
  starpu_data_handle_t &state(int64_t I, int64_t J) { return states[(size_t)(I + J * mt)]; }
  starpu_data_handle_t state(int64_t I, int64_t J) const { return states[(size_t)(I + J * mt)]; }
  /* with_states false: no GEMM-accumulate states (the plain-double baseline) */
  int create(int64_t m, int64_t n, int64_t nb, double *A, int64_t lda, int32_t *ipiv, bool with_states = true);
  /* Waits for the tiles' tasks, gathers them home and releases every handle. */
  void destroy();
};

/* Whether the exact tiled graph can run on the workers there are: its panel and U-row codelets
 * need a CPU worker, or a CUDA worker where the build has their CUDA kernels. */
bool tiled_lu_runs();

/* Submits the whole LU graph on d's tiles (no wait); plain: the plain-double baseline's codelets
 * (d without states). */
int getrf_tiled_insert(const char *who, const tiled_desc &d, int exact_only, bool plain = false);

} // namespace exstar_rt
#endif
