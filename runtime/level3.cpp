// Drivers of exact Level 3: gemm and trsm (blocking calls tile the output; task forms insert one
// task on the caller's handles) and the GEMM-accumulate state's insertion calls.
#include "runtime/internal.h"
#include "codelets/codelets.h"
#include "runtime/check_handles.h"
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

std::atomic<int> exact_only_flag{-1}; // -1: not yet read from EXSTAR_EXACT_ONLY

} // namespace

int exstar_rt::exact_only()
{
  int f = exact_only_flag.load();
  if (f < 0) {
    const char *e = std::getenv("EXSTAR_EXACT_ONLY");
    f = e && std::strcmp(e, "0") != 0 && *e ? 1 : 0;
    int expected = -1;
    exact_only_flag.compare_exchange_strong(expected, f);
    f = exact_only_flag.load();
  }
  return f;
}

namespace {
using exstar_rt::exact_only;
using exstar_rt::where_for;

bool is_notrans(char t) { return t == 'N' || t == 'n'; }
bool is_trans(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }
bool is_one_of(char c, const char *set) { return c && std::strchr(set, c) != nullptr; }

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A matrix handle holding at least the block (i0 + rows) x (j0 + cols) of elements of elemsize.
int check_block(const char *who, const char *name, starpu_data_handle_t h, int64_t i0, int64_t j0, int64_t rows,
                int64_t cols, size_t elemsize)
{
  if (i0 < 0 || j0 < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: negative block origin of %s", who, name);
  if (rows == 0 || cols == 0) return EXSTAR_SUCCESS;
  // blocks of doubles: the checks every insert call shares (runtime/check_handles.h)
  if (elemsize == sizeof(double)) return exstar_rt::check_matrix_handle(who, name, h, i0, j0, rows, cols);
  if (!h) return exstar_set_error(EXSTAR_ERR_ARG, "%s: handle %s is NULL", who, name);
  if (starpu_data_get_interface_id(h) != STARPU_MATRIX_INTERFACE_ID)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is not a StarPU matrix handle", who, name);
  if (starpu_matrix_get_elemsize(h) != elemsize)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s has elements of %zu bytes, expected %zu", who, name,
                            starpu_matrix_get_elemsize(h), elemsize);
  const int64_t nx = (int64_t)starpu_matrix_get_nx(h), ny = (int64_t)starpu_matrix_get_ny(h);
  if (i0 + rows > nx || j0 + cols > ny)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: block (%lld + %lld) x (%lld + %lld) exceeds %s (%lld x %lld)", who,
                            (long long)i0, (long long)rows, (long long)j0, (long long)cols, name, (long long)nx,
                            (long long)ny);
  return EXSTAR_SUCCESS;
}

// Stored shape of op(X) when op(X) is r x c.
void stored(char trans, int64_t r, int64_t c, int64_t *rows, int64_t *cols)
{
  *rows = is_notrans(trans) ? r : c;
  *cols = is_notrans(trans) ? c : r;
}

int check_trans(const char *who, const char *name, char t)
{
  if (!is_notrans(t) && !is_trans(t)) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s must be 'N' or 'T'", who, name);
  return EXSTAR_SUCCESS;
}

int check_ld(const char *who, const char *name, int64_t ld, int64_t rows)
{
  if (ld < (rows > 1 ? rows : 1)) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s < max(1, %lld)", who, name, (long long)rows);
  if (ld > UINT32_MAX) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s beyond 2^32 is not supported", who, name);
  return EXSTAR_SUCCESS;
}

starpu_data_handle_t register_matrix(const double *p, int64_t ld, int64_t rows, int64_t cols)
{
  starpu_data_handle_t h;
  starpu_matrix_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)p, (uint32_t)ld, (uint32_t)rows, (uint32_t)cols,
                              sizeof(double));
  return h;
}

