// The tiled exact Cholesky's panel codelet: the view of the tiles it was given (as the LU's
// tiled codelets), handed to the CPU kernel. The updates are the Level-3 state codelet
// (exstar_state_gemm_cl), which every back end has.
#include "codelets/potrf_tiled.h"
#include "codelets/tile_view.h"
#include "codelets/glue.h"
#include "kernels_cpu/potrf_tiled.h"

namespace {

void potrf_panel_cpu(void *buffers[], void *cl_arg)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  exstar_tiles::task_view t;
  exstar_tiles::make_view(buffers, h, t);
  exstar_cpu_potrf_panel(&t.v, h->K, t.ipiv, h->exact_only);
}

// The rows below the panel and the tile edge: the panel's cost.
uint32_t panel_footprint(struct starpu_task *task)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)task->cl_arg;
  const int64_t key[2] = {h->n - h->K * h->nb, h->nb};
  return starpu_hash_crc32c_be_n(key, sizeof key, 0);
}

struct starpu_perfmodel potrf_panel_model;

} // namespace

struct starpu_codelet exstar_potrf_panel_cl = [] {
  potrf_panel_model.type = STARPU_HISTORY_BASED;
  potrf_panel_model.symbol = "exstar_potrf_panel";
  potrf_panel_model.footprint = panel_footprint;
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = exstar_cpu_guarded<potrf_panel_cpu>;
  cl.nbuffers = STARPU_VARIABLE_NBUFFERS;
  cl.model = &potrf_panel_model;
  cl.name = "exstar_potrf_panel";
  return cl;
}();
