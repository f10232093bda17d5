// The distributed exact gemm on the application's StarPU-MPI tiles: one exstar_gemm_cl task per
// tile of C, on C's owner; StarPU-MPI brings it the row panel of A and the column panel of B.
#include "runtime/mpi/internal.h"
#include "runtime/check_handles.h"
#include <cstring>

namespace {

bool trans_ok(char t) { return t == 'N' || t == 'n' || t == 'T' || t == 't' || t == 'C' || t == 'c'; }
bool is_n(char t) { return t == 'N' || t == 'n'; }
int64_t rows(starpu_data_handle_t h) { return (int64_t)starpu_matrix_get_nx(h); }
int64_t cols(starpu_data_handle_t h) { return (int64_t)starpu_matrix_get_ny(h); }

} // namespace

int exstar_mpi_dgemm_insert(MPI_Comm comm, char transa, char transb, int64_t mt, int64_t nt, double alpha,
                            const starpu_data_handle_t *A, const starpu_data_handle_t *B, double beta,
                            starpu_data_handle_t *C)
{
  const char *who = "exstar_mpi_dgemm_insert";
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  if (!trans_ok(transa) || !trans_ok(transb))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: transa and transb must be 'N' or 'T'", who);
  if (mt < 0 || nt < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: mt or nt < 0", who);
  if (mt == 0 || nt == 0) return EXSTAR_SUCCESS;
  if (!A || !B || !C) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A, B or C is NULL", who);
  // k from the first panel of A; every panel and tile checked against it
  if (int s = exstar_rt::check_matrix_handle(who, "A[0]", A[0], 0, 0, 0, 0)) return s;
  const int64_t k = is_n(transa) ? cols(A[0]) : rows(A[0]);
  for (int64_t J = 0; J < nt; ++J)
    for (int64_t I = 0; I < mt; ++I) {
      starpu_data_handle_t c = C[I + J * mt];
      if (int s = exstar_rt::check_matrix_handle(who, "C[I + J*mt]", c, 0, 0, 0, 0)) return s;
      const int64_t m = rows(c), n = cols(c);
      if (int s = exstar_rt::check_matrix_handle(who, "A[I]", A[I], 0, 0, is_n(transa) ? m : k, is_n(transa) ? k : m))
        return s;
      if (int s = exstar_rt::check_matrix_handle(who, "B[J]", B[J], 0, 0, is_n(transb) ? k : n, is_n(transb) ? n : k))
        return s;
      if (starpu_mpi_data_get_rank(c) < 0)
        return exstar_set_error(EXSTAR_ERR_ARG, "%s: C tile (%lld, %lld) is not registered with StarPU-MPI", who,
                                (long long)I, (long long)J);
    }
  for (int64_t J = 0; J < nt; ++J)
    for (int64_t I = 0; I < mt; ++I) {
      starpu_data_handle_t c = C[I + J * mt];
      exstar_gemm_args a;
      std::memset(&a, 0, sizeof a);
      a.transa = is_n(transa) ? 'N' : 'T', a.transb = is_n(transb) ? 'N' : 'T';
      a.m = rows(c), a.n = cols(c), a.k = k, a.alpha = alpha, a.beta = beta;
      a.exact_only = exstar_rt::exact_only();
      int ret = starpu_mpi_task_insert(comm, &exstar_gemm_cl, STARPU_R, A[I], STARPU_R, B[J], STARPU_RW, c,
                                       STARPU_VALUE, &a, sizeof a, STARPU_NAME, "exstar_mpi_gemm", 0);
      if (ret != 0) return exstar_rt::submit_status(ret, who);
    }
  return EXSTAR_SUCCESS;
}