// Tile edge of a blocking call's output: 1024 (a GPU fills up with a 1024 x 1024 tile, a CPU
// core finishes one in a bounded time), 2048 when every worker is a CUDA worker (the integer
// path converts a tile's strips of A and B once a task: a larger tile converts less), halved
// while there are fewer tiles than twice the workers.
int64_t tile_edge(int64_t m, int64_t n)
{
  const int64_t want = 2 * (int64_t)starpu_worker_get_count();
  int64_t t = starpu_cuda_worker_get_count() == starpu_worker_get_count() ? 2048 : 1024;
  while (t > 128 && ceil_div(m, t) * ceil_div(n, t) < want) t /= 2;
  return t;
}

// Partitions h (rows x cols) into a grid of pr x pc sub-handles.
void partition(starpu_data_handle_t h, unsigned pr, unsigned pc)
{
  struct starpu_data_filter fr, fc;
  std::memset(&fr, 0, sizeof fr);
  std::memset(&fc, 0, sizeof fc);
  fr.filter_func = starpu_matrix_filter_block;
  fr.nchildren = pr;
  fc.filter_func = starpu_matrix_filter_vertical_block;
  fc.nchildren = pc;
  starpu_data_map_filters(h, 2, &fr, &fc);
}

// Waits for the tasks on h's tiles, gathers it home and releases it.
void unregister_partitioned(starpu_data_handle_t h)
{
  starpu_data_unpartition(h, STARPU_MAIN_RAM);
  starpu_data_unregister(h);
}

} // namespace

void exstar_set_exact_only(int on)
{
  (void)exact_only();
  exact_only_flag.store(on ? 1 : 0);
}

// ---- gemm --------------------------------------------------------------------------------

