// Drivers of trsv and refined trsv: blocking calls and task insertion.
//
// The graph of one solve, for each block I in substitution order: the diagonal-block task
// substitutes (its accumulators hold −Σ_K op(T)_IK·x_K over the blocks K solved before), a copy
// of the solved x_I goes to a handle of its own, and one gemv_acc task per later block row J adds
// −op(T)_JI·x_I into J's accumulators (α = −1, so every term keeps its own IEEE zero sign). The
// tile tasks wait for the x_I they read only: lookahead by StarPU's dependencies. The residual
// of refinement gathers each block row's terms in at most one task per worker (REDUX).
#include "runtime/internal.h"
#include "runtime/check_handles.h"
#include "codelets/codelets.h"
#include <cctype>
#include <cstring>
#include <vector>

namespace {

using exstar_rt::subvector_offset;

// Default block rows: 256 on CPUs; 16384 when CUDA workers run: the GPU's diagonal-block solve
// is a wave over the whole device (kernels_cuda/trsv.cu) that adds the block's off-diagonal
// terms itself, so one block row per 16384 rows leaves nothing to the graph but that task
// (H100, n = 16384: 1.9 ms through StarPU, against 8.1 ms with blocks of 512). The bits never
// depend on it.
int64_t default_nb()
{
  return starpu_cuda_worker_get_count() > 0 ? 16384 : 256;
}
constexpr int64_t kMaxChunk = 1 << 24; // columns per gemv_acc task (its 2^26 terms bound)

struct solve_geom {
  char uplo, trans, diag; // normalized upper case
  int64_t n;
  starpu_data_handle_t T;
  int64_t it, jt;
  int64_t nb;
  bool forward() const { return (uplo == 'L') != (trans == 'T'); }
};

char upper(char c) { return (char)std::toupper((unsigned char)c); }

// Checks and normalizes the three option characters.
int check_options(const char *who, char uplo, char trans, char diag, solve_geom *g)
{
  g->uplo = upper(uplo);
  g->trans = upper(trans) == 'C' ? 'T' : upper(trans);
  g->diag = upper(diag);
  if (g->uplo != 'L' && g->uplo != 'U') return exstar_set_error(EXSTAR_ERR_ARG, "%s: uplo = '%c'", who, uplo);
  if (g->trans != 'N' && g->trans != 'T') return exstar_set_error(EXSTAR_ERR_ARG, "%s: trans = '%c'", who, trans);
  if (g->diag != 'N' && g->diag != 'U') return exstar_set_error(EXSTAR_ERR_ARG, "%s: diag = '%c'", who, diag);
  return EXSTAR_SUCCESS;
}

int check_insert(const char *who, char uplo, char trans, char diag, int64_t n, starpu_data_handle_t T, int64_t it,
                 int64_t jt, starpu_data_handle_t x, int64_t offx, int64_t incx, solve_geom *g)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_options(who, uplo, trans, diag, g)) return s;
  if (n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: n = %lld < 0", who, (long long)n);
  if (int s = exstar_rt::check_matrix_handle(who, "T", T, it, jt, n, n)) return s;
  if (int s = exstar_rt::check_fits(who, "T", n > 0 ? T : nullptr)) return s;
  g->n = n;
  g->T = T;
  g->it = it;
  g->jt = jt;
  return exstar_rt::check_vector_handle(who, "x", x, n, offx, incx);
}

// Block I: rows [I0, I0 + len); the other blocks of its row in the triangle: columns [c0, c1).
struct block_row {
  int64_t I0, len, c0, c1;
};
block_row block_of(const solve_geom &g, int64_t I)
{
  block_row b;
  b.I0 = I * g.nb;
  b.len = g.n - b.I0 < g.nb ? g.n - b.I0 : g.nb;
  b.c0 = g.forward() ? 0 : b.I0 + b.len;
  b.c1 = g.forward() ? b.I0 : g.n;
  return b;
}

