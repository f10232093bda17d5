// The distributed exact Cholesky (and its plain baseline): the graph of
// runtime/potrf_tiled_graph.h submitted through StarPU-MPI on tiles spread 2D block-cyclic (the
// near-square grid by default, as Chameleon's). The matrix starts and ends on rank 0 (copy tasks
// move its lower tiles to their owners before the graph and back after it), or lives in the
// caller's tiles on their owners (exstar_mpi_dpotrf_tiles); a tile's state lives and is updated
// with its tile, the root flags of panel K with the diagonal tile (K, K).
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

// Owners and tags for c's handles (registered without data everywhere). local: the caller's lower
// tiles (exstar_mpi_dpotrf_tiles), this process's own registered anew over them, tiles[I + J mt]
// with leading dimension ldt (0: the tile's rows).
void register_owners(chol_desc &c, int P, int Q, double *const *local, int64_t ldt)
{
  exstar_rt::tiled_desc &d = c.d;
  d.ranks.assign((size_t)(d.mt * d.nt), 0);
  starpu_mpi_tag_t tag = exstar_mpi_rt::take_tags(2 * d.mt * d.nt + d.kt);
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) {
      const size_t t = (size_t)(I + J * d.mt);
      d.ranks[t] = exstar_mpi_tile_owner(I, J, P, Q);
      if (local && I >= J && d.ranks[t] == d.me) {
        starpu_data_unregister(d.tiles[t]);
        starpu_matrix_data_register(&d.tiles[t], STARPU_MAIN_RAM, (uintptr_t)local[t], (uint32_t)(ldt ? ldt : c.rows(I)),
                                    (uint32_t)c.rows(I), (uint32_t)c.rows(J), sizeof(double));
      }
      starpu_mpi_data_register(d.tiles[t], tag++, d.ranks[t]);
      if (I >= J && !c.plain) starpu_mpi_data_register(c.state(I, J), tag++, d.ranks[t]);
    }
  for (int64_t K = 0; K < d.kt; ++K) starpu_mpi_data_register(d.pivots[(size_t)K], tag++, d.rank(K, K));
}

// Whether this process's lower tiles of the caller's (src: exstar_mpi_dpotrf_tiles) hold NaN or inf.
bool local_nonfinite(const chol_desc &c, double *const *tiles, int64_t ldt)
{
  for (int64_t J = 0; J < c.d.nt; ++J)
    for (int64_t I = J; I < c.d.mt; ++I) {
      if (c.d.rank(I, J) != c.d.me) continue;
      const double *t = tiles[I + J * c.d.mt];
      const int64_t rows = c.rows(I), ld = ldt ? ldt : rows;
      for (int64_t j = 0; j < c.rows(J); ++j)
        for (int64_t i = I == J ? j : 0; i < rows; ++i)
          if (!std::isfinite(t[i + j * ld])) return true;
    }
  return false;
}

