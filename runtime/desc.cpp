// Descriptors of tiled matrices (include/exstar/tiles.h) and the tiled exact LU submitted on them:
// the graph of runtime/getrf_tiled_graph.h on the caller's tiles or on tiles over the caller's
// array. The pivots are one vector handle of the descriptor (exstar_desc_ipiv) whose parts, one a
// panel (an asynchronous StarPU partition), are the graph's pivot handles while an LU runs.
// getrs on descriptors gathers the factors and each block column of B into contiguous copies
// (StarPU copy tasks on partitions of those copies) and runs exstar_dgetrs's own tasks on them.
#include "runtime/internal.h"
#include "runtime/check_handles.h"
#include "runtime/getrf_tiled.h"
#include "runtime/potrf_tiled_graph.h"
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

namespace {

// Where tile (I, J) of a contiguous copy lies: the filter's argument (nb, tile rows).
struct tile_grid {
  int64_t nb, mt;
};

// A contiguous column-major copy (ld = m) of a descriptor's tiles, for the tasks that take a
// whole matrix: one handle over it (whole) or one a block column, each planned (asynchronous
// partitioning) into its tiles, whose copies from and to the descriptor's tiles are StarPU
// copy tasks. Registered at first use, kept until exstar_desc_destroy.
struct gathered {
  double *buf = nullptr;
  std::vector<starpu_data_handle_t> parts;
  std::vector<std::vector<starpu_data_handle_t>> kids;
};

} // namespace

struct exstar_desc_s {
  exstar_rt::tiled_desc d;
  bool lu_inserted = false; // exstar_dgetrf_desc_insert submitted a factorization here
  // The pivots (exstar_desc_ipiv): min(m, n) int32 over ipiv_buf, planned into d.pivots (a
  // panel each), partitioned while an LU's tasks write them; NULL when min(m, n) == 0.
  starpu_data_handle_t ipiv = nullptr;
  std::vector<int32_t> ipiv_buf;
  std::vector<uint32_t> ipiv_lens;
  tile_grid grid{0, 0};
  gathered whole; // getrs: the factors as one n x n handle
  gathered cols;  // getrs: the right-hand sides, a handle a block column
  // The Cholesky inserted here (exstar_dpotrf_desc_insert): its states and root flags, kept
  // until exstar_dpotrf_desc_info or exstar_desc_destroy; NULL: none.
  exstar_rt::chol_desc *chol = nullptr;
  std::vector<int32_t> chol_flags;
};

