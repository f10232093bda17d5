// A distributed factorization's matrix on rank 0 (runtime/mpi/internal.h, home_handles): rank
// 0's own handles over A and over the per-step int32 vectors, the copy tasks that move them to
// their owners before the graph and back after it. The LU and the Cholesky use it alike. (Copy
// tasks, not starpu_mpi_data_migrate: with Open MPI's shared-memory transport, StarPU-MPI
// 1.3.10's starpu_mpi_get_data_on_node_detached never completes for data beyond the eager limit.)
#include "runtime/mpi/internal.h"
#include "runtime/getrf_tiled.h"
#include "codelets/codelets.h"
#include <algorithm>

namespace exstar_mpi_rt {

int make_home(exstar_rt::tiled_desc &d, home_handles &home, bool scatter, bool lower, double *A, int64_t lda,
              int32_t *vec, const char *who)
{
  const bool root = d.me == 0;
  home.tiles.assign(scatter ? d.tiles.size() : 0, nullptr);
  home.vecs.assign(d.pivots.size(), nullptr);
  starpu_mpi_tag_t tag = take_tags((int64_t)home.tiles.size() + d.kt);
  for (int64_t J = 0; J < d.nt && scatter; ++J)
    for (int64_t I = lower ? J : 0; I < d.mt; ++I) {
      const size_t t = (size_t)(I + J * d.mt);
      const int64_t rows = std::min(d.nb, d.m - I * d.nb), cols = std::min(d.nb, d.n - J * d.nb);
      starpu_matrix_data_register(&home.tiles[t], root ? STARPU_MAIN_RAM : -1,
                                  root ? (uintptr_t)(A + I * d.nb + J * d.nb * lda) : 0,
                                  (uint32_t)(root ? lda : rows), (uint32_t)rows, (uint32_t)cols, sizeof(double));
      starpu_mpi_data_register(home.tiles[t], tag++, 0);
      int ret = starpu_mpi_task_insert(MPI_COMM_WORLD, &exstar_matrix_copy_cl, STARPU_R, home.tiles[t], STARPU_W,
                                       d.tiles[t], STARPU_NAME, "exstar_mpi_scatter", 0);
      if (ret != 0) return exstar_rt::submit_status(ret, who);
    }
  for (int64_t K = 0; K < d.kt; ++K) {
    const uint32_t len = (uint32_t)std::min(d.nb, std::min(d.m, d.n) - K * d.nb);
    starpu_vector_data_register(&home.vecs[(size_t)K], root ? STARPU_MAIN_RAM : -1,
                                root ? (uintptr_t)(vec + K * d.nb) : 0, len, sizeof(int32_t));
    starpu_mpi_data_register(home.vecs[(size_t)K], tag++, 0);
  }
  return EXSTAR_SUCCESS;
}

int gather_home(const exstar_rt::tiled_desc &d, home_handles &home, const char *who)
{
  int ret = 0;
  for (size_t t = 0; t < home.tiles.size() && ret == 0; ++t)
    if (home.tiles[t])
      ret = starpu_mpi_task_insert(MPI_COMM_WORLD, &exstar_matrix_copy_cl, STARPU_R, d.tiles[t], STARPU_W,
                                   home.tiles[t], STARPU_NAME, "exstar_mpi_gather", 0);
  for (size_t K = 0; K < home.vecs.size() && ret == 0; ++K)
    ret = starpu_mpi_task_insert(MPI_COMM_WORLD, &exstar_vector_copy_cl, STARPU_R, d.pivots[K], STARPU_W,
                                 home.vecs[K], STARPU_NAME, "exstar_mpi_gather", 0);
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  for (auto *hs : {&home.tiles, &home.vecs})
    for (starpu_data_handle_t &h : *hs)
      if (h) starpu_data_unregister(h), h = nullptr;
  return ret == 0 ? EXSTAR_SUCCESS : exstar_rt::submit_status(ret, who);
}

} // namespace exstar_mpi_rt
