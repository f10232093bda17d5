// The distributed exact LU (and its plain baseline) and gesv: the tiled graph of
// runtime/getrf_tiled_graph.h submitted through StarPU-MPI on tiles spread 2D block-cyclic.
// The matrix starts and ends on rank 0: copy tasks move its tiles to their owners before the
// graph and back after it; the pivots of panel K live with the diagonal tile (K, K).
#include "runtime/mpi/internal.h"
#include "runtime/getrf_tiled.h"
#include "runtime/getrf_tiled_graph.h"
#include "codelets/codelets.h"
#include <cmath>
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
  int task(const exstar_rt::tiled_graph::place &p, starpu_codelet *cl, A... args)
  {
    if (p.trace) { // EXSTAR_TRACE: the process that runs it records it
      exstar_rt::tiled_graph::place q = p;
      q.trace = nullptr;
      return placed(q, cl, STARPU_CALLBACK_WITH_ARG_NFREE, exstar_rt::trace::done, p.trace, args...);
    }
    return placed(p, cl, args...);
  }
  template <class... A>
  int placed(const exstar_rt::tiled_graph::place &p, starpu_codelet *cl, A... args)
  {
    if (p.gpu) return on_node(p.rank, cl, STARPU_EXECUTE_WHERE, p.where, STARPU_TASK_WORKERIDS, p.len, p.gpu, args...);
    if (p.where) return on_node(p.rank, cl, STARPU_EXECUTE_WHERE, p.where, args...);
    return on_node(p.rank, cl, args...);
  }
  template <class... A>
  int on_node(int on, starpu_codelet *cl, A... args)
  {
    if (on >= 0) return starpu_mpi_task_insert(comm, cl, STARPU_EXECUTE_ON_NODE, on, args..., 0);
    return starpu_mpi_task_insert(comm, cl, args..., 0);
  }
  bool runs_here(int on) const { return on == me; }
};

// A tile's rows and columns (the last ones may be short).
int64_t rows_of(const tiled_desc &d, int64_t I) { return min64(d.nb, d.m - I * d.nb); }
int64_t cols_of(const tiled_desc &d, int64_t J) { return min64(d.nb, d.n - J * d.nb); }

// Owners and tags of d's handles (registered without data everywhere). local: the caller's
// tiles (exstar_mpi_dgetrf_tiles): this process's own tiles are registered anew over them,
// tiles[I + J mt] with leading dimension ldt (0: the tile's rows).
int register_owners(tiled_desc &d, int P, int Q, double *const *local, int64_t ldt)
{
  d.ranks.assign((size_t)(d.mt * d.nt), 0);
  starpu_mpi_tag_t tag = exstar_mpi_rt::take_tags(d.mt * d.nt + d.nt + 3 * d.kt);
  d.gpu_div = Q; // this rank's block columns are J = q, q + Q, ...: they take its GPUs in turn
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) {
      const size_t t = (size_t)(I + J * d.mt);
      d.ranks[t] = exstar_mpi_tile_owner(I, J, P, Q);
      if (local && d.ranks[t] == d.me) {
        const int64_t rows = rows_of(d, I);
        starpu_data_unregister(d.tiles[t]);
        starpu_matrix_data_register(&d.tiles[t], STARPU_MAIN_RAM, (uintptr_t)local[t], (uint32_t)(ldt ? ldt : rows),
                                    (uint32_t)rows, (uint32_t)cols_of(d, J), sizeof(double));
      }
      starpu_mpi_data_register(d.tiles[t], tag++, d.ranks[t]);
    }
  // a block column's states with the owner of its diagonal tile (every tile's on a 1 x Q grid)
  for (int64_t J = 0; J < d.nt; ++J)
    if (d.state(J)) starpu_mpi_data_register(d.state(J), tag++, d.state_rank(J));
  for (int64_t K = 0; K < d.kt; ++K) {
    starpu_mpi_data_register(d.pivots[(size_t)K], tag++, d.rank(K, K));
    if (!d.lcols.empty()) { // L's column copy and the row order: with the panel that writes them
      starpu_mpi_data_register(d.lcols[(size_t)K], tag++, d.rank(K, K));
      starpu_mpi_data_register(d.perms[(size_t)K], tag++, d.rank(K, K));
    }
  }
  return EXSTAR_SUCCESS;
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