namespace {

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int check_shape(const char *who, exstar_desc *desc, int64_t m, int64_t n, int64_t nb)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (!desc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: desc is NULL", who);
  *desc = nullptr;
  if (m < 0 || n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0", who);
  if (nb < 1) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nb < 1", who);
  if (m > UINT32_MAX || n > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: dimensions beyond 2^32 are not supported", who);
  return EXSTAR_SUCCESS;
}

exstar_desc new_desc(int64_t m, int64_t n, int64_t nb)
{
  exstar_desc x = new (std::nothrow) exstar_desc_s;
  if (!x) return nullptr;
  exstar_rt::tiled_desc &d = x->d;
  d.m = m, d.n = n, d.nb = nb;
  d.mt = ceil_div(m, nb), d.nt = ceil_div(n, nb), d.kt = ceil_div(min64(m, n), nb);
  d.tiles.assign((size_t)(d.mt * d.nt), nullptr);
  d.states.assign((size_t)d.nt, nullptr);
  return x;
}

int64_t rows_of(const exstar_rt::tiled_desc &d, int64_t I) { return min64(d.nb, d.m - I * d.nb); }
int64_t cols_of(const exstar_rt::tiled_desc &d, int64_t J) { return min64(d.nb, d.n - J * d.nb); }

int add_states(const char *who, exstar_desc x)
{
  exstar_rt::tiled_desc &d = x->d;
  if (d.m == 0) return EXSTAR_SUCCESS; // 0 x n: no entry, no state (and no LU: kt == 0)
  for (int64_t J = 0; J < d.nt; ++J)
    if (int s = exstar_state_register(&d.state(J), d.m, cols_of(d, J))) {
      exstar_desc_destroy(x);
      return exstar_set_error(s, "%s: %s", who, exstar_last_error());
    }
  return EXSTAR_SUCCESS;
}

// The pivot handle and its plan into the panels' parts (the LU graph's d.pivots).
int add_pivots(const char *who, exstar_desc x)
{
  exstar_rt::tiled_desc &d = x->d;
  x->grid = tile_grid{d.nb, d.mt};
  d.pivots.assign((size_t)d.kt, nullptr);
  if (d.kt == 0) return EXSTAR_SUCCESS;
  const int64_t k = min64(d.m, d.n);
  try {
    x->ipiv_buf.assign((size_t)k, 0);
    x->ipiv_lens.resize((size_t)d.kt);
  } catch (const std::bad_alloc &) {
    exstar_desc_destroy(x);
    return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
  }
  for (int64_t K = 0; K < d.kt; ++K) x->ipiv_lens[(size_t)K] = (uint32_t)min64(d.nb, k - K * d.nb);
  starpu_vector_data_register(&x->ipiv, STARPU_MAIN_RAM, (uintptr_t)x->ipiv_buf.data(), (uint32_t)k, sizeof(int32_t));
  starpu_data_filter f;
  std::memset(&f, 0, sizeof f);
  f.filter_func = starpu_vector_filter_list;
  f.nchildren = (unsigned)d.kt;
  f.filter_arg_ptr = x->ipiv_lens.data();
  starpu_data_partition_plan(x->ipiv, &f, d.pivots.data());
  return EXSTAR_SUCCESS;
}

// Tile (id mod mt, id / mt) of a column-major matrix (starpu_matrix_filter_block's rules, on
// the descriptor's grid: every tile nb x nb but the last row and column of tiles).
void tile_filter(void *father_if, void *child_if, starpu_data_filter *f, unsigned id, unsigned)
{
  const starpu_matrix_interface *F = static_cast<const starpu_matrix_interface *>(father_if);
  starpu_matrix_interface *C = static_cast<starpu_matrix_interface *>(child_if);
  const tile_grid *g = static_cast<const tile_grid *>(f->filter_arg_ptr);
  const int64_t I = (int64_t)id % g->mt, J = (int64_t)id / g->mt;
  const uint32_t rows = (uint32_t)min64(g->nb, (int64_t)F->nx - I * g->nb);
  const uint32_t cols = (uint32_t)min64(g->nb, (int64_t)F->ny - J * g->nb);
  const size_t off = ((size_t)(I * g->nb) + (size_t)(J * g->nb) * F->ld) * F->elemsize;
  C->id = F->id;
  C->nx = rows, C->ny = cols, C->elemsize = F->elemsize;
  C->allocsize = (size_t)rows * cols * F->elemsize;
  if (F->dev_handle) {
    if (F->ptr) C->ptr = F->ptr + off;
    C->ld = F->ld;
    C->dev_handle = F->dev_handle;
    C->offset = F->offset + off;
  }
}

// Registers g over a new m x n buffer: one handle (per_column false) or one a block column.
int make_gathered(const char *who, exstar_desc x, gathered &g, bool per_column)
{
  if (!g.parts.empty()) return EXSTAR_SUCCESS;
  const exstar_rt::tiled_desc &d = x->d;
  g.buf = new (std::nothrow) double[(size_t)(d.m * d.n)];
  if (!g.buf) return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory (a copy of %lld x %lld)", who,
                                      (long long)d.m, (long long)d.n);
  const int64_t nparts = per_column ? d.nt : 1;
  g.parts.assign((size_t)nparts, nullptr);
  g.kids.resize((size_t)nparts);
  for (int64_t p = 0; p < nparts; ++p) {
    const int64_t c0 = per_column ? p * d.nb : 0, ncols = per_column ? cols_of(d, p) : d.n;
    starpu_matrix_data_register(&g.parts[(size_t)p], STARPU_MAIN_RAM, (uintptr_t)(g.buf + c0 * d.m), (uint32_t)d.m,
                                (uint32_t)d.m, (uint32_t)ncols, sizeof(double));
    const int64_t ntiles = d.mt * (per_column ? 1 : d.nt);
    g.kids[(size_t)p].assign((size_t)ntiles, nullptr);
    starpu_data_filter f;
    std::memset(&f, 0, sizeof f);
    f.filter_func = tile_filter;
    f.nchildren = (unsigned)ntiles;
    f.filter_arg_ptr = &x->grid;
    starpu_data_partition_plan(g.parts[(size_t)p], &f, g.kids[(size_t)p].data());
  }
  return EXSTAR_SUCCESS;
}

void drop_gathered(gathered &g)
{
  for (size_t p = 0; p < g.parts.size(); ++p) {
    starpu_data_partition_clean(g.parts[p], (unsigned)g.kids[p].size(), g.kids[p].data());
    starpu_data_unregister(g.parts[p]);
  }
  g.parts.clear(), g.kids.clear();
  delete[] g.buf;
  g.buf = nullptr;
}

// Copy tasks between part p of g (block column p, or the whole matrix) and the descriptor's
// tiles: to_copy true reads the tiles into the part, false writes the part back into them.
int copy_tiles(const char *who, exstar_desc x, gathered &g, int64_t p, bool per_column, bool to_copy)
{
  const exstar_rt::tiled_desc &d = x->d;
  std::vector<starpu_data_handle_t> &kids = g.kids[(size_t)p];
  starpu_data_partition_submit(g.parts[(size_t)p], (unsigned)kids.size(), kids.data());
  int s = EXSTAR_SUCCESS;
  for (size_t t = 0; t < kids.size() && s == EXSTAR_SUCCESS; ++t) {
    const int64_t I = (int64_t)t % d.mt, J = per_column ? p : (int64_t)t / d.mt;
    int ret = to_copy ? starpu_data_cpy(kids[t], d.tile(I, J), 1, nullptr, nullptr)
                      : starpu_data_cpy(d.tile(I, J), kids[t], 1, nullptr, nullptr);
    if (ret != 0) s = exstar_rt::submit_status(ret, who);
  }
  starpu_data_unpartition_submit(g.parts[(size_t)p], (unsigned)kids.size(), kids.data(), -1);
  return s;
}

// The pivots into the caller's ipiv once the LU's tasks have written them: an asynchronous
// acquire (RW, so that every later access, exstar_dgetrf_desc_info's wait included, comes after
// the copy) whose callback copies and releases. No wait, and each insertion's ipiv is filled.
struct pivots_out {
  starpu_data_handle_t h;
  const int32_t *from;
  int32_t *to;
  size_t n;
};

void copy_pivots_cb(void *arg)
{
  pivots_out *p = static_cast<pivots_out *>(arg);
  std::memcpy(p->to, p->from, p->n * sizeof(int32_t));
  starpu_data_release(p->h);
  delete p;
}

int copy_out_pivots(const char *who, exstar_desc x, int32_t *ipiv)
{
  pivots_out *p = new (std::nothrow) pivots_out{x->ipiv, x->ipiv_buf.data(), ipiv, x->ipiv_buf.size()};
  if (!p) return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
  if (starpu_data_acquire_cb(x->ipiv, STARPU_RW, copy_pivots_cb, p) != 0) {
    delete p;
    return exstar_set_error(EXSTAR_ERR_STARPU, "%s: StarPU refused to acquire the pivots", who);
  }
  return EXSTAR_SUCCESS;
}

} // namespace

int exstar_desc_create(exstar_desc *desc, int64_t m, int64_t n, int64_t nb, double *A, int64_t lda)
{
  const char *who = "exstar_desc_create";
  exstar_rt::clear_error();
  if (int s = check_shape(who, desc, m, n, nb)) return s;
  if (lda < (m > 1 ? m : 1) || (uint64_t)lda > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: lda = %lld < max(1, m) or beyond 2^32", who, (long long)lda);
  if (m > 0 && n > 0 && !A) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A is NULL", who);
  exstar_desc x = new_desc(m, n, nb);
  if (!x) return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
  exstar_rt::tiled_desc &d = x->d;
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I)
      starpu_matrix_data_register(&d.tile(I, J), STARPU_MAIN_RAM, (uintptr_t)(A + I * nb + J * nb * lda),
                                  (uint32_t)lda, (uint32_t)rows_of(d, I), (uint32_t)cols_of(d, J), sizeof(double));
  if (int s = add_states(who, x)) return s;
  if (int s = add_pivots(who, x)) return s;
  *desc = x;
  return EXSTAR_SUCCESS;
}

int exstar_desc_create_tiles(exstar_desc *desc, int64_t m, int64_t n, int64_t nb, const starpu_data_handle_t *tiles)
{
  const char *who = "exstar_desc_create_tiles";
  exstar_rt::clear_error();
  if (int s = check_shape(who, desc, m, n, nb)) return s;
  if (m > 0 && n > 0 && !tiles) return exstar_set_error(EXSTAR_ERR_ARG, "%s: tiles is NULL", who);
  exstar_desc x = new_desc(m, n, nb);
  if (!x) return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
  exstar_rt::tiled_desc &d = x->d;
  d.own_tiles = false;
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) {
      starpu_data_handle_t h = tiles[I + J * d.mt];
      char name[160]; // four int64 at most 20 characters each, and the text
      std::snprintf(name, sizeof name, "tiles[%lld + %lld*mt] (tile (%lld, %lld))", (long long)I, (long long)J,
                    (long long)I, (long long)J);
      // exactly the tile's shape: a bigger handle would silently be read as a smaller one
      int s = exstar_rt::check_matrix_handle(who, name, h, 0, 0, 0, 0);
      if (s == EXSTAR_SUCCESS && ((int64_t)starpu_matrix_get_nx(h) != rows_of(d, I) ||
                                  (int64_t)starpu_matrix_get_ny(h) != cols_of(d, J)))
        s = exstar_set_error(EXSTAR_ERR_ARG, "%s: tile (%lld, %lld) is %u x %u, expected %lld x %lld", who,
                             (long long)I, (long long)J, starpu_matrix_get_nx(h), starpu_matrix_get_ny(h),
                             (long long)rows_of(d, I), (long long)cols_of(d, J));
      if (s != EXSTAR_SUCCESS) {
        exstar_desc_destroy(x);
        return s;
      }
      d.tile(I, J) = h;
    }
  if (int s = add_states(who, x)) return s;
  if (int s = add_pivots(who, x)) return s;
  *desc = x;
  return EXSTAR_SUCCESS;
}

