// Driver of the exact LU (and of its plain-double baseline): the per-column task graph on ONE
// matrix handle, the blocking, batch and solve calls. The graph and the definition are in
// include/exstar/lapack.h; dependencies are StarPU data dependencies only.
#include "runtime/internal.h"
#include "runtime/check_handles.h"
#include "runtime/getrf_tiled.h"
#include "runtime/memory.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <atomic>
#include <new>
#include <utility>
#include <vector>

namespace {
std::atomic<int64_t> lu_tile{0}; // exstar_set_lu_tile: 0 default, -1 unblocked, else the edge
}

namespace {

constexpr int64_t kDefaultTrsvNb = 256; // rows of a diagonal block of the column's trsv
constexpr int64_t kMinGemvRows = 32;    // rows of a gemv task at least (default split)
constexpr int64_t kMaxTerms = (int64_t)1 << 24; // terms per accumulator per task (kernels' 2^26)

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// One factorization's graph: the matrix, its pivots, the block sizes, two accumulator arrays
// (m each) used by columns in turn (a zero task starts each column: memory stays 2·m
// accumulators whatever n).
struct lu_graph {
  const char *who;
  int64_t m, n;
  starpu_data_handle_t A, ipiv;
  int64_t trsv_nb, gemv_rows;
  starpu_data_handle_t accs[2];
};

exstar_lu_args column_args(const lu_graph &g, int64_t j)
{
  exstar_lu_args a;
  std::memset(&a, 0, sizeof a);
  a.m = g.m;
  a.j = j;
  return a;
}

int submitted(int ret, const lu_graph &g) { return exstar_rt::submit_status(ret, g.who); }

// Tasks on A alone (invscal, plain column update).
int insert_a(const lu_graph &g, starpu_codelet *cl, const exstar_lu_args &a, const char *name)
{
  return submitted(starpu_task_insert(cl, STARPU_RW, g.A, STARPU_VALUE, &a, sizeof a, STARPU_NAME, name, 0), g);
}

// Tasks on A and ipiv (swap: R ipiv, pivot: RW ipiv).
int insert_a_ipiv(const lu_graph &g, starpu_codelet *cl, enum starpu_data_access_mode ipiv_mode,
                  const exstar_lu_args &a, const char *name)
{
  return submitted(starpu_task_insert(cl, STARPU_RW, g.A, ipiv_mode, g.ipiv, STARPU_VALUE, &a, sizeof a, STARPU_NAME,
                                      name, 0),
                   g);
}

// accs (REDUX) += −Σ_{k<kend} l(r,k)·u(k,j) for rows [r0, r0+rlen), in tasks of at most
// gemv_rows rows and kMaxTerms terms (the dot codelet for the one row j).
int insert_updates(const lu_graph &g, starpu_data_handle_t accs, int64_t j, int64_t r0, int64_t rlen, int64_t kend,
                   starpu_codelet *cl, const char *name)
{
  for (int64_t k0 = 0; k0 < kend; k0 += kMaxTerms)
    for (int64_t r = r0; r < r0 + rlen; r += g.gemv_rows) {
      exstar_lu_args a = column_args(g, j);
      a.r0 = r;
      a.rlen = min64(g.gemv_rows, r0 + rlen - r);
      a.k0 = k0;
      a.klen = min64(kMaxTerms, kend - k0);
      int ret = starpu_task_insert(cl, STARPU_R, g.A, STARPU_REDUX, accs, STARPU_VALUE, &a, sizeof a, STARPU_NAME,
                                   name, 0);
      if (ret != 0) return submitted(ret, g);
    }
  return EXSTAR_SUCCESS;
}

// u(0..utop-1, j) := L⁻¹ a(0..utop-1, j), by diagonal blocks of trsv_nb rows.
int insert_trsv(const lu_graph &g, starpu_data_handle_t accs, int64_t j, int64_t utop)
{
  for (int64_t r0 = 0; r0 < utop; r0 += g.trsv_nb) {
    const int64_t rlen = min64(g.trsv_nb, utop - r0);
    if (int s = insert_updates(g, accs, j, r0, rlen, r0, &exstar_lu_gemv_cl, "exstar_lu_gemv")) return s;
    exstar_lu_args a = column_args(g, j);
    a.r0 = r0;
    a.rlen = rlen;
    int ret = starpu_task_insert(&exstar_lu_trsv_cl, STARPU_RW, g.A, STARPU_R, accs, STARPU_VALUE, &a, sizeof a,
                                 STARPU_NAME, "exstar_lu_trsv", 0);
    if (ret != 0) return submitted(ret, g);
  }
  return EXSTAR_SUCCESS;
}

// The earlier interchanges on column j (the first step of every column but the first).
int insert_swap(const lu_graph &g, int64_t j)
{
  const int64_t npiv = min64(j, g.m);
  if (npiv == 0) return EXSTAR_SUCCESS;
  exstar_lu_args a = column_args(g, j);
  a.npiv = npiv;
  return insert_a_ipiv(g, &exstar_lu_swap_cl, STARPU_R, a, "exstar_lu_swap");
}

// Pivot and scaling of column j < m.
int insert_pivot_scale(const lu_graph &g, int64_t j)
{
  exstar_lu_args a = column_args(g, j);
  a.rlen = g.m - j;
  if (int s = insert_a_ipiv(g, &exstar_lu_pivot_cl, STARPU_RW, a, "exstar_lu_pivot")) return s;
  if (g.m - j - 1 == 0) return EXSTAR_SUCCESS;
  return insert_a(g, &exstar_lu_invscal_cl, a, "exstar_lu_invscal");
}

// The exact column j: swap, trsv, dot + gemv, finish, pivot, invscal.
int insert_column(const lu_graph &g, int64_t j)
{
  starpu_data_handle_t accs = g.accs[j % 2];
  const int64_t utop = min64(j, g.m);
  if (int s = insert_swap(g, j)) return s;
  if (j > 0) {
    int ret = starpu_task_insert(&exstar_acc_init_cl, STARPU_W, accs, STARPU_NAME, "exstar_lu_acc_zero", 0);
    if (ret != 0) return submitted(ret, g);
  }
  if (int s = insert_trsv(g, accs, j, utop)) return s;
  if (j >= g.m) return EXSTAR_SUCCESS;
  if (j > 0) { // v(i) for i >= j; for j == 0, v is a(., 0) itself
    if (int s = insert_updates(g, accs, j, j, 1, j, &exstar_lu_dot_cl, "exstar_lu_dot")) return s;
    if (int s = insert_updates(g, accs, j, j + 1, g.m - j - 1, j, &exstar_lu_gemv_cl, "exstar_lu_gemv")) return s;
    exstar_lu_args a = column_args(g, j);
    a.r0 = j;
    a.rlen = g.m - j;
    int ret = starpu_task_insert(&exstar_lu_finish_cl, STARPU_R, accs, STARPU_RW, g.A, STARPU_VALUE, &a, sizeof a,
                                 STARPU_NAME, "exstar_lu_finish", 0);
    if (ret != 0) return submitted(ret, g);
  }
  return insert_pivot_scale(g, j);
}

// The plain column j: swap, one plain update task, pivot, invscal.
int insert_plain_column(const lu_graph &g, int64_t j)
{
  if (int s = insert_swap(g, j)) return s;
  if (j > 0) {
    exstar_lu_args a = column_args(g, j);
    a.rlen = g.m;
    a.klen = j;
    if (int s = insert_a(g, &exstar_lu_plain_cl, a, "exstar_lu_plain")) return s;
  }
  return j < g.m ? insert_pivot_scale(g, j) : EXSTAR_SUCCESS;
}

int check_handles(const char *who, int64_t m, int64_t n, starpu_data_handle_t hA, starpu_data_handle_t hipiv,
                  int64_t nb)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (m < 0 || n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0", who);
  if (nb < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nb < 0", who);
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  if (int s = exstar_rt::check_matrix_handle(who, "hA", hA, 0, 0, m, n)) return s;
  return exstar_rt::check_vector_handle(who, "hipiv", hipiv, min64(m, n), 0, 1, sizeof(int32_t));
}

// The whole graph of one factorization (exact or plain).
int insert_lu(const char *who, int64_t m, int64_t n, starpu_data_handle_t hA, starpu_data_handle_t hipiv, int64_t nb,
              bool plain)
{
  if (int s = check_handles(who, m, n, hA, hipiv, nb)) return s;
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  lu_graph g{who, m, n, hA, hipiv, 0, 0, {nullptr, nullptr}};
  g.trsv_nb = nb > 0 ? nb : kDefaultTrsvNb;
  const int64_t split = (m + exstar_rt::default_nparts() - 1) / exstar_rt::default_nparts();
  g.gemv_rows = nb > 0 ? nb : (split > kMinGemvRows ? split : kMinGemvRows);
  int s = EXSTAR_SUCCESS;
  if (!plain)
    for (int k = 0; k < 2 && s == EXSTAR_SUCCESS; ++k) s = exstar_accs_register(&g.accs[k], m);
  for (int64_t j = 0; j < n && s == EXSTAR_SUCCESS; ++j) s = plain ? insert_plain_column(g, j) : insert_column(g, j);
  for (starpu_data_handle_t h : g.accs)
    if (h) starpu_data_unregister_submit(h);
  return s;
}

// ---- blocking calls --------------------------------------------------------------------------

// The names a check speaks of: the matrix, its leading dimension, its row and column counts.
struct matrix_names {
  const char *mat, *ld, *rows, *cols;
};
constexpr matrix_names names_A = {"A", "lda", "m", "n"};

int check_matrix(const char *who, int64_t m, int64_t n, const void *A, int64_t lda,
                 const matrix_names &nm = names_A)
{
  if (m < 0 || n < 0)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s = %lld or %s = %lld < 0", who, nm.rows, (long long)m, nm.cols,
                            (long long)n);
  if (lda < (m > 1 ? m : 1))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s = %lld < max(1, %s) = %lld", who, nm.ld, (long long)lda, nm.rows,
                            (long long)(m > 1 ? m : 1));
  if (m > 0 && n > 0 && !A) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is NULL", who, nm.mat);
  if ((uint64_t)lda > UINT32_MAX || (uint64_t)n > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: dimensions beyond 2^32 are not supported (%s = %lld, %s = %lld)",
                            who, nm.ld, (long long)lda, nm.cols, (long long)n);
  return EXSTAR_SUCCESS;
}