static int check_gemm_args(const char *who, char transa, char transb, int64_t m, int64_t n, int64_t k)
{
  if (int s = check_trans(who, "transa", transa)) return s;
  if (int s = check_trans(who, "transb", transb)) return s;
  if (m < 0 || n < 0 || k < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m, n or k < 0", who);
  return EXSTAR_SUCCESS;
}

// gpu (len words): the workers that may run it (NULL: any).
static int insert_gemm_like(const char *who, starpu_codelet *cl, enum starpu_data_access_mode cmode, char transa,
                            char transb, int64_t m, int64_t n, int64_t k, double alpha, double beta,
                            starpu_data_handle_t A, int64_t ia, int64_t ja, starpu_data_handle_t B, int64_t ib,
                            int64_t jb, starpu_data_handle_t C, int64_t ic, int64_t jc, const uint32_t *gpu = nullptr,
                            unsigned len = 0)
{
  for (auto [name, h] : {std::pair<const char *, starpu_data_handle_t>{"A", A}, {"B", B}, {"C", C}})
    if (int s = exstar_rt::check_fits(who, name, h)) return s;
  exstar_gemm_args a;
  std::memset(&a, 0, sizeof a);
  a.transa = is_notrans(transa) ? 'N' : 'T';
  a.transb = is_notrans(transb) ? 'N' : 'T';
  a.m = m, a.n = n, a.k = k, a.alpha = alpha, a.beta = beta;
  a.ia = ia, a.ja = ja, a.ib = ib, a.jb = jb, a.ic = ic, a.jc = jc;
  a.exact_only = exact_only();
  const unsigned where = where_for(A) & where_for(B) & where_for(C);
  int ret = gpu ? starpu_task_insert(cl, STARPU_EXECUTE_WHERE, where, STARPU_R, A, STARPU_R, B, cmode, C, STARPU_VALUE,
                                     &a, sizeof a, STARPU_TASK_WORKERIDS, len, gpu, STARPU_NAME, cl->name, 0)
                : starpu_task_insert(cl, STARPU_EXECUTE_WHERE, where, STARPU_R, A, STARPU_R, B, cmode, C, STARPU_VALUE,
                                     &a, sizeof a, STARPU_NAME, cl->name, 0);
  return ret == 0 ? EXSTAR_SUCCESS : exstar_rt::submit_status(ret, who);
}

void exstar_rt::gemm_gpu_grid(size_t gpus, unsigned *pg, unsigned *qg)
{
  *pg = *qg = 0;
  if (gpus < 2 || !exstar_gemm_cl.cuda_funcs[0]) return;
  unsigned p = 1;
  for (unsigned d = 1; d * d <= gpus; ++d)
    if (gpus % d == 0) p = d;
  *pg = p, *qg = (unsigned)gpus / p;
}

int exstar_dgemm_insert(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                        starpu_data_handle_t A, int64_t ia, int64_t ja, starpu_data_handle_t B, int64_t ib,
                        int64_t jb, double beta, starpu_data_handle_t C, int64_t ic, int64_t jc)
{
  const char *who = "exstar_dgemm_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_gemm_args(who, transa, transb, m, n, k)) return s;
  int64_t ar, ac, br, bc;
  stored(transa, m, k, &ar, &ac);
  stored(transb, k, n, &br, &bc);
  if (int s = check_block(who, "C", C, ic, jc, m, n, sizeof(double))) return s;
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  if (k > 0) {
    if (int s = check_block(who, "A", A, ia, ja, ar, ac, sizeof(double))) return s;
    if (int s = check_block(who, "B", B, ib, jb, br, bc, sizeof(double))) return s;
  } else if (!A || !B) {
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: A and B must be handles even when k == 0", who);
  }
  const bool whole = ic == 0 && jc == 0 && m == (int64_t)starpu_matrix_get_nx(C) && n == (int64_t)starpu_matrix_get_ny(C);
  const bool w = beta == 0.0 && whole;
  return insert_gemm_like(who, w ? &exstar_gemm_w_cl : &exstar_gemm_cl, w ? STARPU_W : STARPU_RW, transa, transb, m,
                          n, k, alpha, beta, A, ia, ja, B, ib, jb, C, ic, jc);
}

int exstar_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double *A,
                 int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc)
{
  const char *who = "exstar_dgemm";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_gemm_args(who, transa, transb, m, n, k)) return s;
  int64_t ar, ac, br, bc;
  stored(transa, m, k, &ar, &ac);
  stored(transb, k, n, &br, &bc);
  if (int s = check_ld(who, "lda", lda, ar)) return s;
  if (int s = check_ld(who, "ldb", ldb, br)) return s;
  if (int s = check_ld(who, "ldc", ldc, m)) return s;
  if (m > UINT32_MAX || n > UINT32_MAX || k > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: dimensions beyond 2^32 are not supported", who);
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  if (!C) return exstar_set_error(EXSTAR_ERR_ARG, "%s: C is NULL", who);
  if (k > 0 && (!A || !B)) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A or B is NULL", who);
  static const double none = 0.0; // k == 0: A and B are not read, but the codelet has buffers for them
  starpu_data_handle_t hA = k > 0 ? register_matrix(A, lda, ar, ac) : register_matrix(&none, 1, 1, 1);
  starpu_data_handle_t hB = k > 0 ? register_matrix(B, ldb, br, bc) : register_matrix(&none, 1, 1, 1);
  starpu_data_handle_t hC = register_matrix(C, ldc, m, n);
  const int64_t t = tile_edge(m, n);
  const unsigned pr = (unsigned)ceil_div(m, t), pc = (unsigned)ceil_div(n, t);
  partition(hC, pr, pc);
  // A by the tile rows of C and B by its tile columns: a tile's task reads its k-long strips
  // (a GPU starts on its first tile after 2·t·k words, not after all of A and B, and holds only
  // the strips of its own tiles)
  if (k > 0) partition(hA, is_notrans(transa) ? pr : 1, is_notrans(transa) ? 1 : pr);
  if (k > 0) partition(hB, is_notrans(transb) ? 1 : pc, is_notrans(transb) ? pc : 1);
  const std::vector<std::vector<uint32_t>> &gpus = exstar_rt::lasting_gpu_worker_masks();
  unsigned pg, qg;
  exstar_rt::gemm_gpu_grid(gpus.size(), &pg, &qg);
  int s = EXSTAR_SUCCESS;
  for (unsigned q = 0; q < pc && s == EXSTAR_SUCCESS; ++q) {
    for (unsigned p = 0; p < pr && s == EXSTAR_SUCCESS; ++p) {
      starpu_data_handle_t tile = starpu_data_get_sub_data(hC, 2, p, q);
      const int64_t mt = (int64_t)starpu_matrix_get_nx(tile), nt = (int64_t)starpu_matrix_get_ny(tile);
      starpu_data_handle_t a = hA, b = hB;
      if (k > 0) {
        a = is_notrans(transa) ? starpu_data_get_sub_data(hA, 2, p, 0) : starpu_data_get_sub_data(hA, 2, 0, p);
        b = is_notrans(transb) ? starpu_data_get_sub_data(hB, 2, 0, q) : starpu_data_get_sub_data(hB, 2, q, 0);
      }
      const std::vector<uint32_t> *on = pg ? &gpus[(p % pg) * qg + q % qg] : nullptr;
      const bool w = beta == 0.0;
      s = insert_gemm_like(who, w ? &exstar_gemm_w_cl : &exstar_gemm_cl, w ? STARPU_W : STARPU_RW, transa, transb, mt,
                           nt, k, alpha, beta, a, 0, 0, b, 0, 0, tile, 0, 0, on ? on->data() : nullptr,
                           on ? (unsigned)on->size() : 0);
    }
  }
  unregister_partitioned(hC);
  if (k > 0) starpu_data_unpartition(hB, STARPU_MAIN_RAM), starpu_data_unpartition(hA, STARPU_MAIN_RAM);
  starpu_data_unregister(hB);
  starpu_data_unregister(hA);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  return s;
}