const exstar_rt::tiled_desc *exstar_rt::desc_tiles(exstar_desc desc) { return desc ? &desc->d : nullptr; }

starpu_data_handle_t exstar_desc_tile(exstar_desc desc, int64_t I, int64_t J)
{
  if (!desc || I < 0 || J < 0 || I >= desc->d.mt || J >= desc->d.nt) return nullptr;
  return desc->d.tile(I, J);
}

int exstar_desc_wait(exstar_desc desc)
{
  const char *who = "exstar_desc_wait";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (!desc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: desc is NULL", who);
  for (starpu_data_handle_t h : desc->d.tiles) { // no node: waits, moves nothing
    if (!h) continue;
    if (starpu_data_acquire_on_node(h, STARPU_ACQUIRE_NO_NODE, STARPU_R) != 0)
      return exstar_set_error(EXSTAR_ERR_STARPU, "%s: starpu_data_acquire_on_node failed", who);
    starpu_data_release_on_node(h, STARPU_ACQUIRE_NO_NODE);
  }
  return exstar_rt::take_codelet_error();
}

int64_t exstar_desc_mt(exstar_desc desc) { return desc ? desc->d.mt : 0; }
int64_t exstar_desc_nt(exstar_desc desc) { return desc ? desc->d.nt : 0; }

starpu_data_handle_t exstar_desc_ipiv(exstar_desc desc) { return desc ? desc->ipiv : nullptr; }

namespace {

// The Cholesky's own handles (states, flags) released: waits for its tasks.
void drop_chol(exstar_desc x)
{
  if (!x->chol) return;
  x->chol->destroy();
  delete x->chol;
  x->chol = nullptr;
}

} // namespace

int exstar_desc_destroy(exstar_desc desc)
{
  if (!desc) return EXSTAR_SUCCESS;
  drop_chol(desc);
  drop_gathered(desc->whole);
  drop_gathered(desc->cols);
  if (desc->ipiv) { // the caller's ipiv filled by then: the unregister waits for the copies
    exstar_rt::tiled_desc &d = desc->d;
    starpu_data_partition_clean(desc->ipiv, (unsigned)d.pivots.size(), d.pivots.data()); // unregisters the parts
    d.pivots.assign(d.pivots.size(), nullptr);
    starpu_data_unregister(desc->ipiv);
    desc->ipiv = nullptr;
  }
  desc->d.destroy();
  delete desc;
  return EXSTAR_SUCCESS;
}

namespace {

// exstar_dgetrf_desc_insert, or its plain-double baseline (plain: vendor kernels on the same
// graph; its panels write L's column copies for the updates, it has no states).
int dgetrf_desc_insert(const char *who, exstar_desc desc, int32_t *ipiv, bool plain)
{
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (!desc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: desc is NULL", who);
  exstar_rt::tiled_desc &d = desc->d;
  if (d.kt == 0) return desc->lu_inserted = true, EXSTAR_SUCCESS;
  if (!(plain ? exstar_rt::plain_tiled_lu_runs() : exstar_rt::tiled_lu_runs()))
    return exstar_set_error(EXSTAR_ERR_NO_WORKER, "%s: the panels and U rows need a CPU worker, or a CUDA worker "
                            "where the build has their CUDA kernels", who);
  // its status is a new one
  d.drop_checks();
  if (int s = d.add_checks()) return s;
  d.panel_where = plain ? 0 : exstar_rt::panel_where();
  d.add_copies(); // L's column copies: scratch of this factorization
  d.place_on_gpus(plain);
  desc->lu_inserted = true; // even when an insertion fails half way: its tasks, if any, have a status
  // the panels write the pivot handle's parts (after every earlier task on the handle), and
  // tasks submitted on it later run after the last panel
  starpu_data_partition_submit(desc->ipiv, (unsigned)d.kt, d.pivots.data());
  int s = exstar_rt::getrf_tiled_insert(who, d, plain ? 0 : exstar_rt::exact_only(), plain);
  starpu_data_unpartition_submit(desc->ipiv, (unsigned)d.kt, d.pivots.data(), -1);
  if (ipiv && s == EXSTAR_SUCCESS) s = copy_out_pivots(who, desc, ipiv);
  return s;
}

} // namespace

int exstar_dgetrf_desc_insert(exstar_desc desc, int32_t *ipiv)
{
  return dgetrf_desc_insert("exstar_dgetrf_desc_insert", desc, ipiv, false);
}

int exstar_dgetrf_plain_desc_insert(exstar_desc desc, int32_t *ipiv)
{
  return dgetrf_desc_insert("exstar_dgetrf_plain_desc_insert", desc, ipiv, true);
}

int exstar_dgetrf_desc_info(exstar_desc desc, int64_t *info)
{
  const char *who = "exstar_dgetrf_desc_info";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (!desc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: desc is NULL", who);
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  if (!desc->lu_inserted)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: no LU was inserted on this descriptor (exstar_dgetrf_desc_insert)",
                            who);
  const exstar_rt::tiled_desc &d = desc->d;
  if (desc->ipiv) // waits for the pivots (and their copy into the caller's ipiv)
    starpu_data_acquire(desc->ipiv, STARPU_R), starpu_data_release(desc->ipiv);
  // the status tasks' findings (computed where the tiles are: the factors stay there)
  *info = 0;
  bool nonfinite = false;
  if (d.status) d.check_status(info, &nonfinite);
  if (int s = exstar_rt::take_codelet_error()) return s;
  if (nonfinite) return exstar_set_error(EXSTAR_ERR_NONFINITE, "%s: the factors hold NaN or inf (info = %lld)", who,
                                         (long long)*info);
  if (*info > 0)
    return exstar_set_error(EXSTAR_ERR_SINGULAR, "%s: u(%lld,%lld) is zero (info = %lld)", who,
                            (long long)(*info - 1), (long long)(*info - 1), (long long)*info);
  return EXSTAR_SUCCESS;
}

int exstar_dgetrs_desc_insert(char trans, exstar_desc A, exstar_desc B)
{
  const char *who = "exstar_dgetrs_desc_insert";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  const bool notrans = trans == 'N' || trans == 'n';
  if (!notrans && trans != 'T' && trans != 't' && trans != 'C' && trans != 'c')
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: trans = '%c' is not 'N' or 'T'", who, trans);
  if (!A) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A is NULL", who);
  if (!B) return exstar_set_error(EXSTAR_ERR_ARG, "%s: B is NULL", who);
  if (A == B) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A and B are the same descriptor", who);
  const exstar_rt::tiled_desc &a = A->d, &b = B->d;
  if (a.m != a.n)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: A is %lld x %lld, not square", who, (long long)a.m, (long long)a.n);
  if (b.m != a.n)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: B has %lld rows, A is %lld x %lld", who, (long long)b.m,
                            (long long)a.m, (long long)a.n);
  if (b.nb != a.nb)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: B's tiles are %lld x %lld, A's %lld x %lld (nb must be the same)", who,
                            (long long)b.nb, (long long)b.nb, (long long)a.nb, (long long)a.nb);
  if (!A->lu_inserted)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: no LU was inserted on A (exstar_dgetrf_desc_insert)", who);
  const int64_t n = a.n;
  if (n == 0 || b.n == 0) return EXSTAR_SUCCESS;
  if (int s = make_gathered(who, A, A->whole, false)) return s;
  if (int s = make_gathered(who, B, B->cols, true)) return s;
  // the factors, as one n x n handle (exstar_dgetrs's T)
  if (int s = copy_tiles(who, A, A->whole, 0, false, true)) return s;
  starpu_data_handle_t LU = A->whole.parts[0];
  // each block column of B: exstar_dgetrs's solve (runtime/lu.cpp, solve_trsm) on its copy
  for (int64_t J = 0; J < b.nt; ++J) {
    if (int s = copy_tiles(who, B, B->cols, J, true, true)) return s;
    starpu_data_handle_t X = B->cols.parts[(size_t)J];
    const int64_t nrhs = cols_of(b, J);
    int s;
    if (notrans) {
      if ((s = exstar_dlaswp_insert_h(nrhs, X, 0, 1, n, A->ipiv, 0, 1))) return s;
      if ((s = exstar_dtrsm_insert('L', 'L', 'N', 'U', n, nrhs, 1.0, LU, 0, 0, X, 0, 0))) return s;
      if ((s = exstar_dtrsm_insert('L', 'U', 'N', 'N', n, nrhs, 1.0, LU, 0, 0, X, 0, 0))) return s;
    } else {
      if ((s = exstar_dtrsm_insert('L', 'U', 'T', 'N', n, nrhs, 1.0, LU, 0, 0, X, 0, 0))) return s;
      if ((s = exstar_dtrsm_insert('L', 'L', 'T', 'U', n, nrhs, 1.0, LU, 0, 0, X, 0, 0))) return s;
      if ((s = exstar_dlaswp_insert_h(nrhs, X, 0, 1, n, A->ipiv, 0, -1))) return s;
    }
    if ((s = copy_tiles(who, B, B->cols, J, true, false))) return s;
  }
  return EXSTAR_SUCCESS;
}

