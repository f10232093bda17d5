// The tiled exact Cholesky's panel codelets (the diagonal tile, a tile below it): the view of
// the tiles a task was given (as the LU's tiled codelets), handed to the CPU or CUDA kernel. The updates are the Level-3 state codelet
// (exstar_state_gemm_cl), which every back end has.
#include "codelets/potrf_tiled.h"
#include "codelets/tile_view.h"
#include "codelets/glue.h"
#include "codelets/level3_glue.h"
#include "kernels_cpu/potrf_tiled.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/potrf_tiled.h"
#endif

namespace {

// Block column K, the rows of tile J (J == K: the diagonal tile and its roots); Whole: every
// tile of the block column and its column copy (the column shape).
template <bool Whole>
void potrf_panel_cpu(void *buffers[], void *cl_arg)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  exstar_tiles::task_view t;
  exstar_tiles::make_view(buffers, h, t);
  exstar_cpu_potrf_panel(&t.v, h->K, h->J, Whole ? h->mt : h->J + 1, t.ipiv, h->exact_only);
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
// The same on a CUDA worker (the flags buffer in device memory).
template <bool Whole>
void potrf_panel_cuda(void *buffers[], void *cl_arg)
{
  exstar_tiles::run_cuda(buffers, cl_arg, "exstar_potrf_panel", [](const exstar_lu_tiled_args &h,
                                                                   exstar_tiles::task_view &t,
                                                                   const exstar_cuda_tiles &v, exstar_cuda_stream s) {
    return exstar_cuda_potrf_panel(&v, h.K, h.J, Whole ? h.mt : h.J + 1, t.ipiv, h.exact_only, nullptr, s);
  });
}

// The plain baseline on a CUDA worker (cuSOLVER, cuBLAS).
void potrf_plain_panel_cuda(void *buffers[], void *cl_arg)
{
  exstar_tiles::run_cuda(buffers, cl_arg, "exstar_potrf_plain_panel", [](const exstar_lu_tiled_args &h,
                                                                         exstar_tiles::task_view &t,
                                                                         const exstar_cuda_tiles &v,
                                                                         exstar_cuda_stream s) {
    return exstar_cuda_potrf_plain_panel(&v, h.K, h.J, t.ipiv, s);
  });
}

void potrf_plain_update_cuda(void *buffers[], void *cl_arg)
{
  int diagonal;
  starpu_codelet_unpack_args(cl_arg, &diagonal);
  exstar_codelet_cuda_check(
      exstar_cuda_potrf_plain_update(
          (int64_t)STARPU_MATRIX_GET_NX(buffers[2]), (int64_t)STARPU_MATRIX_GET_NY(buffers[2]),
          (int64_t)STARPU_MATRIX_GET_NY(buffers[0]), (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
          exstar_mat_ld(buffers[0]), (const double *)STARPU_MATRIX_GET_PTR(buffers[1]), exstar_mat_ld(buffers[1]),
          (double *)STARPU_MATRIX_GET_PTR(buffers[2]), exstar_mat_ld(buffers[2]), diagonal,
          starpu_cuda_get_local_stream()),
      "exstar_potrf_plain_update");
}
#define potrf_tile_cuda potrf_panel_cuda<false>
#define potrf_column_cuda potrf_panel_cuda<true>
#else
#define potrf_tile_cuda nullptr
#define potrf_column_cuda nullptr
#define potrf_plain_panel_cuda nullptr
#define potrf_plain_update_cuda nullptr
#endif

// The tile's shape and the terms left of the panel (the exact path's reach): the task's cost.
uint32_t panel_footprint(struct starpu_task *task)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)task->cl_arg;
  const int64_t key[3] = {h->nb, h->n - h->J * h->nb < h->nb ? h->n - h->J * h->nb : h->nb, h->nbuf};
  return starpu_hash_crc32c_be_n(key, sizeof key, 0);
}