// getrf's arguments. info may be NULL when m == 0 or n == 0 (nothing to do, lapack.h): the
// callers then return at once, writing *info = 0 only when info is given.
int check_getrf(const char *who, int64_t m, int64_t n, const double *A, int64_t lda, const int32_t *ipiv,
                const int64_t *info)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_matrix(who, m, n, A, lda)) return s;
  if (m > 0 && n > 0 && !info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  if (m > 0 && n > 0 && !ipiv) return exstar_set_error(EXSTAR_ERR_ARG, "%s: ipiv is NULL", who);
  return EXSTAR_SUCCESS;
}

// The empty factorization: LAPACK's dgetrf returns info = 0 and touches nothing else.
bool empty_getrf(int64_t m, int64_t n, int64_t *info)
{
  if (m > 0 && n > 0) return false;
  if (info) *info = 0;
  return true;
}

struct registered {
  starpu_data_handle_t A = nullptr, ipiv = nullptr;
};

registered register_lu(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv)
{
  registered r;
  if (m == 0 || n == 0) return r;
  starpu_matrix_data_register(&r.A, STARPU_MAIN_RAM, (uintptr_t)A, (uint32_t)lda, (uint32_t)m, (uint32_t)n,
                              sizeof(double));
  starpu_vector_data_register(&r.ipiv, STARPU_MAIN_RAM, (uintptr_t)ipiv, (uint32_t)min64(m, n), sizeof(int32_t));
  return r;
}

