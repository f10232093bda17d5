// The distributed exact Cholesky (and its plain baseline): the graph of
// runtime/potrf_tiled_graph.h submitted through StarPU-MPI on tiles spread 2D block-cyclic (the
// near-square grid by default, as Chameleon's). The matrix starts and ends on rank 0: copy tasks
// move its lower tiles to their owners before the graph and back after it; a tile's state lives
// and is updated with its tile, the root flags of panel K with the diagonal tile (K, K).
#include "runtime/mpi/internal.h"
#include "runtime/potrf_tiled_graph.h"
#include "codelets/codelets.h"
#include <cmath>
#include <cstring>
#include <vector>

namespace {

using exstar_rt::chol_desc;

// Every process submits every task; StarPU-MPI runs it on `on` and moves the data (as the LU's).
struct mpi_submit {
  MPI_Comm comm;
  int me;
  template <class... A>
  int task(const exstar_rt::tiled_graph::place &p, starpu_codelet *cl, A... args)
  {
    if (p.rank >= 0) return starpu_mpi_task_insert(comm, cl, STARPU_EXECUTE_ON_NODE, p.rank, args..., 0);
    return starpu_mpi_task_insert(comm, cl, args..., 0);
  }
  bool runs_here(int on) const { return on == me; }
};

// The matrix and flags where they live on rank 0, as handles shaped like c's lower tiles and
// flag blocks; copy tasks move them to and from the owners.
struct home_handles {
  std::vector<starpu_data_handle_t> tiles, flags;
};

// Owners and tags for c's handles (registered without data everywhere), the home handles on
// rank 0, and the copies of the lower tiles to their owners.
int distribute(chol_desc &c, home_handles &home, int P, int Q, double *A, int64_t lda, int32_t *flags,
               const char *who)
{
  exstar_rt::tiled_desc &d = c.d;
  const bool root = d.me == 0;
  d.ranks.assign((size_t)(d.mt * d.nt), 0);
  home.tiles.assign(d.tiles.size(), nullptr);
  home.flags.assign(d.pivots.size(), nullptr);
  starpu_mpi_tag_t tag = exstar_mpi_rt::take_tags(3 * d.mt * d.nt + 2 * d.kt);
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) {
      const size_t t = (size_t)(I + J * d.mt);
      d.ranks[t] = exstar_mpi_tile_owner(I, J, P, Q);
      starpu_mpi_data_register(d.tiles[t], tag++, d.ranks[t]);
      if (I < J) continue; // the upper tiles are never read
      if (!c.plain) starpu_mpi_data_register(c.state(I, J), tag++, d.ranks[t]);
      const int64_t rows = c.rows(I), cols = c.rows(J);
      starpu_matrix_data_register(&home.tiles[t], root ? STARPU_MAIN_RAM : -1,
                                  root ? (uintptr_t)(A + I * d.nb + J * d.nb * lda) : 0,
                                  (uint32_t)(root ? lda : rows), (uint32_t)rows, (uint32_t)cols, sizeof(double));
      starpu_mpi_data_register(home.tiles[t], tag++, 0);
      int ret = starpu_mpi_task_insert(MPI_COMM_WORLD, &exstar_matrix_copy_cl, STARPU_R, home.tiles[t], STARPU_W,
                                       d.tiles[t], STARPU_NAME, "exstar_mpi_scatter", 0);
      if (ret != 0) return exstar_rt::submit_status(ret, who);
    }
  for (int64_t K = 0; K < d.kt; ++K) {
    starpu_mpi_data_register(d.pivots[(size_t)K], tag++, d.rank(K, K));
    starpu_vector_data_register(&home.flags[(size_t)K], root ? STARPU_MAIN_RAM : -1,
                                root ? (uintptr_t)(flags + K * d.nb) : 0, (uint32_t)c.rows(K), sizeof(int32_t));
    starpu_mpi_data_register(home.flags[(size_t)K], tag++, 0);
  }
  return EXSTAR_SUCCESS;
}