// accs (REDUX, or RW when alone) += −Σ op(T)_ij·x_j over the rows of b and the columns
// [j0, j0 + w), x_j = element j - j0 of the vector (xh, offx, incx): one gemv_acc task.
int insert_tile(const char *who, const solve_geom &g, const block_row &b, int64_t j0, int64_t w,
                starpu_data_handle_t xh, int64_t offx, int64_t incx, starpu_data_handle_t accs, bool alone,
                int priority = 0)
{
  exstar_gemv_acc_args a;
  std::memset(&a, 0, sizeof a);
  a.trans = g.trans;
  a.alpha = -1.0;
  if (g.trans == 'N') {
    a.m = b.len, a.n = w, a.ia = g.it + b.I0, a.ja = g.jt + j0;
  } else {
    a.m = w, a.n = b.len, a.ia = g.it + j0, a.ja = g.jt + b.I0;
  }
  a.offx = offx;
  a.incx = incx;
  a.offacc = 0;
  int ret = starpu_task_insert(alone ? &exstar_gemv_acc_rw_cl : &exstar_gemv_acc_cl, STARPU_EXECUTE_WHERE, exstar_rt::where_for(g.T), STARPU_R, g.T, STARPU_R, xh,
                               alone ? STARPU_RW : STARPU_REDUX, accs, STARPU_VALUE, &a, sizeof a, STARPU_PRIORITY,
                               priority, STARPU_NAME, "exstar_trsv_gemv_acc", 0);
  return exstar_rt::submit_status(ret, who);
}

// accs (REDUX; RW when one task) += −Σ_{c0<=j<c1} op(T)_ij·x_j for the rows of b, in at most one
// task per worker.
int insert_offblock(const char *who, const solve_geom &g, const block_row &b, starpu_data_handle_t x, int64_t offx,
                    int64_t incx, starpu_data_handle_t accs)
{
  const int64_t width = b.c1 - b.c0;
  if (width <= 0) return EXSTAR_SUCCESS;
  int64_t nchunks = exstar_rt::default_nparts();
  int64_t blocks = (width + g.nb - 1) / g.nb;
  if (nchunks > blocks) nchunks = blocks;
  if (nchunks < (width + kMaxChunk - 1) / kMaxChunk) nchunks = (width + kMaxChunk - 1) / kMaxChunk;
  for (int64_t k = 0; k < nchunks; ++k) {
    const int64_t j0 = b.c0 + width * k / nchunks, w = b.c0 + width * (k + 1) / nchunks - j0;
    // one task alone: RW accumulators, no per-worker copies to reduce
    if (int s = insert_tile(who, g, b, j0, w, x, subvector_offset(g.n, offx, incx, j0, w), incx, accs, nchunks == 1))
      return s;
  }
  return EXSTAR_SUCCESS;
}

exstar_trsv_block_args block_args(const solve_geom &g, const block_row &b)
{
  exstar_trsv_block_args a;
  std::memset(&a, 0, sizeof a);
  a.uplo = g.uplo, a.trans = g.trans, a.diag = g.diag;
  a.nb = b.len;
  a.it = g.it + b.I0;
  a.jt = g.jt + b.I0;
  return a;
}

// One block row's tasks: its accumulators, the off-block accumulation into them, then the task
// that finish(accs, a) inserts with the block's arguments (offx/incx set); accs unregistered.
template <class Finish>
int insert_block_row(const char *who, const solve_geom &g, const block_row &b, starpu_data_handle_t x, int64_t offx,
                     int64_t incx, Finish finish)
{
  starpu_data_handle_t accs;
  if (int s = exstar_accs_register(&accs, b.len)) return s;
  int s = insert_offblock(who, g, b, x, offx, incx, accs);
  if (s == EXSTAR_SUCCESS) {
    exstar_trsv_block_args a = block_args(g, b);
    a.offx = subvector_offset(g.n, offx, incx, b.I0, b.len);
    a.incx = incx;
    s = exstar_rt::submit_status(finish(accs, a), who);
  }
  starpu_data_unregister_submit(accs);
  return s;
}

// dst := RN(dst + src) (add) or dst := src (a W access: it initializes a workspace).
int insert_update(const char *who, int64_t n, int add, starpu_data_handle_t src, int64_t offs, int64_t incs,
                  starpu_data_handle_t dst, int64_t offd, int64_t incd, int priority = 0)
{
  exstar_trsv_update_args a;
  std::memset(&a, 0, sizeof a);
  a.n = n, a.add = add, a.offd = offs, a.incd = incs, a.offx = offd, a.incx = incd;
  int ret = add ? starpu_task_insert(&exstar_trsv_update_cl, STARPU_R, src, STARPU_RW, dst, STARPU_VALUE, &a,
                                     sizeof a, STARPU_PRIORITY, priority, STARPU_NAME, "exstar_trsv_update", 0)
                : starpu_task_insert(&exstar_trsv_copy_cl, STARPU_R, src, STARPU_W, dst, STARPU_VALUE, &a, sizeof a,
                                     STARPU_PRIORITY, priority, STARPU_NAME, "exstar_trsv_copy", 0);
  return exstar_rt::submit_status(ret, who);
}

