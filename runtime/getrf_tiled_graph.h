/* The tiled exact LU's task graph on tile indices, written once for one process
 * (runtime/getrf_tiled.cpp) and for StarPU-MPI (runtime/mpi/getrf.cpp). Per panel K:
 *   panel(K)             the unblocked chain on block column K            (priority: top)
 *                        (exact: also writes lcols[K], L's column as it leaves the panel, and
 *                        perms[K], the row order after it)
 *   laswp(K, J), J < K   the panel's interchanges on the L tiles left of it
 *   laswp(K, J), J > K   ... on the tiles and states right of it
 *   urow(K, J), J > K    block row K of U from its state and L(K, K)
 *   gemm(K, J), J > K    state(I, J) −= L(I, K)·U(K, J) for all I > K, one task a block column,
 *                        Level-3 fast                                    (block column K+1: high)
 * The tasks of block column K+1 are the critical path (high priority), the others go by deadline
 * (block column J's before block column J+1's: deadline_prio).
 * Every entry of L and U is rounded once from its state plus the panel's terms when the bound
 * proves it, else from the exact sum of all its terms (the kernels read them from the buffers the
 * task was given: the row of L, the column of U, the original a(i,j)). So the bits are the
 * unblocked definition's for every nb, scheduler, worker mix and number of processes.
 *
 * What moves. The exact path of a panel or a U row may need any row of L to its left, so those
 * tasks read L from the column copies lcols[0..K], which are written once and never
 * interchanged: a GPU or a process receives each copy once (the updates of step K read
 * lcols[K] too), instead of the L tiles again after every laswp. Tiles and states of block
 * column J are written by the tasks of block column J alone, so with one owner per block
 * column (1D block-cyclic: gpu_masks in one process, a 1 x Q grid over processes) no tile,
 * state or interchange crosses between owners; L's columns and the pivots do, as in the plain
 * graph. docs/distributed.md has the volumes.
 *
 * Submit is the inserter: task(place, cl, args...) submits one task (place: the rank that must
 * run it, or -1 for StarPU-MPI's owner rule, one process ignores it; the worker kinds that may
 * run it, STARPU_EXECUTE_WHERE, 0 for the codelet's own; the workers of the GPU it belongs to,
 * or none), runs_here(rank) says whether this process runs a task placed on that rank (a task it
 * does not run never sees its STARPU_CL_ARGS block, which the graph then frees). */
#ifndef EXSTAR_RUNTIME_GETRF_TILED_GRAPH_H
#define EXSTAR_RUNTIME_GETRF_TILED_GRAPH_H
#include "runtime/internal.h"
#include "runtime/getrf_tiled.h"
#include "codelets/codelets.h"
#include "codelets/lu_tiled.h"
#include "runtime/trace.h"
#include <cstdlib>
#include <cstring>
#include <vector>