void unregister(registered &r)
{
  if (r.ipiv) starpu_data_unregister(r.ipiv);
  if (r.A) starpu_data_unregister(r.A);
  r = registered{};
}

// The status of finished factors: info from U's diagonal, then non-finite entries.
int factor_status(const char *who, int64_t m, int64_t n, const double *A, int64_t lda, int64_t *info)
{
  *info = 0;
  for (int64_t j = 0; j < min64(m, n) && *info == 0; ++j)
    if (A[j + j * lda] == 0.0) *info = j + 1;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i)
      if (!std::isfinite(A[i + j * lda]))
        return exstar_set_error(EXSTAR_ERR_NONFINITE, "%s: the factors hold NaN or inf (a(%lld,%lld); info = %lld)",
                                who, (long long)i, (long long)j, (long long)*info);
  if (*info > 0)
    return exstar_set_error(EXSTAR_ERR_SINGULAR, "%s: u(%lld,%lld) is zero (info = %lld)", who,
                            (long long)(*info - 1), (long long)(*info - 1), (long long)*info);
  return EXSTAR_SUCCESS;
}

// What the status tasks of a tiled factorization found (runtime/getrf_tiled.h, check_status).
struct tiled_result {
  int64_t info = 0;
  bool nonfinite = false;
};

// The status tasks' findings, then every handle released (the tiles home).
tiled_result finish_tiled(exstar_rt::tiled_desc &d, bool inserted)
{
  tiled_result r;
  if (inserted && d.status) d.check_status(&r.info, &r.nonfinite);
  d.destroy();
  return r;
}

// As factor_status from what the status tasks found: the factors are read on the host only when
// they hold NaN or inf, to name the first such entry.
int tiled_status(const char *who, const tiled_result &r, int64_t m, int64_t n, const double *A, int64_t lda,
                 int64_t *info)
{
  if (r.nonfinite) return factor_status(who, m, n, A, lda, info);
  *info = r.info;
  if (*info > 0)
    return exstar_set_error(EXSTAR_ERR_SINGULAR, "%s: u(%lld,%lld) is zero (info = %lld)", who,
                            (long long)(*info - 1), (long long)(*info - 1), (long long)*info);
  return EXSTAR_SUCCESS;
}

int getrf_blocking(const char *who, int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info,
                   bool plain)
{
  exstar_rt::clear_error();
  if (int s = check_getrf(who, m, n, A, lda, ipiv, info)) return s;
  if (empty_getrf(m, n, info)) return EXSTAR_SUCCESS;
  *info = 0;
  registered r = register_lu(m, n, A, lda, ipiv);
  int s = insert_lu(who, m, n, r.A, r.ipiv, 0, plain);
  unregister(r);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  return s == EXSTAR_SUCCESS ? factor_status(who, m, n, A, lda, info) : s;
}

int severity(int s) { return s == EXSTAR_ERR_NONFINITE ? 2 : s == EXSTAR_ERR_SINGULAR ? 1 : 0; }

