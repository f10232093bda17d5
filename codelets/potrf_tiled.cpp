// The tiled exact Cholesky's panel codelets (the diagonal tile, a tile below it): the view of
// the tiles a task was given (as the LU's tiled codelets), handed to the CPU kernel. The updates are the Level-3 state codelet
// (exstar_state_gemm_cl), which every back end has.
#include "codelets/potrf_tiled.h"
#include "codelets/tile_view.h"
#include "codelets/glue.h"
#include "kernels_cpu/potrf_tiled.h"

namespace {

// Block column K, the rows of tile J (J == K: the diagonal tile and its roots).
void potrf_panel_cpu(void *buffers[], void *cl_arg)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  exstar_tiles::task_view t;
  exstar_tiles::make_view(buffers, h, t);
  exstar_cpu_potrf_panel(&t.v, h->K, h->J, h->J + 1, t.ipiv, h->exact_only);
}

// The tile's shape and the terms left of the panel (the exact path's reach): the task's cost.
uint32_t panel_footprint(struct starpu_task *task)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)task->cl_arg;
  const int64_t key[3] = {h->nb, h->n - h->J * h->nb < h->nb ? h->n - h->J * h->nb : h->nb, h->nbuf};
  return starpu_hash_crc32c_be_n(key, sizeof key, 0);
}

struct starpu_perfmodel diag_model, trsm_model;

starpu_codelet panel_codelet(starpu_perfmodel &model, const char *name)
{
  model.type = STARPU_HISTORY_BASED;
  model.symbol = name;
  model.footprint = panel_footprint;
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = exstar_cpu_guarded<potrf_panel_cpu>;
  cl.nbuffers = STARPU_VARIABLE_NBUFFERS;
  cl.model = &model;
  cl.name = name;
  return cl;
}

} // namespace

struct starpu_codelet exstar_potrf_diag_cl = panel_codelet(diag_model, "exstar_potrf_diag");
struct starpu_codelet exstar_potrf_trsm_cl = panel_codelet(trsm_model, "exstar_potrf_trsm");
