// Codelets of trsv's checked fast path (CPU only; the driver uses them when only CPU workers
// run and the exact-only switch is off): the off-diagonal blocks' terms go into one bounded
// double-double per row (exstar_gemv_state_cl, core/gemm.h's fast sums) instead of an exact
// accumulator, and the diagonal-block solve (exstar_trsv_state_diag_cl) rounds each row from it
// when the bound proves the rounding, else recomputes that row from all its terms by the exact
// path. Same bits as the accumulator graph.
#include "codelets/trsv_glue.h"
#include "kernels_cpu/gemv.h"

static void gemv_state_cpu(void *buffers[], void *cl_arg)
{
  exstar_gemv_state_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const int64_t ld = (int64_t)STARPU_MATRIX_GET_LD(buffers[0]);
  exstar_cpu_gemv_state_add(a.trans, a.m, a.n, a.sign, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                            a.ia + a.ja * ld, ld, exstar_vec_ptr(buffers[1]), a.offx, a.incx, exstar_vec_ptr(buffers[2]),
                            0, a.init);
}

static void trsv_state_diag_cpu(void *buffers[], void *cl_arg)
{
  exstar_trsv_state_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const exstar_trsv_shape s = exstar_trsv_block_shape(buffers[0], &a.blk, 0);
  exstar_trsv_block_args whole = a.blk;
  whole.nb = a.n, whole.it = a.wit, whole.jt = a.wjt;
  const exstar_trsv_shape w = exstar_trsv_block_shape(buffers[0], &whole, 0);
  const bool has_state = a.has_state != 0;
  exstar_cpu_trsv_solve_state(&s, &w, a.i0, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                              has_state ? exstar_vec_ptr(buffers[1]) : nullptr, exstar_vec_ptr(buffers[has_state ? 2 : 1]),
                              a.offx, a.blk.incx, nullptr);
}

// A CPU-only codelet with a history-based model named after it.
static starpu_codelet cpu_codelet(void (*f)(void *[], void *), const char *name, starpu_perfmodel *model, int nb,
                                  const starpu_data_access_mode *modes)
{
  model->type = STARPU_HISTORY_BASED;
  model->symbol = name;
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = f;
  cl.nbuffers = nb;
  for (int i = 0; i < nb; ++i) cl.modes[i] = modes[i];
  cl.model = model;
  cl.name = name;
  return cl;
}

static starpu_perfmodel gemv_state_model, trsv_state_diag_model;
static const starpu_data_access_mode state_rw[] = {STARPU_R, STARPU_R, STARPU_RW};
static const starpu_data_access_mode state_w[] = {STARPU_R, STARPU_R, STARPU_W};
static const starpu_data_access_mode diag_modes[] = {STARPU_R, STARPU_R, STARPU_RW};
static const starpu_data_access_mode diag0_modes[] = {STARPU_R, STARPU_RW};
struct starpu_codelet exstar_gemv_state_cl = cpu_codelet(exstar_cpu_guarded<gemv_state_cpu>, "exstar_gemv_state", &gemv_state_model, 3, state_rw);
struct starpu_codelet exstar_gemv_state_w_cl = cpu_codelet(exstar_cpu_guarded<gemv_state_cpu>, "exstar_gemv_state", &gemv_state_model, 3, state_w);
struct starpu_codelet exstar_trsv_state_diag_cl =
    cpu_codelet(exstar_cpu_guarded<trsv_state_diag_cpu>, "exstar_trsv_state_diag", &trsv_state_diag_model, 3, diag_modes);
struct starpu_codelet exstar_trsv_state_diag0_cl =
    cpu_codelet(exstar_cpu_guarded<trsv_state_diag_cpu>, "exstar_trsv_state_diag", &trsv_state_diag_model, 2, diag0_modes);
