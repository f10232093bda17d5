// Drivers of Level 1 (scal, invscal, axpy, swap, laswp, iamax): blocking calls on the caller's
// arrays and task insertion on the caller's handles. Arguments are checked before anything is
// registered or submitted.
#include "runtime/internal.h"
#include "runtime/check_handles.h"
#include "core/iamax.h"
#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

namespace {

using exstar_rt::vector_span;

// ---- argument checks ------------------------------------------------------------------------

using exstar_rt::check_vector_handle;

// Memory intervals [lo, hi] (in doubles) of two BLAS vectors overlap.
bool overlap(const double *x, int64_t nx_span, const double *y, int64_t ny_span)
{
  return nx_span > 0 && ny_span > 0 && x < y + ny_span && y < x + nx_span;
}

int check_span_limit(const char *who, int64_t span)
{
  if ((uint64_t)span > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: vectors beyond 2^32 elements are not supported", who);
  return EXSTAR_SUCCESS;
}

int submit(int ret, const char *who) { return exstar_rt::submit_status(ret, who); }

// ---- blocking elementwise calls -------------------------------------------------------------

// Part k of the blocking split: elements [begin, begin+len) of a BLAS vector (n, inc) over the
// caller's array, registered as its own handle so that the parts run in parallel. Within it,
// the part is (len, offset 0, inc): its memory runs from its lowest to its highest element.
struct part_view {
  int64_t begin, len;
  starpu_data_handle_t h = nullptr;
};

starpu_data_handle_t register_part(const double *x, int64_t n, int64_t inc, int64_t begin, int64_t len)
{
  int64_t lo = exstar_rt::subvector_offset(n, 0, inc, begin, len);
  return exstar_rt::register_vector(x + lo, vector_span(len, inc));
}

std::vector<part_view> split(int64_t n)
{
  int64_t nparts = std::min<int64_t>(exstar_rt::default_nparts(), std::max<int64_t>(n, 1));
  std::vector<part_view> parts;
  for (int64_t k = 0; k < nparts; ++k) {
    int64_t b = n * k / nparts, e = n * (k + 1) / nparts;
    if (e > b) parts.push_back({b, e - b});
  }
  return parts;
}

// One task of cl per part on x (and y when given), then waits (unregisters) and takes codelet
// errors. alpha is passed in exstar_level1_args.
int run_elementwise(const char *who, struct starpu_codelet *cl, int64_t n, double alpha, const double *x,
                    int64_t incx, const double *y, int64_t incy)
{
  std::vector<part_view> px = split(n);
  int s = EXSTAR_SUCCESS;
  std::vector<starpu_data_handle_t> handles;
  for (const part_view &p : px) {
    exstar_level1_args a;
    std::memset(&a, 0, sizeof a);
    a.n = p.len;
    a.alpha = alpha;
    a.incx = incx;
    a.incy = incy;
    starpu_data_handle_t hx = register_part(x, n, incx, p.begin, p.len);
    handles.push_back(hx);
    int ret;
    if (y) {
      starpu_data_handle_t hy = register_part(y, n, incy, p.begin, p.len);
      handles.push_back(hy);
      ret = starpu_task_insert(cl, cl->modes[0], hx, cl->modes[1], hy, STARPU_VALUE, &a, sizeof a, STARPU_NAME,
                               cl->name, 0);
    } else {
      ret = starpu_task_insert(cl, STARPU_RW, hx, STARPU_VALUE, &a, sizeof a, STARPU_NAME, cl->name, 0);
    }
    if ((s = submit(ret, who)) != EXSTAR_SUCCESS) break;
  }
  for (starpu_data_handle_t h : handles) starpu_data_unregister(h);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  return s;
}

int blocking_x(const char *who, struct starpu_codelet *cl, int64_t n, double alpha, double *x, int64_t incx)
{
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = exstar_rt::check_vector(who, "x", n, x, incx)) return s;
  if (int s = check_span_limit(who, vector_span(n, incx))) return s;
  return n == 0 ? EXSTAR_SUCCESS : run_elementwise(who, cl, n, alpha, x, incx, nullptr, 1);
}

int blocking_xy(const char *who, struct starpu_codelet *cl, int64_t n, double alpha, const double *x, int64_t incx,
                double *y, int64_t incy)
{
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = exstar_rt::check_vector(who, "x", n, x, incx)) return s;
  if (int s = exstar_rt::check_vector(who, "y", n, y, incy)) return s;
  int64_t sx = vector_span(n, incx), sy = vector_span(n, incy);
  if (int s = check_span_limit(who, std::max(sx, sy))) return s;
  if (overlap(x, sx, y, sy)) return exstar_set_error(EXSTAR_ERR_ARG, "%s: x and y overlap in memory", who);
  return n == 0 ? EXSTAR_SUCCESS : run_elementwise(who, cl, n, alpha, x, incx, y, incy);
}

