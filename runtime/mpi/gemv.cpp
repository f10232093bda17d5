// The distributed exact gemv ('N') on the application's StarPU-MPI row panels: for each panel,
// the exact sums into accumulators on the owner of its piece of y (StarPU-MPI brings the panel
// and x there), then the finish y_i := RN(acc_i + β·y_i).
#include "runtime/mpi/internal.h"
#include "runtime/check_handles.h"
#include "include/exstar/level2.h"
#include <cstring>

int exstar_mpi_dgemv_insert(MPI_Comm comm, int64_t mt, double alpha, const starpu_data_handle_t *A,
                            starpu_data_handle_t x, double beta, starpu_data_handle_t *y)
{
  const char *who = "exstar_mpi_dgemv_insert";
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  if (mt < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: mt < 0", who);
  if (mt == 0) return EXSTAR_SUCCESS;
  if (!A || !y) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A or y is NULL", who);
  if (int s = exstar_rt::check_vector_handle(who, "x", x, 0, 0, 1)) return s;
  const int64_t n = (int64_t)starpu_vector_get_nx(x);
  for (int64_t I = 0; I < mt; ++I) {
    if (int s = exstar_rt::check_vector_handle(who, "y[I]", y[I], 0, 0, 1)) return s;
    if (int s = exstar_rt::check_matrix_handle(who, "A[I]", A[I], 0, 0, (int64_t)starpu_vector_get_nx(y[I]), n))
      return s;
    if (starpu_mpi_data_get_rank(y[I]) < 0)
      return exstar_set_error(EXSTAR_ERR_ARG, "%s: y[%lld] is not registered with StarPU-MPI", who, (long long)I);
  }
  starpu_mpi_tag_t tag = exstar_mpi_rt::take_tags(mt);
  for (int64_t I = 0; I < mt; ++I) {
    const int64_t m = (int64_t)starpu_vector_get_nx(y[I]);
    if (m == 0) continue;
    starpu_data_handle_t accs;
    if (int s = exstar_rt::register_accs(who, &accs, m)) return s;
    starpu_mpi_data_register_comm(accs, tag + I, starpu_mpi_data_get_rank(y[I]), comm);
    exstar_gemv_acc_args a;
    std::memset(&a, 0, sizeof a);
    a.trans = 'N', a.m = m, a.n = n, a.alpha = alpha, a.incx = 1;
    int ret = starpu_mpi_task_insert(comm, &exstar_gemv_acc_cl, STARPU_R, A[I], STARPU_R, x, STARPU_REDUX, accs,
                                     STARPU_VALUE, &a, sizeof a, STARPU_NAME, "exstar_mpi_gemv_acc", 0);
    exstar_gemv_finish_args f;
    std::memset(&f, 0, sizeof f);
    f.n = m, f.beta = beta, f.incy = 1;
    if (ret == 0)
      ret = starpu_mpi_task_insert(comm, &exstar_gemv_finish_cl, STARPU_R, accs, STARPU_RW, y[I], STARPU_VALUE, &f,
                                   sizeof f, STARPU_NAME, "exstar_mpi_gemv_finish", 0);
    starpu_data_unregister_submit(accs);
    if (ret != 0) return exstar_rt::submit_status(ret, who);
  }
  return EXSTAR_SUCCESS;
}