using exstar_mpi_rt::source;

// The local checks of the tiles form: every tile this process owns is given, ldt fits.
int check_tiles(const char *who, int64_t m, int64_t n, int64_t nb, int P, int Q, const source &src,
                const int32_t *ipiv, const int64_t *info)
{
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  if (m < 0 || n < 0 || nb < 1) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0, or nb < 1", who);
  if (src.ldt != 0 && src.ldt < nb && src.ldt < m)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: ldt %lld < min(nb, m)", who, (long long)src.ldt);
  if (m > 0 && n > 0 && !ipiv) return exstar_set_error(EXSTAR_ERR_ARG, "%s: ipiv is NULL", who);
  const int64_t mt = (m + nb - 1) / nb, nt = (n + nb - 1) / nb, me = exstar_mpi_rank();
  for (int64_t J = 0; J < nt; ++J)
    for (int64_t I = 0; I < mt; ++I)
      if (exstar_mpi_tile_owner(I, J, P, Q) == me && (!src.tiles || !src.tiles[I + J * mt]))
        return exstar_set_error(EXSTAR_ERR_ARG, "%s: tile (%lld, %lld) of this process (%lld) is NULL", who,
                                (long long)I, (long long)J, (long long)me);
  return EXSTAR_SUCCESS;
}

// The status of the factors in the caller's tiles, as exstar_dgetrf's: *info := the first zero
// on U's diagonal over every process's diagonal tiles; NaN or inf in any tile first. Collective.
int tiles_status(const char *who, const tiled_desc &d, const source &src, int64_t *info)
{
  int64_t zero = INT64_MAX, bad = 0;
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) {
      if (d.ranks[(size_t)(I + J * d.mt)] != d.me) continue;
      const double *t = src.tiles[I + J * d.mt];
      const int64_t rows = rows_of(d, I), cols = cols_of(d, J), ld = src.ldt ? src.ldt : rows;
      for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = 0; i < rows; ++i) {
          if (!std::isfinite(t[i + j * ld])) bad = 1;
          if (I == J && i == j && t[i + j * ld] == 0.0 && J * d.nb + j < zero) zero = J * d.nb + j;
        }
    }
  int64_t mine[2] = {-zero, bad}, all[2];
  MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  *info = all[0] == -INT64_MAX ? 0 : -all[0] + 1;
  if (all[1])
    return exstar_set_error(EXSTAR_ERR_NONFINITE, "%s: the factors hold NaN or inf (info = %lld)", who, (long long)*info);
  if (*info > 0)
    return exstar_set_error(EXSTAR_ERR_SINGULAR, "%s: u(%lld,%lld) is zero (info = %lld)", who, (long long)(*info - 1),
                            (long long)(*info - 1), (long long)*info);
  return EXSTAR_SUCCESS;
}

