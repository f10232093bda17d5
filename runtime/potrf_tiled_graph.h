/* The tiled exact Cholesky's descriptor and task graph on tile indices, written once for one
 * process (runtime/potrf.cpp) and for StarPU-MPI (runtime/mpi/potrf.cpp). Chameleon's tiled
 * Cholesky, with a GEMM-accumulate state per lower tile; per panel K:
 *   diag(K)          the definition's chain on the diagonal tile, its roots (CPU, CUDA) (priority: top)
 *   trsm(K, I)       tile (I, K) of L for I > K, from its state and the diagonal tile (CPU, CUDA), the
 *                    tiles of a block column concurrently                      (I = K+1: top)
 *   update(K, I, J)  state(I, J) −= L(I, K)·L(J, K)ᵀ for I >= J > K, the Level-3 state codelet
 *                    on any worker (exstar_state_gemm_cl: CPU, CUDA, OpenCL)   (J = K+1: high);
 *                    I == J: uplo 'L', only the lower triangle (the plain graph's dsyrk)
 * That is the tile shape (CPU workers, StarPU-MPI). The column shape (chol_desc::columns; one
 * process on GPUs) is the LU's: a state handle a block column, and per panel K
 *   column(K)        the whole block column K of L and its column copy lcols[K]  (priority: top)
 *   update(K, J)     block column J's states −= L(J.., K)·L(J, K)ᵀ for J > K, one task, L from
 *                    lcols[K]                                   (J = K+1: high, else deadline)
 * Every entry is rounded once from its state plus the panel's own terms when the bound proves
 * it, else from the exact sum of all its terms, and every diagonal entry from the exact value
 * under its root: so the bits are the definition's for every nb, scheduler, worker mix and
 * number of processes. plain: the same graph with LAPACK/BLAS kernels on the tiles (no states).
 *
 * What moves. A task runs where the tile it writes lives (a state with its tile). The exact path
 * of trsm(K, I) reads the rows of L left of the panel, tiles (I, L) and (K, L) for L < K: the
 * process of tile (I, K) already received each of them for update(L, I, K), and StarPU-MPI keeps
 * received data that is not written again, so they do not travel again. The exact graph moves
 * what the plain graph moves; states never move. */
#ifndef EXSTAR_RUNTIME_POTRF_TILED_GRAPH_H
#define EXSTAR_RUNTIME_POTRF_TILED_GRAPH_H
#include "runtime/internal.h"
#include "runtime/getrf_tiled.h"
#include "runtime/getrf_tiled_graph.h"
#include "codelets/potrf_tiled.h"
#include <cstdlib>
#include <cstring>
#include <vector>