// insert_solve's graph (below) through trsv's checked fast path (CPU workers only): each block row's
// off-diagonal terms go into a state of bounded double-doubles (the first tile writes it), the
// diagonal task rounds each row from it when the bound proves the rounding, and recomputes a
// declined row from all its terms by the exact path (it reads T and the solved x whole).
int insert_solve_state(const char *who, const solve_geom &g, starpu_data_handle_t x, int64_t offx, int64_t incx)
{
  const int top = starpu_sched_get_max_priority();
  const int64_t nblk = (g.n + g.nb - 1) / g.nb;
  auto block_at = [&](int64_t step) { return block_of(g, g.forward() ? step : nblk - 1 - step); };
  std::vector<starpu_data_handle_t> st((size_t)nblk, nullptr);
  for (int64_t step = 1; step < nblk; ++step)
    starpu_vector_data_register(&st[step], -1, 0, (uint32_t)(4 * block_at(step).len), sizeof(double));
  int s = EXSTAR_SUCCESS;
  for (int64_t step = 0; step < nblk && s == EXSTAR_SUCCESS; ++step) {
    const block_row b = block_at(step);
    exstar_trsv_state_args a;
    std::memset(&a, 0, sizeof a);
    a.blk = block_args(g, b);
    a.blk.offx = subvector_offset(g.n, offx, incx, b.I0, b.len);
    a.blk.incx = incx;
    a.n = g.n, a.wit = g.it, a.wjt = g.jt, a.i0 = b.I0, a.offx = offx;
    a.has_state = step > 0;
    const int ret = step > 0 ? starpu_task_insert(&exstar_trsv_state_diag_cl, STARPU_EXECUTE_WHERE, exstar_rt::where_for(g.T), STARPU_R, g.T, STARPU_R, st[step],
                                                  STARPU_RW, x, STARPU_VALUE, &a, sizeof a, STARPU_PRIORITY, top,
                                                  STARPU_NAME, "exstar_trsv_state_diag", 0)
                             : starpu_task_insert(&exstar_trsv_state_diag0_cl, STARPU_EXECUTE_WHERE, exstar_rt::where_for(g.T), STARPU_R, g.T, STARPU_RW, x, STARPU_VALUE,
                                                  &a, sizeof a, STARPU_PRIORITY, top, STARPU_NAME,
                                                  "exstar_trsv_state_diag", 0);
    s = exstar_rt::submit_status(ret, who);
    if (s != EXSTAR_SUCCESS || step + 1 == nblk) break;
    starpu_data_handle_t xb;
    starpu_vector_data_register(&xb, -1, 0, (uint32_t)b.len, sizeof(double));
    s = insert_update(who, b.len, 0, x, a.blk.offx, incx, xb, 0, 1, top);
    for (int64_t later = step + 1; later < nblk && s == EXSTAR_SUCCESS; ++later) {
      const block_row l = block_at(later);
      exstar_gemv_state_args t;
      std::memset(&t, 0, sizeof t);
      t.trans = g.trans;
      t.sign = -1.0;
      if (g.trans == 'N')
        t.m = l.len, t.n = b.len, t.ia = g.it + l.I0, t.ja = g.jt + b.I0;
      else
        t.m = b.len, t.n = l.len, t.ia = g.it + b.I0, t.ja = g.jt + l.I0;
      t.offx = 0, t.incx = 1;
      t.init = step == 0;
      const int ret2 = starpu_task_insert(t.init ? &exstar_gemv_state_w_cl : &exstar_gemv_state_cl, STARPU_EXECUTE_WHERE, exstar_rt::where_for(g.T), STARPU_R, g.T,
                                          STARPU_R, xb, t.init ? STARPU_W : STARPU_RW, st[later], STARPU_VALUE, &t,
                                          sizeof t, STARPU_PRIORITY, later == step + 1 ? top : 0, STARPU_NAME,
                                          "exstar_trsv_gemv_state", 0);
      s = exstar_rt::submit_status(ret2, who);
    }
    starpu_data_unregister_submit(xb);
  }
  for (starpu_data_handle_t h : st)
    if (h) starpu_data_unregister_submit(h);
  return s;
}

