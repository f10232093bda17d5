// The distributed exact dot: each part's exact sum in an accumulator on the part's owner, the
// accumulators added exactly on the result's owner (exstar_acc_redux_cl: the words of two exact
// sums added), one rounding there.
#include "runtime/mpi/internal.h"
#include "runtime/check_handles.h"
#include <cstring>
#include <vector>

namespace {

int64_t len_of(starpu_data_handle_t h) { return (int64_t)starpu_vector_get_nx(h); }

int check_parts(const char *who, int64_t count, const starpu_data_handle_t *x, const starpu_data_handle_t *y,
                starpu_data_handle_t result)
{
  if (count < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: count < 0", who);
  if (count > 0 && (!x || !y)) return exstar_set_error(EXSTAR_ERR_ARG, "%s: x or y is NULL", who);
  if (int s = exstar_rt::check_variable_handle(who, "result", result, sizeof(double))) return s;
  if (starpu_mpi_data_get_rank(result) < 0)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: result is not registered with StarPU-MPI", who);
  for (int64_t b = 0; b < count; ++b) {
    if (int s = exstar_rt::check_vector_handle(who, "x[b]", x[b], 0, 0, 1)) return s;
    if (int s = exstar_rt::check_vector_handle(who, "y[b]", y[b], len_of(x[b]), 0, 1)) return s;
    if (starpu_mpi_data_get_rank(x[b]) < 0 || starpu_mpi_data_get_rank(x[b]) != starpu_mpi_data_get_rank(y[b]))
      return exstar_set_error(EXSTAR_ERR_ARG, "%s: x[%lld] and y[%lld] need one StarPU-MPI owner", who,
                              (long long)b, (long long)b);
  }
  return EXSTAR_SUCCESS;
}

} // namespace

int exstar_mpi_ddot_insert(MPI_Comm comm, int64_t count, const starpu_data_handle_t *x, const starpu_data_handle_t *y,
                           starpu_data_handle_t result)
{
  const char *who = "exstar_mpi_ddot_insert";
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  if (int s = check_parts(who, count, x, y, result)) return s;
  const int root = starpu_mpi_data_get_rank(result);
  starpu_data_handle_t total;
  if (int s = exstar_rt::register_accs(who, &total, 1)) return s;
  starpu_mpi_tag_t tag = exstar_mpi_rt::take_tags(count + 1);
  starpu_mpi_data_register_comm(total, tag++, root, comm);
  int ret = starpu_mpi_task_insert(comm, &exstar_acc_init_cl, STARPU_W, total, 0);
  for (int64_t b = 0; b < count && ret == 0; ++b) {
    starpu_data_handle_t part;
    if (int s = exstar_rt::register_accs(who, &part, 1)) return s;
    starpu_mpi_data_register_comm(part, tag++, starpu_mpi_data_get_rank(x[b]), comm);
    exstar_reduce_args a;
    std::memset(&a, 0, sizeof a);
    a.n = len_of(x[b]), a.incx = 1, a.incy = 1;
    ret = starpu_mpi_task_insert(comm, &exstar_dot_cl, STARPU_R, x[b], STARPU_R, y[b], STARPU_REDUX, part,
                                 STARPU_VALUE, &a, sizeof a, STARPU_NAME, "exstar_mpi_dot", 0);
    // the part travels to the root, where it is added exactly
    if (ret == 0)
      ret = starpu_mpi_task_insert(comm, &exstar_acc_redux_cl, STARPU_RW, total, STARPU_R, part, STARPU_NAME,
                                   "exstar_mpi_dot_add", 0);
    starpu_data_unregister_submit(part);
  }
  if (ret == 0)
    ret = starpu_mpi_task_insert(comm, &exstar_acc_round_cl, STARPU_R, total, STARPU_W, result, STARPU_NAME,
                                 "exstar_mpi_dot_round", 0);
  starpu_data_unregister_submit(total);
  return ret == 0 ? EXSTAR_SUCCESS : exstar_rt::submit_status(ret, who);
}

int exstar_mpi_ddot(int64_t nlocal, const double *x, int64_t incx, const double *y, int64_t incy, double *result)
{
  const char *who = "exstar_mpi_ddot";
  exstar_rt::clear_error();
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  int s = result ? EXSTAR_SUCCESS : exstar_set_error(EXSTAR_ERR_ARG, "%s: result is NULL", who);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::check_vector(who, "x", nlocal, x, incx);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::check_vector(who, "y", nlocal, y, incy);
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  const int me = exstar_mpi_rank(), size = exstar_mpi_size();
  // the parts' lengths, for the handles every process registers
  std::vector<int64_t> lens((size_t)size);
  MPI_Allgather(&nlocal, 1, MPI_INT64_T, lens.data(), 1, MPI_INT64_T, MPI_COMM_WORLD);
  // this process's part, contiguous (a sum does not depend on the order of its terms)
  std::vector<double> xs((size_t)nlocal), ys((size_t)nlocal);
  for (int64_t i = 0; i < nlocal; ++i) {
    xs[(size_t)i] = x[(incx > 0 ? i : i - nlocal + 1) * incx];
    ys[(size_t)i] = y[(incy > 0 ? i : i - nlocal + 1) * incy];
  }
  std::vector<starpu_data_handle_t> hx, hy;
  starpu_mpi_tag_t tag = exstar_mpi_rt::take_tags(2 * (int64_t)size + 1);
  for (int r = 0; r < size; ++r) {
    if (lens[(size_t)r] == 0) {
      tag += 2;
      continue;
    }
    starpu_data_handle_t a, b;
    const bool mine = r == me;
    starpu_vector_data_register(&a, mine ? STARPU_MAIN_RAM : -1, mine ? (uintptr_t)xs.data() : 0,
                                (uint32_t)lens[(size_t)r], sizeof(double));
    starpu_vector_data_register(&b, mine ? STARPU_MAIN_RAM : -1, mine ? (uintptr_t)ys.data() : 0,
                                (uint32_t)lens[(size_t)r], sizeof(double));
    starpu_mpi_data_register(a, tag++, r);
    starpu_mpi_data_register(b, tag++, r);
    hx.push_back(a), hy.push_back(b);
  }
  double value = 0.0;
  starpu_data_handle_t hr;
  starpu_variable_data_register(&hr, me == 0 ? STARPU_MAIN_RAM : -1, me == 0 ? (uintptr_t)&value : 0, sizeof(double));
  starpu_mpi_data_register(hr, tag++, 0);
  s = exstar_mpi_ddot_insert(MPI_COMM_WORLD, (int64_t)hx.size(), hx.data(), hy.data(), hr);
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  starpu_data_unregister(hr);
  for (size_t b = 0; b < hx.size(); ++b) starpu_data_unregister(hx[b]), starpu_data_unregister(hy[b]);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  if ((s = exstar_mpi_rt::agree(who, s))) return s;
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  *result = value;
  return EXSTAR_SUCCESS;
}