namespace exstar_rt {

/* The Cholesky's tiles (the LU's descriptor without its states and copies; the pivot handles
 * carry the diagonal tasks' root flags) and a GEMM-accumulate state per lower tile, so that the
 * updates of different tiles of a block column run concurrently and a panel task waits only for
 * its own tile's updates. */
struct chol_desc {
  tiled_desc d;
  bool plain = false;
  std::vector<starpu_data_handle_t> st; // st[I + J mt], I >= J; empty: plain, or the column shape
  /* The column shape (columns(): the exact graph in one process on GPUs, as the LU's): block
   * column J's states one handle, rows [J nb, n) (cst[J]), and L's block column K as panel K
   * leaves it, rows [K nb, n) (lcols[K], written once), so that one task a step updates a whole
   * block column from one handle of L (a 512^3 update a tile was ~30 launches of small int8
   * GEMMs: one H200, n = 16384, 5456 of them took 822 ms), and the panels' exact path reads L
   * left of them from the copies (K handles, not 2K tiles a task). The copies are the LU's
   * (d.lcols, registered by tiled_desc::add_copies; no row orders). */
  bool columns = false;
  std::vector<starpu_data_handle_t> cst;
  starpu_data_handle_t &state(int64_t I, int64_t J) { return st[(size_t)(I + J * d.mt)]; }
  starpu_data_handle_t state(int64_t I, int64_t J) const { return st[(size_t)(I + J * d.mt)]; }
  int64_t rows(int64_t I) const { return I * d.nb + d.nb <= d.n ? d.nb : d.n - I * d.nb; }
  /* Where the exact graph's tasks run: on CUDA workers when there are any and the panels have
   * CUDA kernels (then no state ever leaves the GPU: 32 bytes an entry, which the CPU panels
   * fetched and the updates sent back at every step), else anywhere (0). As the LU's panel path
   * (tiled_desc::panel_where). */
  static unsigned long long where()
  {
    return starpu_cuda_worker_get_count() > 0 && exstar_potrf_diag_cl.cuda_funcs[0] ? STARPU_CUDA : 0;
  }
  /* With several GPUs and the exact graph on them: tile row I (its tiles and states, and every
   * task that writes them) on GPU I mod g, 1D block-cyclic by rows (tiled_desc::gpu_mask of I),
   * so that states never move between GPUs: an update of (I, J) reads L(I, K) where it is and
   * L(J, K) from its owner, the panel tasks of row I read the diagonal tile and, for the exact
   * path, tiles of rows I and K that the updates of row I already brought. Else StarPU places
   * every task (on the GPUs when where() says so). */
  void place_on_gpus()
  {
    d.gpu_masks.clear(), d.chain_masks.clear(), d.rest_masks.clear();
    if (d.panel_where != STARPU_CUDA) return;
    if (columns) return d.place_on_gpus(false); // the LU's: block column J on GPU J mod g
    d.gpu_masks = gpu_worker_masks();
    if (d.gpu_masks.size() < 2) d.gpu_masks.clear(); // one GPU: StarPU's choice is the same
  }
  /* Whether the exact graph of one process takes the column shape: on one GPU (where() is CUDA),
   * or as EXSTAR_POTRF_COLUMNS says (1: always, 0: never; the tests run both shapes). CPU workers
   * keep a task a tile: their updates are fast at any size, and a task a block column would put
   * the column's trsm on one core. So do several GPUs: the tiles below a diagonal tile, on the
   * GPUs of their rows, then run on all of them (4 H200s, n = 16384, nb 512: 0.20 s a task a
   * tile, 0.36 s a task a block column). */
  bool want_columns() const
  {
    return env_switch("EXSTAR_POTRF_COLUMNS", d.panel_where == STARPU_CUDA && gpu_worker_masks().size() == 1);
  }
  /* The states (a handle a tile, or a block column's and the column copies). */
  int register_states()
  {
    if (columns) {
      if (d.lcols.size() != (size_t)d.kt) d.add_copies();
      cst.assign((size_t)d.nt, nullptr);
      for (int64_t J = 0; J < d.nt; ++J)
        if (int s = exstar_state_register(&cst[(size_t)J], d.n - J * d.nb, rows(J))) return s;
      return EXSTAR_SUCCESS;
    }
    st.assign((size_t)(d.mt * d.nt), nullptr);
    for (int64_t J = 0; J < d.nt; ++J)
      for (int64_t I = J; I < d.mt; ++I)
        if (int s = exstar_state_register(&state(I, J), rows(I), rows(J))) return s;
    return EXSTAR_SUCCESS;
  }
  /* home: the tiles over L (ld), the flags over flags (one process); else registered without
   * data (a distributed run fills them). */
  int create(int64_t n, int64_t nb, double *L, int64_t ld, int32_t *flags, bool plain_, bool home = true)
  {
    plain = plain_;
    if (int s = d.create(n, n, nb, L, ld, flags, false, home)) return s;
    d.panel_where = plain ? 0 : where();
    columns = !plain && home && want_columns();
    place_on_gpus();
    return plain ? EXSTAR_SUCCESS : register_states();
  }
  /* Over tile handles that exist already (a descriptor's: kept, not unregistered here): the
   * flags of panel K over flags + K nb, the states. */
  int attach(const tiled_desc &tiles_of, int32_t *flags)
  {
    d.m = d.n = tiles_of.n, d.nb = tiles_of.nb, d.mt = d.nt = d.kt = tiles_of.nt;
    d.tiles = tiles_of.tiles;
    d.own_tiles = false, d.at_home = false, plain = false;
    d.panel_where = where();
    columns = want_columns();
    place_on_gpus();
    d.pivots.assign((size_t)d.kt, nullptr);
    for (int64_t K = 0; K < d.kt; ++K)
      starpu_vector_data_register(&d.pivots[(size_t)K], STARPU_MAIN_RAM, (uintptr_t)(flags + K * d.nb),
                                  (uint32_t)rows(K), sizeof(int32_t));
    return register_states();
  }
  /* The states unregistered once their tasks are done (no wait), then d released (waits for the
   * flags). */
  void destroy()
  {
    for (std::vector<starpu_data_handle_t> *v : {&st, &cst})
      for (starpu_data_handle_t &h : *v)
        if (h) starpu_data_unregister_submit(h), h = nullptr;
    d.destroy();
  }
};

namespace potrf_graph {

// The task that writes tile (I, J) (or its state) runs on its owner: its process, and the GPU of
// tile row I (chol_desc::place_on_gpus), or any GPU when the panels run there and the codelet
// can.
inline tiled_graph::place on(const chol_desc &c, int64_t I, int64_t J, const starpu_codelet &cl)
{
  return tiled_graph::of_column(c.d, I, c.d.ranks.empty() ? -1 : c.d.rank(I, J), tiled_graph::gpu_only(c.d, cl));
}

// The states of the lower tiles := the tiles (one exact term each). W: the tile covers its
// state, so StarPU does not zero the state first.
template <class Submit>
int init_states(Submit &ins, const char *who, const chol_desc &c)
{
  const exstar_state_init_tiles_args a{1};
  for (int64_t J = 0; J < c.d.nt; ++J)
    for (int64_t I = J; I < c.d.mt; ++I) {
      int ret = ins.task(on(c, I, J, exstar_state_init_tiles_cl), &exstar_state_init_tiles_cl, STARPU_R, c.d.tile(I, J),
                         STARPU_W, c.state(I, J), STARPU_VALUE, &a, sizeof a, STARPU_NAME, "exstar_potrf_state_init");
      if (ret != 0) return submit_status(ret, who);
    }
  return EXSTAR_SUCCESS;
}

// Tile (I, K) of L (I == K: the diagonal tile and its roots): its state, the diagonal tile, and
// for the exact path the rows of L left of the panel (tiles (I, 0..K-1) and (K, 0..K-1)).
template <class Submit>
int panel(Submit &ins, const char *who, const chol_desc &c, int64_t K, int64_t I, int exact_only)
{
  const tiled_desc &d = c.d;
  tiled_graph::tiled_task t;
  t.add(d.tile(I, K), STARPU_RW, I, K, EXSTAR_LU_TILE);
  if (I != K) t.add(d.tile(K, K), STARPU_R, K, K, EXSTAR_LU_TILE);
  if (!c.plain) {
    t.add(c.state(I, K), STARPU_R, I, K, EXSTAR_LU_TILE_STATE); // read: the kernel takes a copy
    for (int64_t L = 0; L < K; ++L) {
      t.add(d.tile(K, L), STARPU_R, K, L, EXSTAR_LU_TILE);
      if (I != K) t.add(d.tile(I, L), STARPU_R, I, L, EXSTAR_LU_TILE);
    }
  }
  if (I == K) t.add(d.pivots[(size_t)K], STARPU_W, 0, 0, EXSTAR_LU_IPIV); // the root flags
  const int prio = I <= K + 1 ? STARPU_MAX_PRIO : tiled_graph::high_prio();
  starpu_codelet *cl = I == K ? (c.plain ? &exstar_potrf_plain_diag_cl : &exstar_potrf_diag_cl)
                              : (c.plain ? &exstar_potrf_plain_trsm_cl : &exstar_potrf_trsm_cl);
  return t.submit(ins, d.rank(I, K), cl, d, K, I, prio, exact_only, who);
}

// state(I, J) −= L(I, K)·L(J, K)ᵀ for I >= J > K: the Level-3 state codelet on two tiles of L
// (plain: the tile itself, by dgemm or dsyrk).
template <class Submit>
int update(Submit &ins, const char *who, const chol_desc &c, int64_t K, int64_t I, int64_t J, int exact_only)
{
  const int prio = tiled_graph::column_prio(K, J); // state(I, J) is due at step J
  int ret;
  if (c.plain) {
    const int diagonal = I == J;
    ret = ins.task(on(c, I, J, exstar_potrf_plain_update_cl), &exstar_potrf_plain_update_cl, STARPU_R, c.d.tile(I, K),
                   STARPU_R, c.d.tile(J, K),
                   STARPU_RW, c.d.tile(I, J), STARPU_VALUE, &diagonal, sizeof diagonal, STARPU_PRIORITY, prio,
                   STARPU_NAME, "exstar_potrf_plain_update");
  } else {
    exstar_gemm_args a;
    std::memset(&a, 0, sizeof a);
    a.transa = 'N', a.transb = 'T', a.alpha = -1.0;
    a.m = c.rows(I), a.n = c.rows(J), a.k = c.rows(K);
    a.exact_only = exact_only;
    a.uplo = I == J ? 'L' : 0; // a diagonal tile's state is read on and below its diagonal only
    ret = ins.task(on(c, I, J, exstar_state_gemm_cl), &exstar_state_gemm_cl, STARPU_R, c.d.tile(I, K), STARPU_R,
                   c.d.tile(J, K), STARPU_RW,
                   c.state(I, J), STARPU_VALUE, &a, sizeof a, STARPU_PRIORITY, prio, STARPU_NAME,
                   "exstar_potrf_update");
  }
  return ret == 0 ? EXSTAR_SUCCESS : submit_status(ret, who);
}

// ---- The column shape (chol_desc::columns): every task of block column J on GPU J mod g ----

// The states of block column J from its tiles (J..mt-1, J): one task a block column.
template <class Submit>
int init_column_states(Submit &ins, const char *who, const chol_desc &c)
{
  const tiled_desc &d = c.d;
  for (int64_t J = 0; J < d.nt; ++J) {
    std::vector<starpu_data_descr> descr;
    for (int64_t I = J; I < d.mt; ++I) descr.push_back(starpu_data_descr{d.tile(I, J), STARPU_R});
    descr.push_back(starpu_data_descr{c.cst[(size_t)J], STARPU_W});
    const exstar_state_init_tiles_args a{d.mt - J};
    int ret = ins.task(tiled_graph::traced(tiled_graph::of_column(d, J, -1, tiled_graph::gpu_only(d, exstar_state_init_tiles_cl)),
                                           d, trace::kSetup, J),
                       &exstar_state_init_tiles_cl, STARPU_DATA_MODE_ARRAY, descr.data(), (int)descr.size(), STARPU_VALUE,
                       &a, sizeof a, STARPU_NAME, "exstar_potrf_state_init");
    if (ret != 0) return submit_status(ret, who);
  }
  return EXSTAR_SUCCESS;
}

// Block column K of L in one task: the diagonal tile and its roots, the tiles below it, then its
// column copy lcols[K]; the exact path reads L left of it from lcols[0..K-1].
template <class Submit>
int panel_column(Submit &ins, const char *who, const chol_desc &c, int64_t K, int exact_only)
{
  const tiled_desc &d = c.d;
  tiled_graph::tiled_task t;
  for (int64_t I = K; I < d.mt; ++I) t.add(d.tile(I, K), STARPU_RW, I, K, EXSTAR_LU_TILE);
  t.add(c.cst[(size_t)K], STARPU_RW, K, K, EXSTAR_LU_STATE); // spent by the GPU kernel (no copy)
  for (int64_t L = 0; L < K; ++L) t.add(d.lcols[(size_t)L], STARPU_R, 0, L, EXSTAR_LU_LCOL);
  t.add(d.lcols[(size_t)K], STARPU_W, 0, K, EXSTAR_LU_LCOL);
  t.add(d.pivots[(size_t)K], STARPU_W, 0, 0, EXSTAR_LU_IPIV); // the root flags
  return t.submit(ins, 0, &exstar_potrf_column_cl, d, K, K, STARPU_MAX_PRIO, exact_only, who);
}

// Block column J > K takes panel K's terms: its states (rows [J nb, n)) −= L(J.., K)·L(J, K)ᵀ,
// L from the column copy, in one task; only the entries on and below the diagonal are needed.
template <class Submit>
int update_column(Submit &ins, const char *who, const chol_desc &c, int64_t K, int64_t J, int exact_only)
{
  const tiled_desc &d = c.d;
  const int prio = tiled_graph::column_prio(K, J);
  exstar_gemm_args a;
  std::memset(&a, 0, sizeof a);
  a.transa = 'N', a.transb = 'T', a.alpha = -1.0;
  a.m = d.n - J * d.nb, a.n = c.rows(J), a.k = c.rows(K);
  a.ia = (J - K) * d.nb; // row J nb in the copy of block column K
  a.exact_only = exact_only;
  a.uplo = 'L';
  int ret = ins.task(tiled_graph::traced(tiled_graph::of_column(d, J, -1, tiled_graph::gpu_only(d, exstar_state_gemm_cl), prio),
                                         d, K, J),
                     &exstar_state_gemm_cl, STARPU_R, d.lcols[(size_t)K], STARPU_R, d.tile(J, K), STARPU_RW,
                     c.cst[(size_t)J], STARPU_VALUE, &a, sizeof a, STARPU_PRIORITY, prio, STARPU_NAME,
                     "exstar_potrf_update");
  return ret == 0 ? EXSTAR_SUCCESS : submit_status(ret, who);
}

} // namespace potrf_graph

/* The column shape's graph (one process): per step, the panel, then an update a block column. */
template <class Submit>
int potrf_column_graph(Submit &ins, const char *who, const chol_desc &c, int exact_only)
{
  using namespace potrf_graph;
  int s = init_column_states(ins, who, c);
  for (int64_t K = 0; K < c.d.mt && s == EXSTAR_SUCCESS; ++K) {
    s = panel_column(ins, who, c, K, exact_only);
    for (int64_t J = K + 1; J < c.d.mt && s == EXSTAR_SUCCESS; ++J) s = update_column(ins, who, c, K, J, exact_only);
  }
  return s;
}

/* The whole Cholesky graph on c's lower tiles through the inserter (see the top of this file). */
template <class Submit>
int potrf_tiled_graph(Submit &ins, const char *who, const chol_desc &c, int exact_only)
{
  using namespace potrf_graph;
  if (c.columns) return potrf_column_graph(ins, who, c, exact_only);
  const int64_t mt = c.d.mt;
  int s = c.plain ? EXSTAR_SUCCESS : init_states(ins, who, c);
  for (int64_t K = 0; K < mt && s == EXSTAR_SUCCESS; ++K) {
    for (int64_t I = K; I < mt && s == EXSTAR_SUCCESS; ++I) s = panel(ins, who, c, K, I, exact_only);
    for (int64_t J = K + 1; J < mt; ++J)
      for (int64_t I = J; I < mt && s == EXSTAR_SUCCESS; ++I) s = update(ins, who, c, K, I, J, exact_only);
  }
  return s;
}

/* The graph of one process on c (StarPU places every task; runtime/potrf.cpp). */
int potrf_tiled_insert(const char *who, const chol_desc &c, int exact_only);

/* Whether the Cholesky graph can run on the workers there are: its diagonal and panel codelets
 * need a CPU worker (plain: and LAPACK at build time) or a CUDA worker (where exstar was built
 * with its CUDA kernels). */
inline bool potrf_runs(bool plain)
{
  const starpu_codelet &cl = plain ? exstar_potrf_plain_diag_cl : exstar_potrf_diag_cl;
  return (starpu_cpu_worker_get_count() > 0 && cl.cpu_funcs[0] != nullptr) ||
         (starpu_cuda_worker_get_count() > 0 && cl.cuda_funcs[0] != nullptr);
}

/* The memory the tiled Cholesky allocates beyond A: the states of the lower tiles (32 bytes an
 * entry) and, in the column shape, L's column copies (8 more; neither for plain), a copy of the
 * tiles a second memory node may hold, the flags. */
int64_t potrf_bytes(int64_t n, int64_t nb, bool plain);

} // namespace exstar_rt
#endif