// ---- task insertion, elementwise ------------------------------------------------------------

int insert_x(const char *who, struct starpu_codelet *cl, int64_t n, double alpha, starpu_data_handle_t x,
             int64_t offx, int64_t incx)
{
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_vector_handle(who, "x", x, n, offx, incx)) return s;
  if (n == 0) return EXSTAR_SUCCESS;
  exstar_level1_args a;
  std::memset(&a, 0, sizeof a);
  a.n = n;
  a.alpha = alpha;
  a.offx = offx;
  a.incx = incx;
  return submit(starpu_task_insert(cl, STARPU_RW, x, STARPU_VALUE, &a, sizeof a, STARPU_NAME, cl->name, 0), who);
}

int insert_xy(const char *who, struct starpu_codelet *cl, int64_t n, double alpha, starpu_data_handle_t x,
              int64_t offx, int64_t incx, starpu_data_handle_t y, int64_t offy, int64_t incy)
{
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_vector_handle(who, "x", x, n, offx, incx)) return s;
  if (int s = check_vector_handle(who, "y", y, n, offy, incy)) return s;
  if (x == y) return exstar_set_error(EXSTAR_ERR_ARG, "%s: x and y are the same handle", who);
  if (n == 0) return EXSTAR_SUCCESS;
  exstar_level1_args a;
  std::memset(&a, 0, sizeof a);
  a.n = n;
  a.alpha = alpha;
  a.offx = offx;
  a.incx = incx;
  a.offy = offy;
  a.incy = incy;
  return submit(starpu_task_insert(cl, cl->modes[0], x, cl->modes[1], y, STARPU_VALUE, &a, sizeof a, STARPU_NAME,
                                   cl->name, 0),
                who);
}

// ---- laswp -----------------------------------------------------------------------------------

// LAPACK's pivot positions: IX runs over k1 + t*|incx|, t = 0..k2-k1, whatever the sign of incx.
int64_t ipiv_length(int64_t k1, int64_t k2, int64_t incx) { return k2 < k1 ? 0 : k1 + (k2 - k1) * std::abs(incx); }