int getrf_batch(const char *who, int64_t count, int64_t m, int64_t n, double **A, int64_t lda, int32_t **ipiv,
                int64_t *info, bool plain)
{
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (count < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: count < 0", who);
  if (count > 0 && (!A || !ipiv || !info)) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A, ipiv or info is NULL", who);
  for (int64_t b = 0; b < count; ++b)
    if (int s = check_getrf(who, m, n, A[b], lda, ipiv[b], &info[b])) return s;
  // Every graph first, then the waits: the matrices' tasks interleave on all workers. The exact
  // factorizations are tiled (as exstar_dgetrf) when CPU workers can run their panels.
  int s = EXSTAR_SUCCESS;
  if (!plain && m > 0 && n > 0 && starpu_cpu_worker_get_count() > 0 && lu_tile.load() >= 0) {
    // every matrix's states and copies at once (their graphs are all submitted before a wait)
    if (int t = exstar_rt::check_memory(who, exstar_rt::tiled_lu_bytes(m, n, exstar_default_tile(m, n), true, count)))
      return t;
    std::vector<exstar_rt::tiled_desc> descs((size_t)count);
    std::vector<tiled_result> res((size_t)count);
    for (int64_t b = 0; b < count && s == EXSTAR_SUCCESS; ++b) {
      s = descs[(size_t)b].create(m, n, exstar_default_tile(m, n), A[b], lda, ipiv[b]);
      if (s == EXSTAR_SUCCESS) s = exstar_rt::getrf_tiled_insert(who, descs[(size_t)b], exstar_rt::exact_only());
    }
    for (int64_t b = 0; b < count; ++b) res[(size_t)b] = finish_tiled(descs[(size_t)b], s == EXSTAR_SUCCESS);
    if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
    if (s != EXSTAR_SUCCESS) return s;
    int worst = EXSTAR_SUCCESS;
    for (int64_t b = 0; b < count; ++b) {
      int sb = tiled_status(who, res[(size_t)b], m, n, A[b], lda, &info[b]);
      if (severity(sb) > severity(worst)) worst = sb;
    }
    if (worst == EXSTAR_SUCCESS) exstar_rt::clear_error();
    return worst;
  } else {
    std::vector<registered> regs((size_t)count);
    for (int64_t b = 0; b < count && s == EXSTAR_SUCCESS; ++b) {
      regs[b] = register_lu(m, n, A[b], lda, ipiv[b]);
      s = insert_lu(who, m, n, regs[b].A, regs[b].ipiv, 0, plain);
    }
    for (registered &r : regs) unregister(r);
  }
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  if (s != EXSTAR_SUCCESS) return s;
  int worst = EXSTAR_SUCCESS;
  for (int64_t b = 0; b < count; ++b) {
    int sb = factor_status(who, m, n, A[b], lda, &info[b]);
    if (severity(sb) > severity(worst)) worst = sb;
  }
  if (worst == EXSTAR_SUCCESS) exstar_rt::clear_error();
  return worst;
}

// ---- solves ----------------------------------------------------------------------------------

// x := op(A)⁻¹ x for one column x (a vector handle of n doubles) with the exact trsv.
int insert_getrs_column(char trans, int64_t n, starpu_data_handle_t hLU, starpu_data_handle_t hp,
                        starpu_data_handle_t x)
{
  int s;
  if (trans == 'N') {
    if ((s = exstar_dlaswp_insert_h(1, x, 0, 1, n, hp, 0, 1))) return s;
    if ((s = exstar_dtrsv_insert('L', 'N', 'U', n, hLU, 0, 0, x, 0, 1, 0))) return s;
    return exstar_dtrsv_insert('U', 'N', 'N', n, hLU, 0, 0, x, 0, 1, 0);
  }
  if ((s = exstar_dtrsv_insert('U', 'T', 'N', n, hLU, 0, 0, x, 0, 1, 0))) return s;
  if ((s = exstar_dtrsv_insert('L', 'T', 'U', n, hLU, 0, 0, x, 0, 1, 0))) return s;
  return exstar_dlaswp_insert_h(1, x, 0, 1, n, hp, 0, -1);
}

// r := b (a W access of the workspace r), with the public copy codelet of trsv.
int insert_copy(int64_t n, starpu_data_handle_t b, starpu_data_handle_t r)
{
  exstar_trsv_update_args a;
  std::memset(&a, 0, sizeof a);
  a.n = n, a.add = 0, a.incd = 1, a.incx = 1;
  int ret = starpu_task_insert(&exstar_trsv_copy_cl, STARPU_R, b, STARPU_W, r, STARPU_VALUE, &a, sizeof a,
                               STARPU_NAME, "exstar_gesv_copy", 0);
  return exstar_rt::submit_status(ret, "exstar_dgesv");
}

// One column of gesv: solve, then `steps` refinement steps against hA0 (A's entry value).
int insert_refined_column(int64_t n, starpu_data_handle_t hLU, starpu_data_handle_t hp, starpu_data_handle_t hA0,
                          starpu_data_handle_t x, starpu_data_handle_t b, starpu_data_handle_t r, int steps)
{
  int s = insert_getrs_column('N', n, hLU, hp, x);
  for (int k = 0; k < steps && s == EXSTAR_SUCCESS; ++k) {
    if ((s = insert_copy(n, b, r))) break;
    if ((s = exstar_dgemv_insert('N', n, n, -1.0, hA0, 0, 0, x, 0, 1, 1.0, r, 0, 1, 0, 0))) break;
    if ((s = insert_getrs_column('N', n, hLU, hp, r))) break;
    s = exstar_daxpy_insert(n, 1.0, r, 0, 1, x, 0, 1);
  }
  return s;
}

// lu_name: the factors' argument, "A" (gesv) or "LU" (getrs).
int check_solve(const char *who, int64_t n, int64_t nrhs, const double *LU, int64_t lda, const int32_t *ipiv,
                const double *B, int64_t ldb, const char *lu_name)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (nrhs < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nrhs = %lld < 0", who, (long long)nrhs);
  if (int s = check_matrix(who, n, n, LU, lda, matrix_names{lu_name, "lda", "n", "n"})) return s;
  if (int s = check_matrix(who, n, nrhs, B, ldb, matrix_names{"B", "ldb", "n", "nrhs"})) return s;
  if (n > 0 && !ipiv) return exstar_set_error(EXSTAR_ERR_ARG, "%s: ipiv is NULL", who);
  return EXSTAR_SUCCESS;
}

// The interchanges of ipiv on the rows of B, forward (k increasing) or backward.
void laswp_rows(int64_t n, int64_t nrhs, const int32_t *ipiv, double *B, int64_t ldb, bool forward)
{
  for (int64_t q = 0; q < n; ++q) {
    const int64_t k = forward ? q : n - 1 - q, p = (int64_t)ipiv[k] - 1;
    if (p != k)
      for (int64_t c = 0; c < nrhs; ++c) std::swap(B[k + c * ldb], B[p + c * ldb]);
  }
}

// All right-hand sides at once through the exact trsm (each column is exstar_dtrsv's bits):
// 'N': P, L (unit), U; 'T': Uᵀ, Lᵀ (unit), P backward.
int solve_trsm(const char *who, char trans, int64_t n, int64_t nrhs, const double *LU, int64_t lda,
               const int32_t *ipiv, double *B, int64_t ldb)
{
  if (trans == 'N') laswp_rows(n, nrhs, ipiv, B, ldb, true);
  int s = exstar_rt::trsm_blocking(who, 'L', trans == 'N' ? 'L' : 'U', trans, trans == 'N' ? 'U' : 'N', n, nrhs, 1.0,
                                   LU, lda, B, ldb, false);
  if (s == EXSTAR_SUCCESS)
    s = exstar_rt::trsm_blocking(who, 'L', trans == 'N' ? 'U' : 'L', trans, trans == 'N' ? 'N' : 'U', n, nrhs, 1.0, LU,
                                 lda, B, ldb, false);
  if (s == EXSTAR_SUCCESS && trans == 'T') laswp_rows(n, nrhs, ipiv, B, ldb, false);
  return s;
}

// The exact solves of the nrhs columns of B (refined when A0 is given), all submitted first.
int solve_columns(const char *who, char trans, int64_t n, int64_t nrhs, const double *LU, int64_t lda,
                  const int32_t *ipiv, double *B, int64_t ldb, const double *A0, int steps)
{
  if (n == 0 || nrhs == 0) return EXSTAR_SUCCESS;
  if (!A0) return solve_trsm(who, trans, n, nrhs, LU, lda, ipiv, B, ldb);
  // The copies of B and the handle lists first: a failure then leaves nothing registered.
  std::vector<double> bcopy;
  std::vector<starpu_data_handle_t> hx, hb, hr;
  if (int t = exstar_rt::check_memory(who, exstar_rt::bytes_of(exstar_rt::bytes_of(n, nrhs), 16))) return t;
  try {
    bcopy.resize((size_t)(n * nrhs));
    hx.assign((size_t)nrhs, nullptr), hb.assign((size_t)nrhs, nullptr), hr.assign((size_t)nrhs, nullptr);
  } catch (const std::bad_alloc &) {
    return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory (a copy of B)", who);
  }
  starpu_data_handle_t hLU, hp, hA0 = nullptr;
  starpu_matrix_data_register(&hLU, STARPU_MAIN_RAM, (uintptr_t)LU, (uint32_t)lda, (uint32_t)n, (uint32_t)n,
                              sizeof(double));
  starpu_vector_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)ipiv, (uint32_t)n, sizeof(int32_t));
  if (A0)
    starpu_matrix_data_register(&hA0, STARPU_MAIN_RAM, (uintptr_t)A0, (uint32_t)n, (uint32_t)n, (uint32_t)n,
                                sizeof(double));
  int s = EXSTAR_SUCCESS;
  for (int64_t c = 0; c < nrhs && s == EXSTAR_SUCCESS; ++c) {
    hx[c] = exstar_rt::register_vector(B + c * ldb, n);
    if (!A0) {
      s = insert_getrs_column(trans, n, hLU, hp, hx[c]);
      continue;
    }
    std::memcpy(&bcopy[(size_t)(c * n)], B + c * ldb, (size_t)n * sizeof(double));
    hb[c] = exstar_rt::register_vector(&bcopy[(size_t)(c * n)], n);
    starpu_vector_data_register(&hr[c], -1, 0, (uint32_t)n, sizeof(double));
    s = insert_refined_column(n, hLU, hp, hA0, hx[c], hb[c], hr[c], steps);
  }
  for (int64_t c = 0; c < nrhs; ++c) {
    if (hr[c]) starpu_data_unregister_submit(hr[c]);
    if (hb[c]) starpu_data_unregister(hb[c]);
    if (hx[c]) starpu_data_unregister(hx[c]);
  }
  if (hA0) starpu_data_unregister(hA0);
  starpu_data_unregister(hp);
  starpu_data_unregister(hLU);
  return s == EXSTAR_SUCCESS ? exstar_rt::take_codelet_error() : s;
}