#ifdef EXSTAR_HAVE_LAPACK
// The plain-double baseline: LAPACK dpotrf on the diagonal tile, dtrsm below it (CUDA: cuSOLVER,
// cuBLAS, further up).
void potrf_plain_panel_cpu(void *buffers[], void *cl_arg)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  exstar_tiles::task_view t;
  exstar_tiles::make_view(buffers, h, t);
  exstar_cpu_potrf_plain_panel(&t.v, h->K, h->J, t.ipiv);
}

// C −= A·Bᵀ in plain double: R A, R B, RW C; STARPU_VALUE int diagonal (dsyrk on C's lower
// triangle, A == B).
void potrf_plain_update_cpu(void *buffers[], void *cl_arg)
{
  int diagonal;
  starpu_codelet_unpack_args(cl_arg, &diagonal);
  exstar_cpu_potrf_plain_update((int64_t)STARPU_MATRIX_GET_NX(buffers[2]), (int64_t)STARPU_MATRIX_GET_NY(buffers[2]),
                                (int64_t)STARPU_MATRIX_GET_NY(buffers[0]), (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                                exstar_mat_ld(buffers[0]), (const double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                                exstar_mat_ld(buffers[1]), (double *)STARPU_MATRIX_GET_PTR(buffers[2]),
                                exstar_mat_ld(buffers[2]), diagonal);
}
#endif

struct starpu_perfmodel diag_model, trsm_model, column_model, plain_diag_model, plain_trsm_model, plain_update_model;

starpu_codelet panel_codelet(starpu_perfmodel &model, const char *name, void (*cpu)(void *[], void *),
                             void (*cuda)(void *[], void *) = nullptr)
{
  model.type = STARPU_HISTORY_BASED;
  model.symbol = name;
  model.footprint = panel_footprint;
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = cpu;
  if (cuda) EXSTAR_CUDA_FUNC(cl, cuda);
  cl.nbuffers = STARPU_VARIABLE_NBUFFERS;
  cl.model = &model;
  cl.name = name;
  return cl;
}

} // namespace

struct starpu_codelet exstar_potrf_diag_cl =
    panel_codelet(diag_model, "exstar_potrf_diag", exstar_cpu_guarded<potrf_panel_cpu<false>>, potrf_tile_cuda);
struct starpu_codelet exstar_potrf_trsm_cl =
    panel_codelet(trsm_model, "exstar_potrf_trsm", exstar_cpu_guarded<potrf_panel_cpu<false>>, potrf_tile_cuda);
struct starpu_codelet exstar_potrf_column_cl =
    panel_codelet(column_model, "exstar_potrf_column", exstar_cpu_guarded<potrf_panel_cpu<true>>, potrf_column_cuda);
#ifdef EXSTAR_HAVE_LAPACK
#define EXSTAR_POTRF_PLAIN_CPU(f) exstar_cpu_guarded<f>
#else // no LAPACK at build time: the CUDA kernels alone, if any (the drivers refuse what cannot run)
#define EXSTAR_POTRF_PLAIN_CPU(f) nullptr
#endif
struct starpu_codelet exstar_potrf_plain_diag_cl = panel_codelet(
    plain_diag_model, "exstar_potrf_plain_diag", EXSTAR_POTRF_PLAIN_CPU(potrf_plain_panel_cpu), potrf_plain_panel_cuda);
struct starpu_codelet exstar_potrf_plain_trsm_cl = panel_codelet(
    plain_trsm_model, "exstar_potrf_plain_trsm", EXSTAR_POTRF_PLAIN_CPU(potrf_plain_panel_cpu), potrf_plain_panel_cuda);
struct starpu_codelet exstar_potrf_plain_update_cl = [] {
  plain_update_model.type = STARPU_HISTORY_BASED;
  plain_update_model.symbol = "exstar_potrf_plain_update";
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = EXSTAR_POTRF_PLAIN_CPU(potrf_plain_update_cpu);
  EXSTAR_CUDA_FUNC(cl, potrf_plain_update_cuda);
  cl.nbuffers = 3;
  cl.modes[0] = STARPU_R, cl.modes[1] = STARPU_R, cl.modes[2] = STARPU_RW;
  cl.model = &plain_update_model;
  cl.name = "exstar_potrf_plain_update";
  return cl;
}();
