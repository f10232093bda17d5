// Drivers of the exact reductions sum and dot: blocking calls and task insertion.
#include "runtime/internal.h"
#include "runtime/check_handles.h"
#include <cstring>

namespace {

using exstar_rt::subvector_offset;

// Submits nparts tasks of cl over contiguous element ranges of the reduction; y may be NULL.
int insert_reduction(const char *who, struct starpu_codelet *cl, int64_t n, starpu_data_handle_t x,
                     int64_t offx, int64_t incx, starpu_data_handle_t y, int64_t offy, int64_t incy,
                     starpu_data_handle_t acc, int nparts)
{
  if (nparts <= 0) nparts = exstar_rt::default_nparts();
  if (n < nparts) nparts = n > 0 ? (int)n : 1;
  for (int k = 0; k < nparts; ++k) {
    int64_t begin = n * k / nparts, len = n * (k + 1) / nparts - begin;
    exstar_reduce_args a;
    std::memset(&a, 0, sizeof a);
    a.n = len;
    a.offx = subvector_offset(n, offx, incx, begin, len);
    a.incx = incx;
    int ret;
    if (y) {
      a.offy = subvector_offset(n, offy, incy, begin, len);
      a.incy = incy;
      ret = starpu_task_insert(cl, STARPU_R, x, STARPU_R, y, STARPU_REDUX, acc, STARPU_VALUE, &a, sizeof a,
                               STARPU_NAME, cl->name, 0);
    } else {
      ret = starpu_task_insert(cl, STARPU_R, x, STARPU_REDUX, acc, STARPU_VALUE, &a, sizeof a, STARPU_NAME,
                               cl->name, 0);
    }
    if (ret != 0) return exstar_rt::submit_status(ret, who);
  }
  return EXSTAR_SUCCESS;
}

// How the blocking form rounds the exact value: RN(value), or RN(sqrt(value)) (nrm2).
enum class rounding { value, sqrt };

// The blocking form: registers the caller's arrays, reduces into a fresh accumulator, rounds.
// y == x (nrm2): one handle read twice by each task.
int blocking_reduction(const char *who, struct starpu_codelet *cl, int64_t n, const double *x, int64_t incx,
                       const double *y, int64_t incy, double *result, rounding how = rounding::value)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = exstar_rt::check_vector(who, "x", n, x, incx)) return s;
  if (cl == &exstar_dot_cl)
    if (int s = exstar_rt::check_vector(who, "y", n, y, incy)) return s;
  if (!result) return exstar_set_error(EXSTAR_ERR_ARG, "%s: result is NULL", who);
  if ((uint64_t)exstar_rt::vector_span(n, incx) > UINT32_MAX || (uint64_t)exstar_rt::vector_span(n, incy) > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: vectors beyond 2^32 elements are not supported", who);
  if (n == 0) {
    *result = 0.0;
    return EXSTAR_SUCCESS;
  }
  starpu_data_handle_t hx = exstar_rt::register_vector(x, exstar_rt::vector_span(n, incx));
  const bool own_y = y && !(y == x && incy == incx);
  starpu_data_handle_t hy = own_y ? exstar_rt::register_vector(y, exstar_rt::vector_span(n, incy)) : y ? hx : nullptr;
  double value = 0.0;
  starpu_data_handle_t hr = exstar_rt::register_scalar(&value);
  starpu_data_handle_t acc;
  int s = exstar_acc_register(&acc);
  if (s == EXSTAR_SUCCESS) {
    s = insert_reduction(who, cl, n, hx, 0, incx, hy, 0, incy, acc, 0);
    if (s == EXSTAR_SUCCESS)
      s = how == rounding::sqrt ? exstar_acc_round_sqrt_insert(acc, hr) : exstar_acc_round_insert(acc, hr);
    exstar_acc_unregister(acc);
  }
  starpu_data_unregister(hr);
  starpu_data_unregister(hx);
  if (own_y) starpu_data_unregister(hy);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  if (s == EXSTAR_SUCCESS) *result = value;
  return s;
}

} // namespace

int exstar_dsum(int64_t n, const double *x, int64_t incx, double *result)
{
  exstar_rt::clear_error();
  return blocking_reduction("exstar_dsum", &exstar_sum_cl, n, x, incx, nullptr, 1, result);
}

int exstar_ddot(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy, double *result)
{
  exstar_rt::clear_error();
  return blocking_reduction("exstar_ddot", &exstar_dot_cl, n, x, incx, y, incy, result);
}

int exstar_dnrm2(int64_t n, const double *x, int64_t incx, double *result)
{
  exstar_rt::clear_error();
  return blocking_reduction("exstar_dnrm2", &exstar_dot_cl, n, x, incx, x, incx, result, rounding::sqrt);
}

int exstar_dsum_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx, starpu_data_handle_t acc,
                       int nparts)
{
  const char *who = "exstar_dsum_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = exstar_rt::check_vector_handle(who, "x", x, n, offx, incx)) return s;
  if (int s = exstar_rt::check_acc_handle(who, "acc", acc)) return s;
  return n == 0 ? EXSTAR_SUCCESS : insert_reduction(who, &exstar_sum_cl, n, x, offx, incx, nullptr, 0, 1, acc, nparts);
}

int exstar_ddot_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx, starpu_data_handle_t y,
                       int64_t offy, int64_t incy, starpu_data_handle_t acc, int nparts)
{
  const char *who = "exstar_ddot_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = exstar_rt::check_vector_handle(who, "x", x, n, offx, incx)) return s;
  if (int s = exstar_rt::check_vector_handle(who, "y", y, n, offy, incy)) return s;
  if (int s = exstar_rt::check_acc_handle(who, "acc", acc)) return s;
  return n == 0 ? EXSTAR_SUCCESS : insert_reduction(who, &exstar_dot_cl, n, x, offx, incx, y, offy, incy, acc, nparts);
}

int exstar_dnrm2_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx, starpu_data_handle_t acc,
                        int nparts)
{
  const char *who = "exstar_dnrm2_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = exstar_rt::check_vector_handle(who, "x", x, n, offx, incx)) return s;
  if (int s = exstar_rt::check_acc_handle(who, "acc", acc)) return s;
  return n == 0 ? EXSTAR_SUCCESS : insert_reduction(who, &exstar_dot_cl, n, x, offx, incx, x, offx, incx, acc, nparts);
}