// ---- trsm --------------------------------------------------------------------------------

static int check_trsm_args(const char *who, char side, char uplo, char transa, char diag, int64_t m, int64_t n)
{
  if (!is_one_of(side, "LlRr")) return exstar_set_error(EXSTAR_ERR_ARG, "%s: side must be 'L' or 'R'", who);
  if (!is_one_of(uplo, "LlUu")) return exstar_set_error(EXSTAR_ERR_ARG, "%s: uplo must be 'L' or 'U'", who);
  if (int s = check_trans(who, "transa", transa)) return s;
  if (!is_one_of(diag, "NnUu")) return exstar_set_error(EXSTAR_ERR_ARG, "%s: diag must be 'N' or 'U'", who);
  if (m < 0 || n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0", who);
  return EXSTAR_SUCCESS;
}

static int insert_trsm(const char *who, char side, char uplo, char transa, char diag, int64_t m, int64_t n,
                       double alpha, starpu_data_handle_t T, int64_t it, int64_t jt, starpu_data_handle_t B,
                       int64_t ib, int64_t jb)
{
  exstar_trsm_args a;
  std::memset(&a, 0, sizeof a);
  a.side = is_one_of(side, "Ll") ? 'L' : 'R';
  a.uplo = is_one_of(uplo, "Ll") ? 'L' : 'U';
  a.transa = is_notrans(transa) ? 'N' : 'T';
  a.diag = is_one_of(diag, "Nn") ? 'N' : 'U';
  a.m = m, a.n = n, a.alpha = alpha, a.it = it, a.jt = jt, a.ib = ib, a.jb = jb;
  a.exact_only = exact_only();
  if (int s = exstar_rt::check_fits(who, "T", T)) return s;
  if (int s = exstar_rt::check_fits(who, "B", B)) return s;
  int ret = starpu_task_insert(&exstar_trsm_cl, STARPU_EXECUTE_WHERE, where_for(T) & where_for(B), STARPU_R, T,
                               STARPU_RW, B, STARPU_VALUE, &a, sizeof a, STARPU_NAME, "exstar_trsm", 0);
  return ret == 0 ? EXSTAR_SUCCESS : exstar_rt::submit_status(ret, who);
}

int exstar_dtrsm_insert(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                        starpu_data_handle_t T, int64_t it, int64_t jt, starpu_data_handle_t B, int64_t ib,
                        int64_t jb)
{
  const char *who = "exstar_dtrsm_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_trsm_args(who, side, uplo, transa, diag, m, n)) return s;
  const int64_t nt = is_one_of(side, "Ll") ? m : n;
  if (int s = check_block(who, "B", B, ib, jb, m, n, sizeof(double))) return s;
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  if (int s = check_block(who, "T", T, it, jt, nt, nt, sizeof(double))) return s;
  return insert_trsm(who, side, uplo, transa, diag, m, n, alpha, T, it, jt, B, ib, jb);
}

int exstar_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha, const double *T,
                 int64_t ldt, double *B, int64_t ldb)
{
  exstar_rt::clear_error();
  return exstar_rt::trsm_blocking("exstar_dtrsm", side, uplo, transa, diag, m, n, alpha, T, ldt, B, ldb, true);
}