char normalize_trans(char t)
{
  return (t == 'N' || t == 'n') ? 'N' : (t == 'T' || t == 't' || t == 'C' || t == 'c') ? 'T' : 0;
}

} // namespace

int exstar_dgetrf_insert(int64_t m, int64_t n, starpu_data_handle_t hA, starpu_data_handle_t hipiv, int64_t nb)
{
  return insert_lu("exstar_dgetrf_insert", m, n, hA, hipiv, nb, false);
}

int exstar_dgetrf_plain_insert(int64_t m, int64_t n, starpu_data_handle_t hA, starpu_data_handle_t hipiv)
{
  return insert_lu("exstar_dgetrf_plain_insert", m, n, hA, hipiv, 0, true);
}

int exstar_dgetrf_unblocked(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info)
{
  return getrf_blocking("exstar_dgetrf_unblocked", m, n, A, lda, ipiv, info, false);
}

namespace {

// exstar_dgetrf_tiled, its errors signed by who (the public call the user made).
int getrf_tiled(const char *who, int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info,
                int64_t nb)
{
  if (int s = check_getrf(who, m, n, A, lda, ipiv, info)) return s;
  if (nb < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nb < 0", who);
  if (empty_getrf(m, n, info)) return EXSTAR_SUCCESS;
  *info = 0;
  // The panel and U-row tasks run on CPU workers, and on CUDA workers when the build has their
  // CUDA kernels: without either, the unblocked graph.
  if (!exstar_rt::tiled_lu_runs()) return getrf_blocking(who, m, n, A, lda, ipiv, info, false);
  if (nb == 0) nb = exstar_default_tile(m, n);
  if (nb > UINT32_MAX) nb = UINT32_MAX;
  // Before any buffer or task: StarPU allocates the states and copies in its workers, where a
  // failure is an abort or a hang (runtime/memory.cpp).
  if (int s = exstar_rt::check_memory(who, exstar_rt::tiled_lu_bytes(m, n, nb, true))) return s;
  exstar_rt::tiled_desc d;
  int s = d.create(m, n, nb, A, lda, ipiv);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::getrf_tiled_insert(who, d, exstar_rt::exact_only());
  const tiled_result r = finish_tiled(d, s == EXSTAR_SUCCESS);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  return s == EXSTAR_SUCCESS ? tiled_status(who, r, m, n, A, lda, info) : s;
}

// exstar_dgetrf: the tiled graph, or the unblocked one after exstar_set_lu_tile(-1).
int getrf_default(const char *who, int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info)
{
  if (lu_tile.load() < 0) return getrf_blocking(who, m, n, A, lda, ipiv, info, false);
  return getrf_tiled(who, m, n, A, lda, ipiv, info, 0);
}

} // namespace

int exstar_dgetrf_tiled(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb)
{
  exstar_rt::clear_error();
  return getrf_tiled("exstar_dgetrf_tiled", m, n, A, lda, ipiv, info, nb);
}

void exstar_set_lu_tile(int64_t nb) { lu_tile.store(nb < -1 ? -1 : nb); }

int64_t exstar_default_tile(int64_t m, int64_t n)
{
  const int64_t t = lu_tile.load();
  if (t > 0) return t;
  // 128 where CPU workers run the panels: their cost grows with the tile edge (H100 + 4 CPU
  // workers, n = 4096: nb 128 2.8 s, 256 3.4 s, 512 6.1 s; 2026-11-23). 512 with the GPU alone:
  // the panels run there in parallel over rows, and the per-task costs (tile updates of 128³,
  // launches) dominate small tiles (H100, n = 8192: nb 512 1.25 s, 256 1.78 s; 2026-11-24).
  // The same with CPU workers beside the GPU: the panel path is then the GPU's (panel_where), and
  // with 128 the updates are 64x more tasks (15 CPU workers + GPU, n = 8192: nb 128 9.3 s).
  // 1024 where each GPU has at least 16384 columns to itself: the updates (k = nb terms a pass
  // of the integer path, whose int32 sums and states are its memory traffic) then bound one
  // GPU, and k = 1024 halves that traffic per term, while the panels, longer with nb, are off
  // the critical path there (H200s, 2026-11-28: one, n = 32768: nb 1024 3.80 s, 512 4.74 s;
  // n = 16384: 0.774 s, 0.80 s; two, n = 32768: 2.13 s, 2.57 s). Below that the panel chain
  // sets the time and 512 stays (four, n = 32768: nb 512 1.62 s, 1024 1.98 s; measured before:
  // 256 and 512). The Cholesky agrees (one H200, n = 16384: 1024 0.43 s, 512 0.50 s; four:
  // 512 0.18-0.20 s, 1024 0.20 s). 2048 from 32768 columns a GPU: the same trade again, now
  // that the panel runs beside the updates on a third of the GPU (one H200, 2026-11-29, n =
  // 32768: nb 2048 2.848-2.875 s, 1536 2.842 s, 1024 2.98 s; at n = 16384 2048 is slower:
  // 0.718 s against 0.584-0.588 s, 1536 0.641 s, 768 0.645 s, 512 0.715 s). Two GPUs with 8192
  // to 16383 columns each take 768 (2 x H200, 2026-11-29, n = 16384, at home: the exact LU nb 768
  // 0.385 s, 1024 0.407 s, 512 0.432-0.443 s; the Cholesky 768 0.310 s, 1024 0.290 s, 512
  // 0.359 s). At n = 32768 the LU there took 1536 1.612-1.622 s against 1024's 1.676-1.683 s, but
  // the Cholesky was not measured at 1536, so 1024 stays; four GPUs keep 512 (measured against
  // 1024 only).
  if (exstar_rt::panel_where() == STARPU_CUDA) {
    const int64_t gpus = (int64_t)exstar_rt::gpu_worker_masks().size();
    const int64_t cols = (m < n ? m : n) / (gpus > 1 ? gpus : 1);
    const int64_t t = cols >= 32768 ? 2048 : cols >= 16384 ? 1024 : 512;
    return gpus == 2 && t == 512 && cols >= 8192 ? 768 : t;
  }
  return 128;
}

int exstar_dgetrf(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info)
{
  exstar_rt::clear_error();
  return getrf_default("exstar_dgetrf", m, n, A, lda, ipiv, info);
}

int exstar_dgetrf_plain(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info)
{
  return exstar_dgetrf_plain_tiled(m, n, A, lda, ipiv, info, 0);
}

int exstar_dgetrf_plain_tiled(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb)
{
  const char *who = "exstar_dgetrf_plain";
  exstar_rt::clear_error();
  if (int s = check_getrf(who, m, n, A, lda, ipiv, info)) return s;
  if (nb < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nb < 0", who);
  if (empty_getrf(m, n, info)) return EXSTAR_SUCCESS;
  *info = 0;
  if (!exstar_rt::plain_tiled_lu_runs()) return getrf_blocking(who, m, n, A, lda, ipiv, info, true); // the naive column graph
  if (nb == 0) nb = exstar_default_tile(m, n);
  if (int s = exstar_rt::check_memory(who, exstar_rt::tiled_lu_bytes(m, n, nb, false))) return s; // as getrf_tiled
  exstar_rt::tiled_desc d;
  int s = d.create(m, n, nb, A, lda, ipiv, false);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::getrf_tiled_insert(who, d, 0, true);
  d.destroy();
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  return s == EXSTAR_SUCCESS ? factor_status(who, m, n, A, lda, info) : s;
}

int exstar_dgetrf_batch(int64_t count, int64_t m, int64_t n, double **A, int64_t lda, int32_t **ipiv, int64_t *info)
{
  return getrf_batch("exstar_dgetrf_batch", count, m, n, A, lda, ipiv, info, false);
}

int exstar_dgetrf_plain_batch(int64_t count, int64_t m, int64_t n, double **A, int64_t lda, int32_t **ipiv,
                              int64_t *info)
{
  return getrf_batch("exstar_dgetrf_plain_batch", count, m, n, A, lda, ipiv, info, true);
}

int exstar_dgetrs(char trans, int64_t n, int64_t nrhs, const double *LU, int64_t lda, const int32_t *ipiv, double *B,
                  int64_t ldb)
{
  const char *who = "exstar_dgetrs";
  exstar_rt::clear_error();
  const char t = normalize_trans(trans);
  if (!t) return exstar_set_error(EXSTAR_ERR_ARG, "%s: trans = '%c'", who, trans);
  if (int s = check_solve(who, n, nrhs, LU, lda, ipiv, B, ldb, "LU")) return s;
  return solve_columns(who, t, n, nrhs, LU, lda, ipiv, B, ldb, nullptr, 0);
}

int exstar_dgesv(int64_t n, int64_t nrhs, double *A, int64_t lda, int32_t *ipiv, double *B, int64_t ldb,
                 int refine_steps, int64_t *info)
{
  const char *who = "exstar_dgesv";
  exstar_rt::clear_error();
  if (int s = check_solve(who, n, nrhs, A, lda, ipiv, B, ldb, "A")) return s;
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  if (refine_steps < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: refine_steps < 0", who);
  std::vector<double> A0; // the entry matrix, for the refinement's residuals
  if (refine_steps > 0 && nrhs > 0) {
    if (int s = exstar_rt::check_memory(who, exstar_rt::bytes_of(n * n, 8))) return s;
    try {
      A0.reserve((size_t)(n * n));
    } catch (const std::bad_alloc &) {
      return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory (a copy of A, %s)", who,
                              exstar_rt::format_bytes(exstar_rt::bytes_of(n * n, 8)).c_str());
    }
    for (int64_t j = 0; j < n; ++j) A0.insert(A0.end(), A + j * lda, A + j * lda + n);
  }
  int s = getrf_default(who, n, n, A, lda, ipiv, info);
  if (s != EXSTAR_SUCCESS && s != EXSTAR_ERR_NONFINITE) return s;
  char msg[512];
  std::snprintf(msg, sizeof msg, "%s", exstar_last_error());
  int t = solve_columns(who, 'N', n, nrhs, A, lda, ipiv, B, ldb, A0.empty() ? nullptr : A0.data(), refine_steps);
  if (t != EXSTAR_SUCCESS) return t;
  return s == EXSTAR_SUCCESS ? s : exstar_set_error(s, "%s", msg);
}

int exstar_dgetrs_plain(int64_t n, int64_t nrhs, const double *LU, int64_t lda, const int32_t *ipiv, double *B,
                        int64_t ldb)
{
  const char *who = "exstar_dgetrs_plain";
  exstar_rt::clear_error();
  if (int s = check_solve(who, n, nrhs, LU, lda, ipiv, B, ldb, "LU")) return s;
  if (n == 0 || nrhs == 0) return EXSTAR_SUCCESS;
  starpu_data_handle_t hLU, hp, hB;
  starpu_matrix_data_register(&hLU, STARPU_MAIN_RAM, (uintptr_t)LU, (uint32_t)lda, (uint32_t)n, (uint32_t)n,
                              sizeof(double));
  starpu_vector_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)ipiv, (uint32_t)n, sizeof(int32_t));
  starpu_matrix_data_register(&hB, STARPU_MAIN_RAM, (uintptr_t)B, (uint32_t)ldb, (uint32_t)n, (uint32_t)nrhs,
                              sizeof(double));
  exstar_lu_args a;
  std::memset(&a, 0, sizeof a);
  a.m = n;
  a.rlen = n;
  a.klen = nrhs;
  int ret = starpu_task_insert(&exstar_lu_plain_getrs_cl, STARPU_R, hLU, STARPU_R, hp, STARPU_RW, hB, STARPU_VALUE,
                               &a, sizeof a, STARPU_NAME, "exstar_lu_plain_getrs", 0);
  starpu_data_unregister(hB);
  starpu_data_unregister(hp);
  starpu_data_unregister(hLU);
  int s = exstar_rt::submit_status(ret, who);
  return s == EXSTAR_SUCCESS ? exstar_rt::take_codelet_error() : s;
}

