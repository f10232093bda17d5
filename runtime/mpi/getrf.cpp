// The distributed exact LU (and its plain baseline) and gesv: the tiled graph of
// runtime/getrf_tiled_graph.h submitted through StarPU-MPI on tiles spread 2D block-cyclic.
// The matrix starts and ends on rank 0: its tiles migrate to their owners before the graph and
// back after it; the pivots of panel K live with the diagonal tile (K, K).
#include "runtime/mpi/internal.h"
#include "runtime/getrf_tiled.h"
#include "runtime/getrf_tiled_graph.h"
#include <cstring>
#include <vector>

namespace {

using exstar_rt::tiled_desc;

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// Every process submits every task; StarPU-MPI runs it on `on` (or on the owner of the data it
// writes) and moves the data.
struct mpi_submit {
  MPI_Comm comm;
  int me;
  template <class... A>
  int task(int on, starpu_codelet *cl, A... args)
  {
    if (on >= 0) return starpu_mpi_task_insert(comm, cl, STARPU_EXECUTE_ON_NODE, on, args..., 0);
    return starpu_mpi_task_insert(comm, cl, args..., 0);
  }
  bool runs_here(int on) const { return on == me; }
};

// Tags and owners for d's handles (tiles and pivots registered on rank 0, where A is), then the
// tiles and pivots migrate to their owners.
void distribute(tiled_desc &d, int P, int Q)
{
  d.ranks.assign((size_t)(d.mt * d.nt), 0);
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) d.ranks[(size_t)(I + J * d.mt)] = exstar_mpi_tile_owner(I, J, P, Q);
  starpu_mpi_tag_t tag = exstar_mpi_rt::take_tags(2 * d.mt * d.nt + d.kt);
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) {
      starpu_mpi_data_register(d.tile(I, J), tag++, 0);
      if (d.state(I, J)) starpu_mpi_data_register(d.state(I, J), tag++, d.rank(I, J));
    }
  for (int64_t K = 0; K < d.kt; ++K) starpu_mpi_data_register(d.pivots[(size_t)K], tag++, 0);
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) starpu_mpi_data_migrate(MPI_COMM_WORLD, d.tile(I, J), d.rank(I, J));
  for (int64_t K = 0; K < d.kt; ++K) starpu_mpi_data_migrate(MPI_COMM_WORLD, d.pivots[(size_t)K], d.rank(K, K));
}

// The tiles and pivots back on rank 0 (into A and ipiv when unregistered there).
void gather_home(tiled_desc &d)
{
  for (starpu_data_handle_t h : d.tiles) starpu_mpi_data_migrate(MPI_COMM_WORLD, h, 0);
  for (starpu_data_handle_t h : d.pivots) starpu_mpi_data_migrate(MPI_COMM_WORLD, h, 0);
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
}

