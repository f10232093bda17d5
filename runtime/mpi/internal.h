/* Internals shared by the StarPU-MPI drivers (runtime/mpi): tags, collective checks. */
#ifndef EXSTAR_RUNTIME_MPI_INTERNAL_H
#define EXSTAR_RUNTIME_MPI_INTERNAL_H
#include "include/exstar/mpi.h"
#include "runtime/internal.h"
#include <vector>

namespace exstar_rt {
struct tiled_desc; // runtime/getrf_tiled.h
}

namespace exstar_mpi_rt {

/* Where a distributed factorization's matrix is: A (lda) on rank 0, or the caller's tiles on
 * their owners (local: tiles[I + J mt], leading dimension ldt, 0: the tile's rows). */
struct source {
  double *A = nullptr;
  int64_t lda = 0;
  bool local = false;
  double *const *tiles = nullptr;
  int64_t ldt = 0;
};

/* count consecutive StarPU-MPI tags, the same on every process (collective calls take them in
 * the same order). */
starpu_mpi_tag_t take_tags(int64_t count);
/* EXSTAR_ERR_NOT_INIT unless exstar_mpi_init ran. */
int require_mpi(const char *who);
/* The worst status over all processes (the local one when every process has it); the
 * message of a failing process is printed by that process. Collective. */
int agree(const char *who, int status);
/* EXSTAR_ERR_ARG on every process unless every process passed the same values. Collective. */
int same_everywhere(const char *who, const int64_t *values, int count);
/* The default tile edge of a distributed factorization of m x n: exstar_default_tile for the
 * columns a process holds (n / processes), the smallest over the processes, so that every
 * process builds the same tiles whatever its workers. Collective. */
int64_t default_tile(int64_t m, int64_t n);
/* P x Q from the arguments (0, 0: the default grid), checked against the number of processes. */
int resolve_grid(const char *who, int *P, int *Q);
/* EXSTAR_SUCCESS when every process's workers can run every task the distributed LU submits
 * (plain: its plain-double twin), else EXSTAR_ERR_NO_WORKER on every process with the message
 * of the lowest process that cannot (workers.cpp). Collective; call before submitting. */
int require_lu_workers(const char *who, bool plain);
/* The same for the distributed Cholesky (runtime/mpi/potrf.cpp). Collective. */
int require_potrf_workers(const char *who, bool plain);

/* A distributed factorization's data where it starts and ends on rank 0 (runtime/mpi/home.cpp):
 * rank 0's own handles over the tiles of A and over the kt int32 vectors (the LU's pivots, the
 * Cholesky's root flags), registered with StarPU-MPI (no data on the other ranks). */
struct home_handles {
  std::vector<starpu_data_handle_t> tiles, vecs;
};
/* Registers the home vectors over vec + K nb (the lengths of d.pivots), and with scatter the home
 * tiles of A (lda; with lower only I >= J) and the copy tasks that move each to d's tile on its
 * owner. Collective (the same tags everywhere). */
int make_home(exstar_rt::tiled_desc &d, home_handles &home, bool scatter, bool lower, double *A, int64_t lda,
              int32_t *vec, const char *who);
/* The copy tasks from d's tiles and d.pivots back into the home handles, a wait for them, and the
 * home handles released. Collective. */
int gather_home(const exstar_rt::tiled_desc &d, home_handles &home, const char *who);

} // namespace exstar_mpi_rt
#endif