int getrf_mpi(const char *who, int64_t m, int64_t n, const source &src, int32_t *ipiv, int64_t *info, int64_t nb,
              int P, int Q, bool plain)
{
  exstar_rt::clear_error();
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  const int me = exstar_mpi_rank();
  const int exact_only = exstar_rt::exact_only();
  const int64_t shared[] = {m, n, nb, P, Q, plain ? 1 : 0, exact_only, src.local ? 1 : 0};
  if (int s = exstar_mpi_rt::same_everywhere(who, shared, 8)) return s;
  // the LU's own default: one process row. A panel runs on one process and interchanges rows
  // of whole block columns, so with one owner per block column neither a tile nor a state
  // crosses processes: only L's column copies (and U's tiles on P > 1 grids) do
  // (docs/distributed.md)
  if (P == 0 && Q == 0) P = 1, Q = exstar_mpi_size();
  int s = exstar_mpi_rt::resolve_grid(who, &P, &Q);
  if (s == EXSTAR_SUCCESS)
    s = src.local ? check_tiles(who, m, n, nb, P, Q, src, ipiv, info)
                  : check_local(who, me, m, n, src.A, src.lda, ipiv, info, nb);
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  *info = 0;
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  // Before any task: a task no worker of its process can run fails there (ENODEV) while the
  // others wait for it, and StarPU aborts on the handles it left uninitialized. Collective.
  if ((s = exstar_mpi_rt::require_lu_workers(who, plain))) return s;
  if (nb == 0) nb = exstar_mpi_rt::default_tile(m, n);
  std::vector<int32_t> own((size_t)min64(m, n));
  int32_t *piv = me == 0 && ipiv ? ipiv : own.data();
  tiled_desc d;
  d.me = me;
  exstar_mpi_rt::home_handles home;
  s = d.create(m, n, nb, nullptr, src.lda, nullptr, !plain, false); // no data: the owners get copies
  if (s == EXSTAR_SUCCESS) s = register_owners(d, P, Q, src.local ? src.tiles : nullptr, src.ldt);
  if (s == EXSTAR_SUCCESS) s = exstar_mpi_rt::make_home(d, home, !src.local, false, src.A, src.lda, piv, who);
  if (s == EXSTAR_SUCCESS) {
    mpi_submit ins{MPI_COMM_WORLD, me};
    s = exstar_rt::getrf_tiled_graph(ins, who, d, exact_only, plain);
  }
  const int g = exstar_mpi_rt::gather_home(d, home, who);
  if (s == EXSTAR_SUCCESS) s = g;
  d.destroy(); // the caller's tiles (src.local) hold their factors once their handles are gone
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  if (!src.local) return share_result(who, me, m, n, src.A, src.lda, piv, ipiv, info);
  MPI_Bcast(piv, (int)min64(m, n), MPI_INT32_T, 0, MPI_COMM_WORLD);
  if (me != 0) std::memcpy(ipiv, piv, (size_t)min64(m, n) * sizeof(int32_t));
  return tiles_status(who, d, src, info);
}

} // namespace

int exstar_mpi_dgetrf(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb, int P,
                      int Q)
{
  return getrf_mpi("exstar_mpi_dgetrf", m, n, source{A, lda}, ipiv, info, nb, P, Q, false);
}

int exstar_mpi_dgetrf_tiles(int64_t m, int64_t n, int64_t nb, int P, int Q, double *const *tiles, int64_t ldt,
                            int32_t *ipiv, int64_t *info)
{
  return getrf_mpi("exstar_mpi_dgetrf_tiles", m, n, source{nullptr, 0, true, tiles, ldt}, ipiv, info, nb, P, Q, false);
}

int exstar_mpi_dgetrf_tiles_plain(int64_t m, int64_t n, int64_t nb, int P, int Q, double *const *tiles, int64_t ldt,
                                  int32_t *ipiv, int64_t *info)
{
  return getrf_mpi("exstar_mpi_dgetrf_tiles_plain", m, n, source{nullptr, 0, true, tiles, ldt}, ipiv, info, nb, P, Q,
                   true);
}

int exstar_mpi_dgetrf_plain(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb,
                            int P, int Q)
{
  return getrf_mpi("exstar_mpi_dgetrf_plain", m, n, source{A, lda}, ipiv, info, nb, P, Q, true);
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
  s = getrf_mpi(who, n, n, source{A, lda}, ipiv, info, nb, P, Q, false);
  if (s != EXSTAR_SUCCESS && s != EXSTAR_ERR_NONFINITE) return s;
  int t = EXSTAR_SUCCESS;
  if (me == 0)
    t = exstar_rt::lu_solve(who, n, nrhs, A, lda, ipiv, B, ldb, A0.empty() ? nullptr : A0.data(), refine_steps);
  if ((t = exstar_mpi_rt::agree(who, t))) return t;
  return s;
}