int exstar_rt::trsm_blocking(const char *who, char side, char uplo, char transa, char diag, int64_t m, int64_t n,
                             double alpha, const double *T, int64_t ldt, double *B, int64_t ldb, bool check_diag)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_trsm_args(who, side, uplo, transa, diag, m, n)) return s;
  const bool left = is_one_of(side, "Ll");
  const int64_t nt = left ? m : n;
  if (int s = check_ld(who, "ldt", ldt, nt)) return s;
  if (int s = check_ld(who, "ldb", ldb, m)) return s;
  if (m > UINT32_MAX || n > UINT32_MAX) return exstar_set_error(EXSTAR_ERR_ARG, "%s: dimensions beyond 2^32 are not supported", who);
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  if (!B) return exstar_set_error(EXSTAR_ERR_ARG, "%s: B is NULL", who);
  if (alpha == 0.0) { // BLAS: X := 0, nothing read
    for (int64_t j = 0; j < n; ++j) std::memset(B + j * ldb, 0, (size_t)m * sizeof(double));
    return EXSTAR_SUCCESS;
  }
  if (!T) return exstar_set_error(EXSTAR_ERR_ARG, "%s: T is NULL", who);
  if (check_diag && is_one_of(diag, "Nn"))
    for (int64_t i = 0; i < nt; ++i)
      if (T[i + i * ldt] == 0.0)
        return exstar_set_error(EXSTAR_ERR_SINGULAR, "%s: T(%lld,%lld) = 0 (1-based): singular, B unchanged", who,
                                (long long)(i + 1), (long long)(i + 1));
  starpu_data_handle_t hT = register_matrix(T, ldt, nt, nt);
  starpu_data_handle_t hB = register_matrix(B, ldb, m, n);
  // Independent right-hand sides: columns (side L) or rows (side R) split into parts.
  const int64_t nrhs = left ? n : m;
  const int64_t want = 2 * (int64_t)starpu_worker_get_count();
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(nrhs, std::max<int64_t>(ceil_div(nrhs, 512), want)));
  partition(hB, left ? 1u : (unsigned)parts, left ? (unsigned)parts : 1u);
  int s = EXSTAR_SUCCESS;
  for (int64_t p = 0; p < parts && s == EXSTAR_SUCCESS; ++p) {
    starpu_data_handle_t blk = starpu_data_get_sub_data(hB, 2, left ? 0 : (unsigned)p, left ? (unsigned)p : 0);
    s = insert_trsm(who, side, uplo, transa, diag, (int64_t)starpu_matrix_get_nx(blk),
                    (int64_t)starpu_matrix_get_ny(blk), alpha, hT, 0, 0, blk, 0, 0);
  }
  unregister_partitioned(hB);
  starpu_data_unregister(hT);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  return s;
}

// ---- the GEMM-accumulate state -----------------------------------------------------------