// Local argument checks: rank 0 holds A and ipiv, every rank gives info.
int check_local(const char *who, int me, int64_t m, int64_t n, const double *A, int64_t lda, const int32_t *ipiv,
                const int64_t *info, int64_t nb)
{
  if (me == 0) {
    if (int s = exstar_rt::lu_check_getrf(who, m, n, A, lda, ipiv, info)) return s;
  } else {
    if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
    if (m < 0 || n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0", who);
  }
  if (nb < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nb < 0", who);
  return EXSTAR_SUCCESS;
}

// rank 0's status and info of the factors, the pivots, on every rank.
int share_result(const char *who, int me, int64_t m, int64_t n, const double *A, int64_t lda, int32_t *piv,
                 int32_t *ipiv, int64_t *info)
{
  int64_t st[2] = {0, 0};
  if (me == 0) st[0] = exstar_rt::lu_factor_status(who, m, n, A, lda, &st[1]);
  MPI_Bcast(st, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
  MPI_Bcast(piv, (int)min64(m, n), MPI_INT32_T, 0, MPI_COMM_WORLD);
  if (me != 0 && ipiv) std::memcpy(ipiv, piv, (size_t)min64(m, n) * sizeof(int32_t));
  *info = st[1];
  const int s = (int)st[0];
  if (me != 0 && s == EXSTAR_ERR_SINGULAR)
    return exstar_set_error(s, "%s: u(%lld,%lld) is zero (info = %lld)", who, (long long)(st[1] - 1),
                            (long long)(st[1] - 1), (long long)st[1]);
  if (me != 0 && s == EXSTAR_ERR_NONFINITE)
    return exstar_set_error(s, "%s: the factors hold NaN or inf (info = %lld)", who, (long long)st[1]);
  return s;
}

int getrf_mpi(const char *who, int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb,
              int P, int Q, bool plain)
{
  exstar_rt::clear_error();
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  const int me = exstar_mpi_rank();
  const int exact_only = exstar_rt::exact_only();
  const int64_t shared[] = {m, n, nb, P, Q, plain ? 1 : 0, exact_only};
  if (int s = exstar_mpi_rt::same_everywhere(who, shared, 7)) return s;
  int s = check_local(who, me, m, n, A, lda, ipiv, info, nb);
  if (s == EXSTAR_SUCCESS) s = exstar_mpi_rt::resolve_grid(who, &P, &Q);
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  *info = 0;
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  if (nb == 0) nb = exstar_default_tile(m, n);
  std::vector<int32_t> own((size_t)min64(m, n));
  int32_t *piv = me == 0 ? ipiv : own.data();
  tiled_desc d;
  d.me = me;
  s = d.create(m, n, nb, me == 0 ? A : nullptr, lda, piv, !plain, me == 0);
  if (s == EXSTAR_SUCCESS) {
    distribute(d, P, Q);
    mpi_submit ins{MPI_COMM_WORLD, me};
    s = exstar_rt::getrf_tiled_graph(ins, who, d, exact_only, plain);
    starpu_mpi_wait_for_all(MPI_COMM_WORLD);
    gather_home(d);
  }
  d.destroy();
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  return share_result(who, me, m, n, A, lda, piv, ipiv, info);
}

} // namespace

int exstar_mpi_dgetrf(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb, int P,
                      int Q)
{
  return getrf_mpi("exstar_mpi_dgetrf", m, n, A, lda, ipiv, info, nb, P, Q, false);
}

int exstar_mpi_dgetrf_plain(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb,
                            int P, int Q)
{
  return getrf_mpi("exstar_mpi_dgetrf_plain", m, n, A, lda, ipiv, info, nb, P, Q, true);
}

int exstar_mpi_dgesv(int64_t n, int64_t nrhs, double *A, int64_t lda, int32_t *ipiv, double *B, int64_t ldb,
                     int refine_steps, int64_t *info, int64_t nb, int P, int Q)
{
  const char *who = "exstar_mpi_dgesv";
  exstar_rt::clear_error();
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  const int me = exstar_mpi_rank();
  const int64_t shared[] = {n, nrhs, refine_steps};
  if (int s = exstar_mpi_rt::same_everywhere(who, shared, 3)) return s;
  int s = EXSTAR_SUCCESS;
  if (nrhs < 0 || refine_steps < 0) s = exstar_set_error(EXSTAR_ERR_ARG, "%s: nrhs or refine_steps < 0", who);
  if (s == EXSTAR_SUCCESS && me == 0 && (ldb < (n > 1 ? n : 1) || (n > 0 && nrhs > 0 && !B)))
    s = exstar_set_error(EXSTAR_ERR_ARG, "%s: B is NULL or ldb < max(1, n)", who);
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  std::vector<double> A0;
  if (me == 0 && refine_steps > 0 && nrhs > 0 && A)
    for (int64_t j = 0; j < n; ++j) A0.insert(A0.end(), A + j * lda, A + j * lda + n);
  s = getrf_mpi(who, n, n, A, lda, ipiv, info, nb, P, Q, false);
  if (s != EXSTAR_SUCCESS && s != EXSTAR_ERR_NONFINITE) return s;
  int t = EXSTAR_SUCCESS;
  if (me == 0)
    t = exstar_rt::lu_solve(who, n, nrhs, A, lda, ipiv, B, ldb, A0.empty() ? nullptr : A0.data(), refine_steps);
  if ((t = exstar_mpi_rt::agree(who, t))) return t;
  return s;
}
