// Codelet of the whole exact gemv of one output block in one task (CPU only): out :=
// RN(α·op(A block)·x + β·y's block) entry by entry (exstar_gemv_fused_args; out contiguous),
// through the checked fast path of exstar_cpu_dgemv and the exact path for what it declines. The driver uses it when all
// of an output block's terms are in one task and only CPU workers run; otherwise gemv_acc +
// gemv_finish (the same bits).
#include "codelets/glue.h"
#include "kernels_cpu/gemv.h"
#include "core/strides.h"

static void gemv_fused_cpu(void *buffers[], void *cl_arg)
{
  exstar_gemv_fused_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const int64_t ld = (int64_t)STARPU_MATRIX_GET_LD(buffers[0]);
  const int64_t leny = a.trans == 'N' ? a.m : a.n;
  double *out = exstar_vec_ptr(buffers[3]);
  if (a.beta != 0.0) { // β·y's y: the block of y, into the output workspace (β == 0: not read)
    const double *y = exstar_vec_ptr(buffers[2]);
    const int64_t fy = exstar_first_index(leny, a.offy, a.incy);
    for (int64_t i = 0; i < leny; ++i) out[i] = y[fy + i * a.incy];
  }
  exstar_cpu_dgemv(a.trans, a.m, a.n, a.alpha, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), a.ia + a.ja * ld,
                   ld, exstar_vec_ptr(buffers[1]), a.offx, a.incx, a.beta, out, 0, 1, a.exact_only);
}

static struct starpu_perfmodel gemv_fused_model;
struct starpu_codelet exstar_gemv_fused_cl = [] {
  gemv_fused_model.type = STARPU_HISTORY_BASED;
  gemv_fused_model.symbol = "exstar_gemv_fused";
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = exstar_cpu_guarded<gemv_fused_cpu>;
  cl.nbuffers = 4;
  cl.modes[0] = STARPU_R;
  cl.modes[1] = STARPU_R;
  cl.modes[2] = STARPU_R;
  cl.modes[3] = STARPU_W;
  cl.model = &gemv_fused_model;
  cl.name = "exstar_gemv_fused";
  return cl;
}();