// rows_name: what holds the nrows rows, named in the message ("a" for the handle).
int check_laswp_range(const char *who, int64_t n, int64_t k1, int64_t k2, int64_t incx, const char *rows_name,
                      int64_t nrows)
{
  if (n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: n = %lld < 0", who, (long long)n);
  if (incx == 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: incx = 0", who);
  if (k1 < 1) return exstar_set_error(EXSTAR_ERR_ARG, "%s: k1 = %lld < 1 (1-based)", who, (long long)k1);
  if (k2 < k1 - 1)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: k2 = %lld < k1 - 1 = %lld", who, (long long)k2, (long long)(k1 - 1));
  if (k2 > nrows)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s has %lld rows, fewer than k2 = %lld", who, rows_name,
                            (long long)nrows, (long long)k2);
  return EXSTAR_SUCCESS;
}

// ---- iamax -----------------------------------------------------------------------------------

// A fresh iamax state with reduction methods, set to the empty pair by a first W task.
int new_iamax_state(const char *who, starpu_data_handle_t *st)
{
  starpu_vector_data_register(st, -1, 0, EXSTAR_IAMAX_WORDS, sizeof(exstar_i64));
  starpu_data_set_reduction_methods(*st, &exstar_iamax_redux_cl, &exstar_iamax_init_cl);
  int ret = starpu_task_insert(&exstar_iamax_init_cl, STARPU_W, *st, STARPU_NAME, "exstar_iamax_init", 0);
  if (ret != 0) starpu_data_unregister_submit(*st);
  return submit(ret, who);
}

// nparts tasks over contiguous element ranges of (n, offx, incx), each adding its winner to st.
int insert_iamax_parts(const char *who, int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx,
                       starpu_data_handle_t st, int nparts)
{
  if (nparts <= 0) nparts = exstar_rt::default_nparts();
  if (n < nparts) nparts = n > 0 ? (int)n : 1;
  for (int k = 0; k < nparts && n > 0; ++k) {
    int64_t begin = n * k / nparts, len = n * (k + 1) / nparts - begin;
    if (len == 0) continue;
    exstar_iamax_args a;
    std::memset(&a, 0, sizeof a);
    a.n = len;
    a.offx = exstar_rt::subvector_offset(n, offx, incx, begin, len);
    a.incx = incx;
    a.base = begin;
    int ret = starpu_task_insert(&exstar_iamax_cl, STARPU_R, x, STARPU_REDUX, st, STARPU_VALUE, &a, sizeof a,
                                 STARPU_NAME, "exstar_iamax", 0);
    if (ret != 0) return submit(ret, who);
  }
  return EXSTAR_SUCCESS;
}

// The state, its parts, and the task that reads it out (index_cl with out, or ipiv_cl).
int insert_iamax(const char *who, int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx,
                 starpu_data_handle_t out, const exstar_iamax_ipiv_args *ipiv, int nparts)
{
  starpu_data_handle_t st;
  if (int s = new_iamax_state(who, &st)) return s;
  int s = insert_iamax_parts(who, n, x, offx, incx, st, nparts);
  if (s == EXSTAR_SUCCESS) {
    int ret = ipiv ? starpu_task_insert(&exstar_iamax_ipiv_cl, STARPU_R, st, STARPU_RW, out, STARPU_VALUE, ipiv,
                                        sizeof *ipiv, STARPU_NAME, "exstar_iamax_ipiv", 0)
                   : starpu_task_insert(&exstar_iamax_index_cl, STARPU_R, st, STARPU_W, out, STARPU_NAME,
                                        "exstar_iamax_index", 0);
    s = submit(ret, who);
  }
  starpu_data_unregister_submit(st);
  return s;
}

} // namespace

// ---- public: blocking ----------------------------------------------------------------------------

int exstar_dscal(int64_t n, double alpha, double *x, int64_t incx)
{
  return blocking_x("exstar_dscal", &exstar_scal_cl, n, alpha, x, incx);
}

int exstar_dinvscal(int64_t n, double alpha, double *x, int64_t incx)
{
  return blocking_x("exstar_dinvscal", &exstar_invscal_cl, n, alpha, x, incx);
}

int exstar_daxpy(int64_t n, double alpha, const double *x, int64_t incx, double *y, int64_t incy)
{
  return blocking_xy("exstar_daxpy", &exstar_axpy_cl, n, alpha, x, incx, y, incy);
}

int exstar_dswap(int64_t n, double *x, int64_t incx, double *y, int64_t incy)
{
  return blocking_xy("exstar_dswap", &exstar_swap_cl, n, 0.0, x, incx, y, incy);
}