// The solve's graph on x (holding b), with lookahead: in substitution order, block I's diagonal
// task, then a copy of its solved x_I into a handle of its own, then one gemv_acc task per later
// block row J (RW on J's accumulators: T_JI·x_I). A tile task waits for the x_I it reads, not for
// x as a whole, so block rows gather their off-diagonal terms while later diagonal blocks are
// solved; only the tile of the block solved last stays between two diagonal solves. That serial
// path (diagonal task, copy, next block row's tile) runs at the top priority (eager and the
// priority-aware schedulers take such tasks first).
int insert_solve(const char *who, const solve_geom &g, starpu_data_handle_t x, int64_t offx, int64_t incx)
{
  if (starpu_cuda_worker_get_count() == 0 && starpu_opencl_worker_get_count() == 0 && !exstar_rt::exact_only())
    return insert_solve_state(who, g, x, offx, incx);
  const int top = starpu_sched_get_max_priority();
  const int64_t nblk = (g.n + g.nb - 1) / g.nb;
  auto block_at = [&](int64_t step) { return block_of(g, g.forward() ? step : nblk - 1 - step); };
  std::vector<starpu_data_handle_t> accs((size_t)nblk, nullptr);
  int s = EXSTAR_SUCCESS;
  for (int64_t step = 0; step < nblk && s == EXSTAR_SUCCESS; ++step)
    s = exstar_accs_register(&accs[step], block_at(step).len);
  for (int64_t step = 0; step < nblk && s == EXSTAR_SUCCESS; ++step) {
    const block_row b = block_at(step);
    exstar_trsv_block_args a = block_args(g, b);
    a.offx = subvector_offset(g.n, offx, incx, b.I0, b.len);
    a.incx = incx;
    const int ret = starpu_task_insert(&exstar_trsv_diag_cl, STARPU_EXECUTE_WHERE, exstar_rt::where_for(g.T), STARPU_R, g.T, STARPU_R, accs[step], STARPU_RW, x,
                                       STARPU_VALUE, &a, sizeof a, STARPU_PRIORITY, top, STARPU_NAME,
                                       "exstar_trsv_diag", 0);
    s = exstar_rt::submit_status(ret, who);
    if (s != EXSTAR_SUCCESS || step + 1 == nblk) break;
    starpu_data_handle_t xb;
    starpu_vector_data_register(&xb, -1, 0, (uint32_t)b.len, sizeof(double));
    s = insert_update(who, b.len, 0, x, a.offx, incx, xb, 0, 1, top);
    for (int64_t later = step + 1; later < nblk && s == EXSTAR_SUCCESS; ++later)
      s = insert_tile(who, g, block_at(later), b.I0, b.len, xb, 0, 1, accs[later], true, later == step + 1 ? top : 0);
    starpu_data_unregister_submit(xb);
  }
  for (starpu_data_handle_t h : accs)
    if (h) starpu_data_unregister_submit(h);
  return s;
}

// r := RN(b − op(T)·x) over the triangle, block row by block row (independent rows).
int insert_residual(const char *who, const solve_geom &g, starpu_data_handle_t x, int64_t offx, int64_t incx,
                    starpu_data_handle_t bh, starpu_data_handle_t r)
{
  const int64_t nblk = (g.n + g.nb - 1) / g.nb;
  for (int64_t I = 0; I < nblk; ++I) {
    const block_row b = block_of(g, I);
    int s = insert_block_row(who, g, b, x, offx, incx, [&](starpu_data_handle_t accs, exstar_trsv_block_args &a) {
      a.offb = a.offr = b.I0; // the workspaces are contiguous
      a.incb = a.incr = 1;
      return starpu_task_insert(&exstar_trsv_resid_cl, STARPU_EXECUTE_WHERE, exstar_rt::where_for(g.T), STARPU_R, g.T, STARPU_R, accs, STARPU_R, x, STARPU_R, bh,
                                STARPU_RW, r, STARPU_VALUE, &a, sizeof a, STARPU_NAME, "exstar_trsv_resid", 0);
    });
    if (s) return s;
  }
  return EXSTAR_SUCCESS;
}

int insert_refined(const char *who, const solve_geom &g, starpu_data_handle_t x, int64_t offx, int64_t incx,
                   int steps)
{
  if (steps == 0) return insert_solve(who, g, x, offx, incx);
  // Workspaces b (the entry value of x) and r/d, contiguous, allocated by StarPU where used.
  starpu_data_handle_t bh, r;
  starpu_vector_data_register(&bh, -1, 0, (uint32_t)g.n, sizeof(double));
  starpu_vector_data_register(&r, -1, 0, (uint32_t)g.n, sizeof(double));
  int s = insert_update(who, g.n, 0, x, offx, incx, bh, 0, 1);
  if (s == EXSTAR_SUCCESS) s = insert_update(who, g.n, 0, bh, 0, 1, r, 0, 1); // r's blocks are then RW
  if (s == EXSTAR_SUCCESS) s = insert_solve(who, g, x, offx, incx);
  for (int k = 0; k < steps && s == EXSTAR_SUCCESS; ++k) {
    s = insert_residual(who, g, x, offx, incx, bh, r);
    if (s == EXSTAR_SUCCESS) s = insert_solve(who, g, r, 0, 1);
    if (s == EXSTAR_SUCCESS) s = insert_update(who, g.n, 1, r, 0, 1, x, offx, incx);
  }
  starpu_data_unregister_submit(bh);
  starpu_data_unregister_submit(r);
  return s;
}

