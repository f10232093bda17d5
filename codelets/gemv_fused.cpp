// Codelet of the whole exact gemv of one output block in one task (CPU only): y's block :=
// RN(α·op(A block)·x + β·y) entry by entry (exstar_gemv_fused_args), through the checked fast
// path of exstar_cpu_dgemv and the exact path for what it declines. The driver uses it when all
// of an output block's terms are in one task and only CPU workers run; otherwise gemv_acc +
// gemv_finish (the same bits).
#include "codelets/glue.h"
#include "kernels_cpu/gemv.h"

static void gemv_fused_cpu(void *buffers[], void *cl_arg)
{
  exstar_gemv_fused_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const int64_t ld = (int64_t)STARPU_MATRIX_GET_LD(buffers[0]);
  exstar_cpu_dgemv(a.trans, a.m, a.n, a.alpha, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), a.ia + a.ja * ld,
                   ld, exstar_vec_ptr(buffers[1]), a.offx, a.incx, a.beta, exstar_vec_ptr(buffers[2]), a.offy, a.incy,
                   a.exact_only);
}

static struct starpu_perfmodel gemv_fused_model;
struct starpu_codelet exstar_gemv_fused_cl = [] {
  gemv_fused_model.type = STARPU_HISTORY_BASED;
  gemv_fused_model.symbol = "exstar_gemv_fused";
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = gemv_fused_cpu;
  cl.nbuffers = 3;
  cl.modes[0] = STARPU_R;
  cl.modes[1] = STARPU_R;
  cl.modes[2] = STARPU_RW;
  cl.model = &gemv_fused_model;
  cl.name = "exstar_gemv_fused";
  return cl;
}();
