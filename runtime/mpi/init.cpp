// exstar_mpi_init / exstar_mpi_shutdown: StarPU started through StarPU-MPI with exstar's
// configuration rules, the process grid and the tag counter shared by the drivers.
#include "runtime/mpi/internal.h"
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <vector>

namespace {
bool mpi_started = false;
starpu_mpi_tag_t next_tag = EXSTAR_MPI_TAG_BASE;
} // namespace

int exstar_mpi_init(int *argc, char ***argv, const exstar_config *cfg)
{
  if (mpi_started) return exstar_set_error(EXSTAR_ERR_ARG, "exstar_mpi_init: already initialized");
  int mpi_ready = 0;
  MPI_Initialized(&mpi_ready);
  bool starpu_up = false;
  int s = exstar_rt::init_with(cfg, [&](struct starpu_conf *conf) {
    // StarPU-MPI reserves a core for its progression thread only when ncpus is StarPU's default.
    int ret = starpu_mpi_init_conf(argc, argv, mpi_ready ? 0 : 1, MPI_COMM_WORLD, conf);
    starpu_up = ret == 0;
    return ret;
  });
  if (s != EXSTAR_SUCCESS) {
    if (starpu_up) starpu_mpi_shutdown();
    return s;
  }
  mpi_started = true;
  next_tag = EXSTAR_MPI_TAG_BASE;
  return EXSTAR_SUCCESS;
}

int exstar_mpi_shutdown(void)
{
  if (!mpi_started) return exstar_set_error(EXSTAR_ERR_NOT_INIT, "exstar_mpi_shutdown: not initialized");
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  int s = exstar_shutdown(); // StarPU itself is StarPU-MPI's to stop
  starpu_mpi_shutdown();
  mpi_started = false;
  return s;
}

int exstar_mpi_rank(void)
{
  int r = 0;
  if (mpi_started) starpu_mpi_comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int exstar_mpi_size(void)
{
  int n = 1;
  if (mpi_started) starpu_mpi_comm_size(MPI_COMM_WORLD, &n);
  return n;
}

void exstar_mpi_grid(int nranks, int *P, int *Q)
{
  int p = 1;
  for (int d = 1; d * d <= nranks; ++d)
    if (nranks % d == 0) p = d;
  *P = p;
  *Q = nranks > 0 ? nranks / p : 1;
}

int exstar_mpi_tile_owner(int64_t I, int64_t J, int P, int Q) { return (int)((I % P) * Q + (J % Q)); }

namespace exstar_mpi_rt {

starpu_mpi_tag_t take_tags(int64_t count)
{
  const starpu_mpi_tag_t first = next_tag;
  next_tag += count;
  return first;
}

int require_mpi(const char *who)
{
  return mpi_started ? EXSTAR_SUCCESS
                     : exstar_set_error(EXSTAR_ERR_NOT_INIT, "%s: call exstar_mpi_init first", who);
}

int agree(const char *who, int status)
{
  int worst = status;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (worst == status) return status;
  // Another process failed: say so here too, with its status (its message is its own).
  return exstar_set_error(worst, "%s: failed on another process (status %d)", who, worst);
}

int same_everywhere(const char *who, const int64_t *values, int count)
{
  std::vector<int64_t> lo(values, values + count), hi(values, values + count);
  MPI_Allreduce(values, lo.data(), count, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(values, hi.data(), count, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i)
    if (lo[i] != hi[i])
      return exstar_set_error(EXSTAR_ERR_ARG, "%s: the processes passed different sizes (argument %d: %lld .. %lld)",
                              who, i + 1, (long long)lo[i], (long long)hi[i]);
  return EXSTAR_SUCCESS;
}

int resolve_grid(const char *who, int *P, int *Q)
{
  const int size = exstar_mpi_size();
  if (*P == 0 && *Q == 0) exstar_mpi_grid(size, P, Q);
  if (*P < 1 || *Q < 1 || *P * *Q != size)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: the process grid %d x %d does not cover the %d processes", who, *P,
                            *Q, size);
  return EXSTAR_SUCCESS;
}

} // namespace exstar_mpi_rt