int exstar_dgesv_plain(int64_t n, int64_t nrhs, double *A, int64_t lda, int32_t *ipiv, double *B, int64_t ldb,
                       int64_t *info)
{
  const char *who = "exstar_dgesv_plain";
  exstar_rt::clear_error();
  if (int s = check_solve(who, n, nrhs, A, lda, ipiv, B, ldb, "A")) return s;
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  int s = getrf_blocking(who, n, n, A, lda, ipiv, info, true);
  if (s != EXSTAR_SUCCESS && s != EXSTAR_ERR_NONFINITE) return s;
  char msg[512];
  std::snprintf(msg, sizeof msg, "%s", exstar_last_error());
  int t = exstar_dgetrs_plain(n, nrhs, A, lda, ipiv, B, ldb);
  if (t != EXSTAR_SUCCESS) return t;
  return s == EXSTAR_SUCCESS ? s : exstar_set_error(s, "%s", msg);
}

namespace exstar_rt {

int lu_factor_status(const char *who, int64_t m, int64_t n, const double *A, int64_t lda, int64_t *info)
{
  return factor_status(who, m, n, A, lda, info);
}

int lu_check_getrf(const char *who, int64_t m, int64_t n, const double *A, int64_t lda, const int32_t *ipiv,
                   const int64_t *info)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who); // its callers write *info
  return check_getrf(who, m, n, A, lda, ipiv, info);
}

int lu_solve(const char *who, int64_t n, int64_t nrhs, const double *LU, int64_t lda, const int32_t *ipiv, double *B,
             int64_t ldb, const double *A0, int steps)
{
  return solve_columns(who, 'N', n, nrhs, LU, lda, ipiv, B, ldb, A0, steps);
}

} // namespace exstar_rt