namespace exstar_rt {
namespace tiled_graph {

inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// Where a task runs: a rank (-1: StarPU-MPI's owner rule), worker kinds (0: the codelet's), the
// workers of one GPU (NULL: any); and the task's tag in EXSTAR_TRACE's timeline (runtime/trace.h).
struct place {
  int rank;
  unsigned long long where;
  const uint32_t *gpu;
  unsigned len;
  void *trace = nullptr;
};

// p, recorded in the timeline as step K's task on block column J when EXSTAR_TRACE is set.
inline place traced(place p, const tiled_desc &d, int64_t K, int64_t J)
{
  if (trace::wanted()) p.trace = trace::tag(d.m, K, J);
  return p;
}

// The place of a task of block column J (a panel: J = K) on rank `rank`: the workers of its GPU
// when the descriptor spreads block columns over GPUs (its chain worker for a task above the
// default priority, the critical path, when tiled_desc::chain_masks splits them), else `where`.
inline place of_column(const tiled_desc &d, int64_t J, int rank, unsigned long long where, int prio = STARPU_DEFAULT_PRIO)
{
  place p{rank, where, nullptr, 0};
  p.gpu = d.gpu_mask(J, &p.len, prio > STARPU_DEFAULT_PRIO);
  if (p.gpu) p.where = STARPU_CUDA;
  return p;
}

// One process: StarPU's own task insertion; every task runs here, on the workers of its GPU when
// the graph places it on one (the graphs' inserter for one process; StarPU-MPI has its own).
struct local_submit {
  template <class... A>
  int task(const place &p, starpu_codelet *cl, A... args)
  {
    if (p.trace) return insert(p, cl, STARPU_CALLBACK_WITH_ARG_NFREE, trace::done, p.trace, args...);
    return insert(p, cl, args...);
  }
  template <class... A>
  static int insert(const place &p, starpu_codelet *cl, A... args)
  {
    if (p.gpu)
      return starpu_task_insert(cl, STARPU_EXECUTE_WHERE, p.where, STARPU_TASK_WORKERIDS, p.len, p.gpu, args..., 0);
    if (p.where) return starpu_task_insert(cl, STARPU_EXECUTE_WHERE, p.where, args..., 0);
    return starpu_task_insert(cl, args..., 0);
  }
  bool runs_here(int) const { return true; }
};

// Where a state task runs when the panel path is on the GPU: there too, if the codelet has a
// CUDA function. A state is 32 bytes an entry: an update moved to a CPU worker moves 16 MB of a
// 512² tile's state over PCIe and back (~0.6 ms) to save 54 us of GPU time, and 15 CPU cores do
// ~3% of the H100's exact gemm rate. (Measured, n = 8192, nb 512: GPU alone 1.15 s; 15 CPU
// workers + GPU with the updates free for dmda 2.06 s, 9.2 GB moved.)
inline unsigned long long gpu_only(const tiled_desc &d, const starpu_codelet &cl)
{
  return d.panel_where == STARPU_CUDA && cl.cuda_funcs[0] ? STARPU_CUDA : 0;
}

// A task's buffer list and the argument block describing it.
struct tiled_task {
  std::vector<starpu_data_descr> descr;
  std::vector<exstar_lu_tiled_buf> bufs;
  int32_t gate = 0; // exstar_lu_tiled_args::gate
  void add(starpu_data_handle_t h, enum starpu_data_access_mode mode, int64_t I, int64_t J, int kind)
  {
    starpu_data_descr d;
    d.handle = h;
    d.mode = mode;
    descr.push_back(d);
    bufs.push_back(exstar_lu_tiled_buf{(int32_t)I, (int32_t)J, (int32_t)kind});
  }
  template <class Submit>
  int submit(Submit &ins, int on, starpu_codelet *cl, const tiled_desc &d, int64_t K, int64_t J, int prio,
             int exact_only, const char *who)
  {
    const size_t size = sizeof(exstar_lu_tiled_args) + bufs.size() * sizeof(exstar_lu_tiled_buf);
    exstar_lu_tiled_args *h = (exstar_lu_tiled_args *)std::malloc(size); // freed by StarPU with the task
    if (!h) return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
    *h = exstar_lu_tiled_args{d.m, d.n, d.nb, d.mt, d.nt, K, J, exact_only, (int32_t)bufs.size(), gate, 0};
    std::memcpy(h + 1, bufs.data(), bufs.size() * sizeof(exstar_lu_tiled_buf));
    // the panel path's place (tiled_desc::panel_where, the GPU of block column J), else
    // wherever the codelet runs
    int ret = ins.task(traced(of_column(d, J, on, d.panel_where, prio), d, K, J), cl, STARPU_DATA_MODE_ARRAY, descr.data(), (int)descr.size(),
                       STARPU_CL_ARGS, h, size, STARPU_PRIORITY, prio, STARPU_NAME, cl->name);
    if (!ins.runs_here(on)) std::free(h);
    return ret == 0 ? EXSTAR_SUCCESS : submit_status(ret, who);
  }
};

// The states of block column J from its tiles: one task a block column (W: the tiles cover the
// whole state, so StarPU neither zeroes it first nor orders it after anything). A task a tile
// serialized the column's mt tasks on its state's handle: on a GPU each waited for the one
// before (measured, one H200, n = 32768: panel 0 started 73-92 ms after the first).
template <class Submit>
int init_states(Submit &ins, const char *who, const tiled_desc &d)
{
  std::vector<starpu_data_descr> descr((size_t)d.mt + 1);
  for (int64_t J = 0; J < d.nt; ++J) {
    for (int64_t I = 0; I < d.mt; ++I) descr[(size_t)I].handle = d.tile(I, J), descr[(size_t)I].mode = STARPU_R;
    descr[(size_t)d.mt].handle = d.state(J), descr[(size_t)d.mt].mode = STARPU_W;
    exstar_state_init_tiles_args a{d.mt};
    // on the owner of the block column's states
    const unsigned long long where = gpu_only(d, exstar_state_init_tiles_cl);
    int ret = ins.task(traced(of_column(d, J, d.ranks.empty() ? -1 : d.state_rank(J), where), d, trace::kSetup, J),
                       &exstar_state_init_tiles_cl, STARPU_DATA_MODE_ARRAY, descr.data(), (int)descr.size(), STARPU_VALUE,
                       &a, sizeof a, STARPU_NAME, "exstar_state_init");
    if (ret != 0) return submit_status(ret, who);
  }
  return EXSTAR_SUCCESS;
}

// L's column copies and row orders of the panels before `upto`.
inline void add_copies(tiled_task &t, const tiled_desc &d, int64_t upto, enum starpu_data_access_mode mode)
{
  for (int64_t L = 0; L < upto; ++L) {
    t.add(d.lcols[(size_t)L], mode, 0, L, EXSTAR_LU_LCOL);
    t.add(d.perms[(size_t)L], mode, 0, L, EXSTAR_LU_PERM);
  }
}

// Whether one process owns every tile of block column J (one process, or a 1 x Q grid).
inline bool one_owner(const tiled_desc &d, int64_t J)
{
  for (int64_t I = 1; I < d.mt && !d.ranks.empty(); ++I)
    if (d.rank(I, J) != d.rank(0, J)) return false;
  return true;
}

template <class Submit>
int panel(Submit &ins, const char *who, const tiled_desc &d, int64_t K, int exact_only, bool plain)
{
  tiled_task t;
  for (int64_t I = K; I < d.mt; ++I) t.add(d.tile(I, K), STARPU_RW, I, K, EXSTAR_LU_TILE);
  if (!plain) { // LAPACK's panel reads nothing else
    t.add(d.state(K), STARPU_R, -1, K, EXSTAR_LU_STATE); // read: the kernels take a copy
    for (int64_t I = 0; I < K; ++I) t.add(d.tile(I, K), STARPU_R, I, K, EXSTAR_LU_TILE);
    add_copies(t, d, K, STARPU_R); // L left of the panel, for the exact path
    t.add(d.lcols[(size_t)K], STARPU_W, 0, K, EXSTAR_LU_LCOL);
    t.add(d.perms[(size_t)K], STARPU_W, 0, K, EXSTAR_LU_PERM);
  }
  // the plain updates' L where they read it (a 1 x Q grid, one process; else a task a tile reads L's tiles)
  if (plain && !d.lcols.empty() && one_owner(d, K)) t.add(d.lcols[(size_t)K], STARPU_W, 0, K, EXSTAR_LU_LCOL);
  t.add(d.pivots[(size_t)K], STARPU_W, 0, 0, EXSTAR_LU_IPIV);
  t.gate = d.gate_panels && !plain;
  return t.submit(ins, d.rank(K, K), plain ? &exstar_lu_plain_panel_cl : &exstar_lu_panel_cl, d, K, K,
                  STARPU_MAX_PRIO, exact_only, who);
}

inline int high_prio() { return STARPU_MAX_PRIO > 1 ? STARPU_MAX_PRIO - 1 : STARPU_MAX_PRIO; }

// The priority of a task off the critical path that block column J needs before it becomes the
// panel: its deadline, lower J first (below the default priority, clamped to the scheduler's
// range). With the default priority for them all, the prio scheduler ran them in the order they
// became ready, and step K-1's update of block column K+1, which step K's chain waits for, queued
// behind the updates of every later column: one H200, n = 32768, block column K+1's tasks ended
// 110-155 ms after panel K in the early steps though they ran for 5-15 ms.
inline int deadline_prio(int64_t J)
{
  const int64_t lowest = STARPU_MIN_PRIO < STARPU_DEFAULT_PRIO ? STARPU_MIN_PRIO : STARPU_DEFAULT_PRIO;
  const int64_t p = (int64_t)STARPU_DEFAULT_PRIO - J;
  return (int)(p < lowest ? lowest : p);
}

// A task of step K on block column J: block column K+1's are the critical path (high); the
// interchanges left of the panel (J < K) go with block column K+2's tasks.
inline int column_prio(int64_t K, int64_t J)
{
  return J == K + 1 ? high_prio() : deadline_prio(J > K ? J : K + 2);
}

// The interchanges of panel K on block column J (tiles, and states right of the panel).
template <class Submit>
int laswp(Submit &ins, const char *who, const tiled_desc &d, int64_t K, int64_t J, int exact_only, bool plain)
{
  tiled_task t;
  for (int64_t I = K; I < d.mt; ++I) t.add(d.tile(I, J), STARPU_RW, I, J, EXSTAR_LU_TILE);
  if (J > K && !plain) t.add(d.state(J), STARPU_RW, -1, J, EXSTAR_LU_STATE);
  t.add(d.pivots[(size_t)K], STARPU_R, 0, 0, EXSTAR_LU_IPIV);
  starpu_codelet *cl = d.mt - K <= EXSTAR_LU_LASWP_DEVICE_TILES ? &exstar_lu_laswp_cl : &exstar_lu_laswp_host_cl;
  return t.submit(ins, J > K && !plain ? d.state_rank(J) : d.rank(K, J), cl, d, K, J,
                  column_prio(K, J), exact_only, who);
}

// Block row K of U in block column J > K.
template <class Submit>
int urow(Submit &ins, const char *who, const tiled_desc &d, int64_t K, int64_t J, int exact_only, bool plain)
{
  tiled_task t;
  const int prio = column_prio(K, J);
  t.add(d.tile(K, J), STARPU_RW, K, J, EXSTAR_LU_TILE);
  if (plain) {
    t.add(d.tile(K, K), STARPU_R, K, K, EXSTAR_LU_TILE);
    return t.submit(ins, d.rank(K, J), &exstar_lu_plain_urow_cl, d, K, J, prio, exact_only, who);
  }
  t.add(d.state(J), STARPU_RW, -1, J, EXSTAR_LU_STATE); // the GPU kernel may spend block row K's
  add_copies(t, d, K + 1, STARPU_R); // block row K of L: L(K, K) and, for the exact path, left of it
  for (int64_t I = 0; I < K; ++I) t.add(d.tile(I, J), STARPU_R, I, J, EXSTAR_LU_TILE);
  return t.submit(ins, d.state_rank(J), &exstar_lu_urow_cl, d, K, J, prio, exact_only, who);
}

// Block column J below block row K takes panel K's terms: its states −= L(I, K)·U(K, J) for every
// I > K in one task (the Level-3 state codelet on the column copy of L and the state handle), or
// in plain double its tiles −= L(I, K)·U(K, J) by dgemm (one task, a dgemm a tile). On the owner
// of the block column (its GPU, its process).
template <class Submit>
int update(Submit &ins, const char *who, const tiled_desc &d, int64_t K, int64_t J, bool plain)
{
  const int prio = column_prio(K, J);
  const int64_t r0 = (K + 1) * d.nb; // the rows below block row K
  if (r0 >= d.m) return EXSTAR_SUCCESS;
  if (plain && !one_owner(d, J)) { // a tile a task, on the tile's owner (a P x Q grid, P > 1)
    for (int64_t I = K + 1; I < d.mt; ++I) {
      int ret = ins.task(place{-1, 0, nullptr, 0}, &exstar_lu_plain_gemm_cl, STARPU_R, d.tile(I, K), STARPU_R,
                         d.tile(K, J), STARPU_RW, d.tile(I, J), STARPU_PRIORITY, prio, STARPU_NAME, "exstar_lu_plain_gemm");
      if (ret != 0) return submit_status(ret, who);
    }
    return EXSTAR_SUCCESS;
  }
  if (plain) {
    tiled_task t;
    if (!d.lcols.empty()) t.add(d.lcols[(size_t)K], STARPU_R, 0, K, EXSTAR_LU_LCOL); // L: panel K's copy
    else
      for (int64_t I = K + 1; I < d.mt; ++I) t.add(d.tile(I, K), STARPU_R, I, K, EXSTAR_LU_TILE);
    t.add(d.tile(K, J), STARPU_R, K, J, EXSTAR_LU_TILE);
    for (int64_t I = K + 1; I < d.mt; ++I) t.add(d.tile(I, J), STARPU_RW, I, J, EXSTAR_LU_TILE);
    return t.submit(ins, d.rank(K + 1, J), &exstar_lu_plain_gemm_col_cl, d, K, J, prio, 0, who);
  }
  exstar_gemm_args a;
  std::memset(&a, 0, sizeof a);
  a.transa = 'N', a.transb = 'N', a.alpha = -1.0;
  a.m = d.m - r0, a.n = min64(d.nb, d.n - J * d.nb);
  a.k = min64(d.nb, min64(d.m, d.n) - K * d.nb); // panel K's columns of L
  a.ia = d.nb;                                    // L below block row K in the column copy
  a.ic = r0;
  int ret = ins.task(traced(of_column(d, J, d.ranks.empty() ? -1 : d.state_rank(J), gpu_only(d, exstar_state_gemm_cl), prio),
                            d, K, J),
                     &exstar_state_gemm_cl, STARPU_R, d.lcols[(size_t)K], STARPU_R, d.tile(K, J), STARPU_RW, d.state(J),
                     STARPU_VALUE, &a, sizeof a, STARPU_PRIORITY, prio, STARPU_NAME, "exstar_lu_gemm");
  return ret == 0 ? EXSTAR_SUCCESS : submit_status(ret, who);
}

} // namespace tiled_graph

/* The whole LU graph on d's tiles through the inserter (see the top of this file). */
template <class Submit>
int getrf_tiled_graph(Submit &ins, const char *who, const tiled_desc &d, int exact_only, bool plain)
{
  using namespace tiled_graph;
  int s = plain ? EXSTAR_SUCCESS : init_states(ins, who, d);
  for (int64_t K = 0; K < d.kt && s == 0; ++K) {
    s = panel(ins, who, d, K, exact_only, plain);
    for (int64_t J = 0; J < d.nt && s == 0; ++J)
      if (J != K) s = laswp(ins, who, d, K, J, exact_only, plain);
    for (int64_t J = K + 1; J < d.nt && s == 0; ++J) s = urow(ins, who, d, K, J, exact_only, plain);
    for (int64_t J = K + 1; J < d.nt && s == 0; ++J) s = update(ins, who, d, K, J, plain);
  }
  return s;
}

} // namespace exstar_rt
#endif