// The factor's lower tiles and the flags back on rank 0; the home handles released.
int gather_home(const chol_desc &c, home_handles &home, const char *who)
{
  int ret = 0;
  for (size_t t = 0; t < home.tiles.size() && ret == 0; ++t)
    if (home.tiles[t])
      ret = starpu_mpi_task_insert(MPI_COMM_WORLD, &exstar_matrix_copy_cl, STARPU_R, c.d.tiles[t], STARPU_W,
                                   home.tiles[t], STARPU_NAME, "exstar_mpi_gather", 0);
  for (size_t K = 0; K < home.flags.size() && ret == 0; ++K)
    ret = starpu_mpi_task_insert(MPI_COMM_WORLD, &exstar_vector_copy_cl, STARPU_R, c.d.pivots[K], STARPU_W,
                                 home.flags[K], STARPU_NAME, "exstar_mpi_gather", 0);
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  for (auto *hs : {&home.tiles, &home.flags})
    for (starpu_data_handle_t &h : *hs)
      if (h) starpu_data_unregister(h), h = nullptr;
  return ret == 0 ? EXSTAR_SUCCESS : exstar_rt::submit_status(ret, who);
}

// rank 0's status and info of the factor (as exstar_dpotrf's), on every rank.
int share_result(const char *who, int me, int64_t n, const double *A, int64_t lda, const int32_t *flags,
                 int64_t *info)
{
  int64_t st[2] = {EXSTAR_SUCCESS, 0};
  if (me == 0) {
    for (int64_t j = 0; j < n && st[1] == 0; ++j)
      if (flags[j]) st[1] = j + 1;
    if (st[1] > 0) st[0] = EXSTAR_ERR_NOT_POSDEF;
    for (int64_t j = 0; j < n && st[0] == EXSTAR_SUCCESS; ++j)
      for (int64_t i = j; i < n; ++i)
        if (!std::isfinite(A[i + j * lda])) st[0] = EXSTAR_ERR_NONFINITE;
  }
  MPI_Bcast(st, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
  *info = st[1];
  if (st[0] == EXSTAR_ERR_NOT_POSDEF)
    return exstar_set_error(EXSTAR_ERR_NOT_POSDEF,
                            "%s: the matrix is not positive definite: the exact value under the root of l(%lld,%lld) "
                            "is <= 0 or NaN, or its root rounds to zero (info = %lld)",
                            who, (long long)(st[1] - 1), (long long)(st[1] - 1), (long long)st[1]);
  if (st[0] == EXSTAR_ERR_NONFINITE) return exstar_set_error(EXSTAR_ERR_NONFINITE, "%s: the factor holds NaN or inf", who);
  return EXSTAR_SUCCESS;
}

int potrf_mpi(const char *who, int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb, int P, int Q, bool plain)
{
  exstar_rt::clear_error();
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  const int me = exstar_mpi_rank();
  const int exact_only = exstar_rt::exact_only();
  const int64_t shared[] = {n, nb, P, Q, plain ? 1 : 0, exact_only};
  if (int s = exstar_mpi_rt::same_everywhere(who, shared, 6)) return s;
  int s = EXSTAR_SUCCESS;
  if (!info) s = exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  else if (n < 0 || nb < 0) s = exstar_set_error(EXSTAR_ERR_ARG, "%s: n or nb < 0", who);
  else if (me == 0 && (lda < (n > 1 ? n : 1) || (n > 0 && !A)))
    s = exstar_set_error(EXSTAR_ERR_ARG, "%s: A is NULL or lda < max(1, n)", who);
  if (s == EXSTAR_SUCCESS) s = exstar_mpi_rt::resolve_grid(who, &P, &Q);
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  *info = 0;
  if (n == 0) return EXSTAR_SUCCESS;
  if ((s = exstar_mpi_rt::require_potrf_workers(who, plain))) return s;
  if (nb == 0) nb = exstar_default_tile(n, n);
  std::vector<int32_t> flags(me == 0 ? (size_t)n : 0);
  chol_desc c;
  c.d.me = me;
  home_handles home;
  s = c.create(n, nb, nullptr, lda, nullptr, plain, false); // no data: the owners get copies
  if (s == EXSTAR_SUCCESS) s = distribute(c, home, P, Q, A, lda, flags.data(), who);
  if (s == EXSTAR_SUCCESS) {
    mpi_submit ins{MPI_COMM_WORLD, me};
    s = exstar_rt::potrf_tiled_graph(ins, who, c, exact_only);
  }
  const int g = gather_home(c, home, who);
  if (s == EXSTAR_SUCCESS) s = g;
  c.destroy();
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  return share_result(who, me, n, A, lda, flags.data(), info);
}

} // namespace

int exstar_mpi_dpotrf(int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb, int P, int Q)
{
  return potrf_mpi("exstar_mpi_dpotrf", n, A, lda, info, nb, P, Q, false);
}

int exstar_mpi_dpotrf_plain(int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb, int P, int Q)
{
  return potrf_mpi("exstar_mpi_dpotrf_plain", n, A, lda, info, nb, P, Q, true);
}
