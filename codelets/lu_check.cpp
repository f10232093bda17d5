// The status of a finished tile of the tiled LU's factors (R the tile; RW, commuting, the
// factorization's status: NaN/inf seen, the first zero on U's diagonal), where the tile is: the
// drivers read these 16 bytes instead of the whole factors (runtime/getrf_tiled.cpp).
#include "codelets/glue.h"
#include "codelets/lu_tiled.h"
#include "kernels_cpu/lu_tiled.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/lu_tiled.h"
#endif

namespace {

void lu_check_cpu(void *buffers[], void *cl_arg)
{
  int64_t ndiag = 0, diag0 = 0;
  starpu_codelet_unpack_args(cl_arg, &ndiag, &diag0);
  exstar_cpu_lu_check((int64_t)STARPU_MATRIX_GET_NX(buffers[0]), (int64_t)STARPU_MATRIX_GET_NY(buffers[0]),
                      (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), (int64_t)STARPU_MATRIX_GET_LD(buffers[0]),
                      ndiag, diag0, (uint64_t *)STARPU_VECTOR_GET_PTR(buffers[1]));
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
void lu_check_cuda(void *buffers[], void *cl_arg)
{
  int64_t ndiag = 0, diag0 = 0;
  starpu_codelet_unpack_args(cl_arg, &ndiag, &diag0);
  exstar_codelet_cuda_check(
      exstar_cuda_lu_check((int64_t)STARPU_MATRIX_GET_NX(buffers[0]), (int64_t)STARPU_MATRIX_GET_NY(buffers[0]),
                           (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                           (int64_t)STARPU_MATRIX_GET_LD(buffers[0]), ndiag, diag0,
                           (uint64_t *)STARPU_VECTOR_GET_PTR(buffers[1]), starpu_cuda_get_local_stream()),
      "exstar_lu_check");
}
#endif

} // namespace

static struct starpu_perfmodel exstar_lu_check_model;
struct starpu_codelet exstar_lu_check_cl = [] {
  exstar_lu_check_model.type = STARPU_HISTORY_BASED;
  exstar_lu_check_model.symbol = "exstar_lu_check";
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = exstar_cpu_guarded<lu_check_cpu>;
  EXSTAR_CUDA_FUNC(cl, lu_check_cuda);
  cl.nbuffers = 2;
  cl.modes[0] = STARPU_R, cl.modes[1] = (enum starpu_data_access_mode)(STARPU_RW | STARPU_COMMUTE);
  cl.model = &exstar_lu_check_model;
  cl.name = "exstar_lu_check";
  return cl;
}();