int exstar_dlaswp(int64_t n, double *A, int64_t lda, int64_t k1, int64_t k2, const int32_t *ipiv, int64_t incx)
{
  const char *who = "exstar_dlaswp";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (lda < 1) return exstar_set_error(EXSTAR_ERR_ARG, "%s: lda = %lld < 1", who, (long long)lda);
  if (int s = check_laswp_range(who, n, k1, k2, incx, "A (lda)", lda)) return s;
  if (n == 0 || k2 < k1) return EXSTAR_SUCCESS;
  if (!A) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A is NULL", who);
  if (!ipiv) return exstar_set_error(EXSTAR_ERR_ARG, "%s: ipiv is NULL", who);
  // Only rows up to the largest one named are touched, so only those are registered.
  const int64_t nipiv = ipiv_length(k1, k2, incx);
  int64_t nrows = k2;
  for (int64_t ix = k1; ix <= nipiv; ix += std::abs(incx)) {
    if (ipiv[ix - 1] < 1 || ipiv[ix - 1] > lda)
      return exstar_set_error(EXSTAR_ERR_ARG, "%s: ipiv[%lld] = %d outside [1, lda = %lld]", who,
                              (long long)(ix - 1), (int)ipiv[ix - 1], (long long)lda);
    nrows = std::max<int64_t>(nrows, ipiv[ix - 1]);
  }
  if ((uint64_t)lda > UINT32_MAX || (uint64_t)n > UINT32_MAX || (uint64_t)nipiv > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: sizes beyond 2^32 are not supported", who);
  starpu_data_handle_t hp;
  starpu_vector_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)ipiv, (uint32_t)nipiv, sizeof(int32_t));
  // Columns are independent: one task per block of columns, each block its own handle.
  std::vector<starpu_data_handle_t> blocks;
  int s = EXSTAR_SUCCESS;
  for (const part_view &p : split(n)) {
    starpu_data_handle_t ha;
    starpu_matrix_data_register(&ha, STARPU_MAIN_RAM, (uintptr_t)(A + p.begin * lda), (uint32_t)lda,
                                (uint32_t)nrows, (uint32_t)p.len, sizeof(double));
    blocks.push_back(ha);
    if ((s = exstar_rt::check_fits(who, "A", ha)) != EXSTAR_SUCCESS) break;
    exstar_laswp_args a = {p.len, 0, k1, k2, 0, incx};
    int ret = starpu_task_insert(&exstar_laswp_cl, STARPU_EXECUTE_WHERE, exstar_rt::where_for(ha), STARPU_RW, ha,
                                 STARPU_R, hp, STARPU_VALUE, &a, sizeof a, STARPU_NAME, "exstar_laswp", 0);
    if ((s = submit(ret, who)) != EXSTAR_SUCCESS) break;
  }
  for (starpu_data_handle_t h : blocks) starpu_data_unregister(h);
  starpu_data_unregister(hp);
  return s == EXSTAR_SUCCESS ? exstar_rt::take_codelet_error() : s;
}

int exstar_idamax(int64_t n, const double *x, int64_t incx, int64_t *index)
{
  const char *who = "exstar_idamax";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = exstar_rt::check_vector(who, "x", n, x, incx)) return s;
  if (!index) return exstar_set_error(EXSTAR_ERR_ARG, "%s: index is NULL", who);
  if (int s = check_span_limit(who, vector_span(n, incx))) return s;
  if (n == 0) {
    *index = -1;
    return EXSTAR_SUCCESS;
  }
  starpu_data_handle_t hx = exstar_rt::register_vector(x, vector_span(n, incx));
  int64_t result = -1;
  starpu_data_handle_t hi;
  starpu_variable_data_register(&hi, STARPU_MAIN_RAM, (uintptr_t)&result, sizeof result);
  int s = insert_iamax(who, n, hx, 0, incx, hi, nullptr, 0);
  starpu_data_unregister(hi);
  starpu_data_unregister(hx);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  if (s == EXSTAR_SUCCESS) *index = result;
  return s;
}

// ---- public: task insertion ------------------------------------------------------------------------

int exstar_dscal_insert(int64_t n, double alpha, starpu_data_handle_t x, int64_t offx, int64_t incx)
{
  return insert_x("exstar_dscal_insert", &exstar_scal_cl, n, alpha, x, offx, incx);
}

int exstar_dinvscal_insert(int64_t n, double alpha, starpu_data_handle_t x, int64_t offx, int64_t incx)
{
  return insert_x("exstar_dinvscal_insert", &exstar_invscal_cl, n, alpha, x, offx, incx);
}