int exstar_dpotrf_desc_insert(exstar_desc desc)
{
  const char *who = "exstar_dpotrf_desc_insert";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (!desc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: desc is NULL", who);
  const exstar_rt::tiled_desc &d = desc->d;
  if (d.m != d.n)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: the matrix is %lld x %lld, not square", who, (long long)d.m,
                            (long long)d.n);
  if (!exstar_rt::potrf_runs(false))
    return exstar_set_error(EXSTAR_ERR_NO_WORKER, "%s: the Cholesky panel needs a CPU or CUDA worker (none is running)", who);
  drop_chol(desc); // an earlier factorization's: waits for its tasks
  try {
    desc->chol_flags.assign((size_t)d.n, 0);
    desc->chol = new exstar_rt::chol_desc;
  } catch (const std::bad_alloc &) {
    return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
  }
  int s = desc->chol->attach(d, desc->chol_flags.data());
  if (s == EXSTAR_SUCCESS && d.n > 0) s = exstar_rt::potrf_tiled_insert(who, *desc->chol, exstar_rt::exact_only());
  return s;
}

int exstar_dpotrf_desc_info(exstar_desc desc, int64_t *info)
{
  const char *who = "exstar_dpotrf_desc_info";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (!desc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: desc is NULL", who);
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  if (!desc->chol)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: no Cholesky was inserted on this descriptor "
                            "(exstar_dpotrf_desc_insert)", who);
  drop_chol(desc); // waits for the flags (and so for every panel)
  if (int s = exstar_rt::take_codelet_error()) return s;
  const exstar_rt::tiled_desc &d = desc->d;
  *info = 0;
  for (int64_t j = 0; j < d.n && *info == 0; ++j)
    if (desc->chol_flags[(size_t)j] == 1) *info = j + 1;
  if (*info > 0)
    return exstar_set_error(EXSTAR_ERR_NOT_POSDEF,
                            "%s: the matrix is not positive definite: the exact value under the root of l(%lld,%lld) "
                            "is <= 0 or NaN, or its root rounds to zero (info = %lld)",
                            who, (long long)(*info - 1), (long long)(*info - 1), (long long)*info);
  // NaN or inf in the factor: with every exact value under a root positive, only a root of +inf
  // (flag 2; kernels_cpu/potrf_tiled.h says why), so the tiles are not read: they stay where
  // they are (on the GPUs)
  bool nonfinite = false;
  for (int64_t j = 0; j < d.n; ++j) nonfinite = nonfinite || desc->chol_flags[(size_t)j] == 2;
  if (nonfinite) return exstar_set_error(EXSTAR_ERR_NONFINITE, "%s: the factor holds NaN or inf", who);
  return EXSTAR_SUCCESS;
}