// The blocking form: argument and diagonal checks, registration, the graph, wait.
int blocking(const char *who, char uplo, char trans, char diag, int64_t n, const double *T, int64_t ldt, double *x,
             int64_t incx, int steps, int64_t *info)
{
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  solve_geom g;
  if (int s = check_options(who, uplo, trans, diag, &g)) return s;
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  *info = 0;
  if (int s = exstar_rt::check_vector(who, "x", n, x, incx)) return s;
  if (ldt < (n > 1 ? n : 1)) return exstar_set_error(EXSTAR_ERR_ARG, "%s: ldt = %lld < max(1, n)", who, (long long)ldt);
  if (n > 0 && !T) return exstar_set_error(EXSTAR_ERR_ARG, "%s: T is NULL", who);
  if (steps < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: steps = %d < 0", who, steps);
  if ((uint64_t)exstar_rt::vector_span(n, incx) > UINT32_MAX || (uint64_t)ldt * (uint64_t)n > (uint64_t)UINT32_MAX * 8)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: too large for StarPU's 32-bit sizes", who);
  if (g.diag == 'N')
    for (int64_t i = 0; i < n; ++i)
      if (T[i + i * ldt] == 0.0) {
        *info = i + 1;
        return exstar_set_error(EXSTAR_ERR_SINGULAR, "%s: T(%lld,%lld) is zero (info = %lld)", who, (long long)i,
                                (long long)i, (long long)(i + 1));
      }
  if (n == 0) return EXSTAR_SUCCESS;
  starpu_data_handle_t hT, hx;
  starpu_matrix_data_register(&hT, STARPU_MAIN_RAM, (uintptr_t)T, (uint32_t)ldt, (uint32_t)n, (uint32_t)n,
                              sizeof(double));
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, (uint32_t)exstar_rt::vector_span(n, incx),
                              sizeof(double));
  g.n = n, g.T = hT, g.it = 0, g.jt = 0, g.nb = n < default_nb() ? n : default_nb();
  int s = exstar_rt::check_fits(who, "T", hT);
  if (s == EXSTAR_SUCCESS) s = insert_refined(who, g, hx, 0, incx, steps);
  starpu_data_unregister(hx);
  starpu_data_unregister(hT);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  return s;
}

int insert_common(const char *who, char uplo, char trans, char diag, int64_t n, starpu_data_handle_t T, int64_t it,
                  int64_t jt, starpu_data_handle_t x, int64_t offx, int64_t incx, int steps, int64_t nb)
{
  solve_geom g;
  if (int s = check_insert(who, uplo, trans, diag, n, T, it, jt, x, offx, incx, &g)) return s;
  if (steps < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: steps = %d < 0", who, steps);
  if (n == 0) return EXSTAR_SUCCESS;
  g.nb = nb <= 0 ? default_nb() : nb;
  if (g.nb > n) g.nb = n;
  return insert_refined(who, g, x, offx, incx, steps);
}

} // namespace

int exstar_dtrsv(char uplo, char trans, char diag, int64_t n, const double *T, int64_t ldt, double *x, int64_t incx,
                 int64_t *info)
{
  return blocking("exstar_dtrsv", uplo, trans, diag, n, T, ldt, x, incx, 0, info);
}

int exstar_dtrsv_refined(char uplo, char trans, char diag, int64_t n, const double *T, int64_t ldt, double *x,
                         int64_t incx, int steps, int64_t *info)
{
  return blocking("exstar_dtrsv_refined", uplo, trans, diag, n, T, ldt, x, incx, steps, info);
}

int exstar_dtrsv_insert(char uplo, char trans, char diag, int64_t n, starpu_data_handle_t T, int64_t it, int64_t jt,
                        starpu_data_handle_t x, int64_t offx, int64_t incx, int64_t nb)
{
  return insert_common("exstar_dtrsv_insert", uplo, trans, diag, n, T, it, jt, x, offx, incx, 0, nb);
}

int exstar_dtrsv_refined_insert(char uplo, char trans, char diag, int64_t n, starpu_data_handle_t T, int64_t it,
                                int64_t jt, starpu_data_handle_t x, int64_t offx, int64_t incx, int steps, int64_t nb)
{
  return insert_common("exstar_dtrsv_refined_insert", uplo, trans, diag, n, T, it, jt, x, offx, incx, steps, nb);
}