// rank 0's status and info of the factor (as exstar_dpotrf's), on every rank. tiles: the factor
// lies in the processes' tiles (nonfinite: this process's finding), else in A (lda) on rank 0.
// Collective.
int share_result(const char *who, int me, int64_t n, const double *A, int64_t lda, const int32_t *flags,
                 int64_t *info, bool tiles = false, bool nonfinite = false)
{
  int64_t st[2] = {EXSTAR_SUCCESS, 0};
  if (me == 0) {
    for (int64_t j = 0; j < n && st[1] == 0; ++j)
      if (flags[j] == 1) st[1] = j + 1;
    if (st[1] > 0) st[0] = EXSTAR_ERR_NOT_POSDEF;
    for (int64_t j = 0; !tiles && j < n && st[0] == EXSTAR_SUCCESS; ++j)
      for (int64_t i = j; i < n; ++i)
        if (!std::isfinite(A[i + j * lda])) st[0] = EXSTAR_ERR_NONFINITE;
  }
  if (tiles) { // the tiles' finding, everywhere: NaN or inf anywhere, unless not positive definite
    int bad = nonfinite ? 1 : 0, any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0 && any && st[0] == EXSTAR_SUCCESS) st[0] = EXSTAR_ERR_NONFINITE;
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

using exstar_mpi_rt::source;

// The local checks of each form.
int check_args(const char *who, int me, int64_t n, int64_t nb, int P, int Q, const source &src, const int64_t *info)
{
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  if (n < 0 || nb < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: n or nb < 0", who);
  if (!src.local) {
    if (me == 0 && (src.lda < (n > 1 ? n : 1) || (n > 0 && !src.A)))
      return exstar_set_error(EXSTAR_ERR_ARG, "%s: A is NULL or lda < max(1, n)", who);
    return EXSTAR_SUCCESS;
  }
  if (nb < 1) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nb < 1", who);
  if (src.ldt != 0 && src.ldt < nb && src.ldt < n)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: ldt %lld < min(nb, n)", who, (long long)src.ldt);
  const int64_t mt = (n + nb - 1) / nb;
  for (int64_t J = 0; J < mt; ++J)
    for (int64_t I = J; I < mt; ++I)
      if (exstar_mpi_tile_owner(I, J, P, Q) == me && (!src.tiles || !src.tiles[I + J * mt]))
        return exstar_set_error(EXSTAR_ERR_ARG, "%s: tile (%lld, %lld) of this process (%d) is NULL", who,
                                (long long)I, (long long)J, me);
  return EXSTAR_SUCCESS;
}

int potrf_mpi(const char *who, int64_t n, const source &src, int64_t *info, int64_t nb, int P, int Q, bool plain)
{
  exstar_rt::clear_error();
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  const int me = exstar_mpi_rank();
  const int exact_only = exstar_rt::exact_only();
  const int64_t shared[] = {n, nb, P, Q, plain ? 1 : 0, exact_only, src.local ? 1 : 0};
  if (int s = exstar_mpi_rt::same_everywhere(who, shared, 7)) return s;
  int s = exstar_mpi_rt::resolve_grid(who, &P, &Q);
  if (s == EXSTAR_SUCCESS) s = check_args(who, me, n, nb, P, Q, src, info);
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  *info = 0;
  if (n == 0) return EXSTAR_SUCCESS;
  if ((s = exstar_mpi_rt::require_potrf_workers(who, plain))) return s;
  if (nb == 0) nb = exstar_mpi_rt::default_tile(n, n);
  std::vector<int32_t> flags(me == 0 ? (size_t)n : 0);
  chol_desc c;
  c.d.me = me;
  exstar_mpi_rt::home_handles home;
  s = c.create(n, nb, nullptr, src.lda, nullptr, plain, false); // no data: the owners get copies
  if (s == EXSTAR_SUCCESS) register_owners(c, P, Q, src.local ? src.tiles : nullptr, src.ldt);
  if (s == EXSTAR_SUCCESS) s = exstar_mpi_rt::make_home(c.d, home, !src.local, true, src.A, src.lda, flags.data(), who);
  if (s == EXSTAR_SUCCESS) {
    mpi_submit ins{MPI_COMM_WORLD, me};
    s = exstar_rt::potrf_tiled_graph(ins, who, c, exact_only);
  }
  const int g = exstar_mpi_rt::gather_home(c.d, home, who);
  if (s == EXSTAR_SUCCESS) s = g;
  c.destroy(); // the caller's tiles (src.local) hold the factor once their handles are gone
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  if (!src.local) return share_result(who, me, n, src.A, src.lda, flags.data(), info);
  return share_result(who, me, n, nullptr, 0, flags.data(), info, true, local_nonfinite(c, src.tiles, src.ldt));
}

} // namespace

int exstar_mpi_dpotrf(int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb, int P, int Q)
{
  return potrf_mpi("exstar_mpi_dpotrf", n, source{A, lda}, info, nb, P, Q, false);
}

int exstar_mpi_dpotrf_tiles(int64_t n, int64_t nb, int P, int Q, double *const *tiles, int64_t ldt, int64_t *info)
{
  return potrf_mpi("exstar_mpi_dpotrf_tiles", n, source{nullptr, 0, true, tiles, ldt}, info, nb, P, Q, false);
}

int exstar_mpi_dpotrf_plain(int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb, int P, int Q)
{
  return potrf_mpi("exstar_mpi_dpotrf_plain", n, source{A, lda}, info, nb, P, Q, true);
}