int exstar_dinvscal_insert_h(int64_t n, starpu_data_handle_t h_alpha, int64_t off_alpha, starpu_data_handle_t x,
                             int64_t offx, int64_t incx, unsigned flags)
{
  const char *who = "exstar_dinvscal_insert_h";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_vector_handle(who, "x", x, n, offx, incx)) return s;
  if (flags & ~EXSTAR_INVSCAL_SKIP_ZERO) return exstar_set_error(EXSTAR_ERR_ARG, "%s: unknown flags %#x", who, flags);
  // The divisor is element off_alpha of the vector, or of the matrix read column by column
  // with the ld it has in main memory (as registered).
  exstar_rt::dense_shape sh;
  if (int s = exstar_rt::check_dense_handle(who, "h_alpha", h_alpha, &sh)) return s;
  if (off_alpha < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: h_alpha offset %lld < 0", who, (long long)off_alpha);
  exstar_invscal_h_args a;
  std::memset(&a, 0, sizeof a);
  if (sh.rows > 0) {
    a.alpha_row = off_alpha % sh.ld;
    a.alpha_col = off_alpha / sh.ld;
  }
  if (sh.rows == 0 || a.alpha_row >= sh.rows || a.alpha_col >= sh.cols)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: h_alpha has no element at offset %lld (%lld x %lld, ld %lld)", who,
                            (long long)off_alpha, (long long)sh.rows, (long long)sh.cols, (long long)sh.ld);
  if (n == 0) return EXSTAR_SUCCESS;
  a.n = n;
  a.offx = offx;
  a.incx = incx;
  a.skip_zero = (flags & EXSTAR_INVSCAL_SKIP_ZERO) ? 1 : 0;
  return submit(starpu_task_insert(&exstar_invscal_h_cl, STARPU_R, h_alpha, STARPU_RW, x, STARPU_VALUE, &a, sizeof a,
                                   STARPU_NAME, "exstar_invscal_h", 0),
                who);
}

int exstar_daxpy_insert(int64_t n, double alpha, starpu_data_handle_t x, int64_t offx, int64_t incx,
                        starpu_data_handle_t y, int64_t offy, int64_t incy)
{
  return insert_xy("exstar_daxpy_insert", &exstar_axpy_cl, n, alpha, x, offx, incx, y, offy, incy);
}

int exstar_dswap_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx, starpu_data_handle_t y,
                        int64_t offy, int64_t incy)
{
  return insert_xy("exstar_dswap_insert", &exstar_swap_cl, n, 0.0, x, offx, incx, y, offy, incy);
}

int exstar_dlaswp_insert_h(int64_t n, starpu_data_handle_t a, int64_t col0, int64_t k1, int64_t k2,
                           starpu_data_handle_t h_ipiv, int64_t off_ipiv, int64_t incx)
{
  const char *who = "exstar_dlaswp_insert_h";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  exstar_rt::dense_shape sh;
  if (int s = exstar_rt::check_dense_handle(who, "a", a, &sh)) return s;
  const int64_t nrows = sh.rows, ncols = sh.cols;
  if (int s = check_laswp_range(who, n, k1, k2, incx, "a", nrows)) return s;
  if (col0 < 0 || col0 + n > ncols)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: a has %lld columns, too few for columns [%lld, %lld)", who,
                            (long long)ncols, (long long)col0, (long long)(col0 + n));
  const int64_t nipiv = ipiv_length(k1, k2, incx);
  if (int s = check_vector_handle(who, "h_ipiv", h_ipiv, nipiv, off_ipiv, 1, sizeof(int32_t))) return s;
  if (n == 0 || k2 < k1) return EXSTAR_SUCCESS;
  exstar_laswp_args args = {n, col0, k1, k2, off_ipiv, incx};
  return submit(starpu_task_insert(&exstar_laswp_cl, STARPU_RW, a, STARPU_R, h_ipiv, STARPU_VALUE, &args, sizeof args,
                                   STARPU_NAME, "exstar_laswp", 0),
                who);
}

int exstar_idamax_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx, starpu_data_handle_t index,
                         int nparts)
{
  const char *who = "exstar_idamax_insert";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_vector_handle(who, "x", x, n, offx, incx)) return s;
  if (int s = exstar_rt::check_variable_handle(who, "index", index, sizeof(int64_t))) return s;
  return insert_iamax(who, n, x, offx, incx, index, nullptr, nparts);
}

int exstar_idamax_ipiv_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx,
                              starpu_data_handle_t h_ipiv, int64_t off_ipiv, int64_t base, int nparts)
{
  const char *who = "exstar_idamax_ipiv_insert";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (n < 1) return exstar_set_error(EXSTAR_ERR_ARG, "%s: n = %lld < 1", who, (long long)n);
  if (int s = check_vector_handle(who, "x", x, n, offx, incx)) return s;
  if (int s = check_vector_handle(who, "h_ipiv", h_ipiv, 1, off_ipiv, 1, sizeof(int32_t))) return s;
  if (base < INT32_MIN || base + n - 1 > INT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: base + index does not fit in int32", who);
  exstar_iamax_ipiv_args a = {off_ipiv, base};
  return insert_iamax(who, n, x, offx, incx, h_ipiv, &a, nparts);
}