int exstar_state_register(starpu_data_handle_t *st, int64_t m, int64_t n)
{
  const char *who = "exstar_state_register";
  if (int s = exstar_rt::require_init(who)) return s;
  if (!st) return exstar_set_error(EXSTAR_ERR_ARG, "%s: st is NULL", who);
  if (m < 1 || n < 1 || m > UINT32_MAX || n > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: m and n must be in [1, 2^32)", who);
  starpu_matrix_data_register(st, -1, 0, (uint32_t)m, (uint32_t)m, (uint32_t)n, EXSTAR_STATE_ENTRY_BYTES);
  // a state read before any task wrote it is zero (StarPU runs the init codelet on first use)
  starpu_data_set_reduction_methods(*st, nullptr, &exstar_state_zero_cl);
  return EXSTAR_SUCCESS;
}

int exstar_state_init_insert(int64_t m, int64_t n, starpu_data_handle_t C, int64_t ic, int64_t jc,
                             starpu_data_handle_t st, int64_t is, int64_t js)
{
  const char *who = "exstar_state_init_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (m < 0 || n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0", who);
  if (int s = check_block(who, "C", C, ic, jc, m, n, sizeof(double))) return s;
  if (int s = check_block(who, "st", st, is, js, m, n, EXSTAR_STATE_ENTRY_BYTES)) return s;
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  exstar_state_args a;
  std::memset(&a, 0, sizeof a);
  a.m = m, a.n = n, a.ic = ic, a.jc = jc, a.is = is, a.js = js;
  int ret = starpu_task_insert(&exstar_state_init_cl, STARPU_R, C, STARPU_RW, st, STARPU_VALUE, &a, sizeof a,
                               STARPU_NAME, "exstar_state_init", 0);
  return ret == 0 ? EXSTAR_SUCCESS : exstar_rt::submit_status(ret, who);
}

int exstar_state_gemm_insert(char transa, char transb, int64_t m, int64_t n, int64_t k, double sign,
                             starpu_data_handle_t A, int64_t ia, int64_t ja, starpu_data_handle_t B, int64_t ib,
                             int64_t jb, starpu_data_handle_t st, int64_t is, int64_t js)
{
  const char *who = "exstar_state_gemm_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_gemm_args(who, transa, transb, m, n, k)) return s;
  if (sign != 1.0 && sign != -1.0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: sign must be +1 or -1", who);
  int64_t ar, ac, br, bc;
  stored(transa, m, k, &ar, &ac);
  stored(transb, k, n, &br, &bc);
  if (int s = check_block(who, "st", st, is, js, m, n, EXSTAR_STATE_ENTRY_BYTES)) return s;
  if (m == 0 || n == 0 || k == 0) return EXSTAR_SUCCESS;
  if (int s = check_block(who, "A", A, ia, ja, ar, ac, sizeof(double))) return s;
  if (int s = check_block(who, "B", B, ib, jb, br, bc, sizeof(double))) return s;
  return insert_gemm_like(who, &exstar_state_gemm_cl, STARPU_RW, transa, transb, m, n, k, sign, 0.0, A, ia, ja, B, ib,
                          jb, st, is, js);
}

int exstar_state_round_insert(int64_t m, int64_t n, starpu_data_handle_t st, int64_t is, int64_t js,
                              starpu_data_handle_t C, int64_t ic, int64_t jc, starpu_data_handle_t mask)
{
  const char *who = "exstar_state_round_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (m < 0 || n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0", who);
  if (int s = check_block(who, "st", st, is, js, m, n, EXSTAR_STATE_ENTRY_BYTES)) return s;
  if (int s = check_block(who, "C", C, ic, jc, m, n, sizeof(double))) return s;
  if (mask) {
    if (starpu_data_get_interface_id(mask) != STARPU_VECTOR_INTERFACE_ID || starpu_vector_get_elemsize(mask) != 1 ||
        (int64_t)starpu_vector_get_nx(mask) < m * n)
      return exstar_set_error(EXSTAR_ERR_ARG, "%s: mask must be a vector handle of at least m*n bytes", who);
  }
  if (m == 0 || n == 0) return EXSTAR_SUCCESS;
  exstar_state_args a;
  std::memset(&a, 0, sizeof a);
  a.m = m, a.n = n, a.ic = ic, a.jc = jc, a.is = is, a.js = js;
  int ret = mask ? starpu_task_insert(&exstar_state_round_cl, STARPU_R, st, STARPU_RW, C, STARPU_W, mask, STARPU_VALUE,
                                      &a, sizeof a, STARPU_NAME, "exstar_state_round", 0)
                 : starpu_task_insert(&exstar_state_round_nomask_cl, STARPU_R, st, STARPU_RW, C, STARPU_VALUE, &a,
                                      sizeof a, STARPU_NAME, "exstar_state_round", 0);
  return ret == 0 ? EXSTAR_SUCCESS : exstar_rt::submit_status(ret, who);
}
