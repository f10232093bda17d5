// Codelets of the GEMM-accumulate state (include/exstar/level3.h): init from C, add a tile's
// products, round into C. The state is a matrix handle of 32-byte entries (exstar_bdd).
#include "codelets/level3_glue.h"

static exstar_gemm_state_entry *state_ptr(void *buf) { return (exstar_gemm_state_entry *)STARPU_MATRIX_GET_PTR(buf); }

// ---- st += sign·op(A)·op(B) (exstar_gemm_args, alpha is the sign; uplo 'L': the CPU kernel
// skips the entries above the block's diagonal, CUDA and OpenCL compute every entry) ----
static void state_gemm_cpu(void *buffers[], void *cl_arg)
{
  exstar_gemm_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_gemm_state_add(a.transa, a.transb, a.m, a.n, a.k, a.alpha,
                            (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), exstar_mat_off(buffers[0], a.ia, a.ja),
                            exstar_mat_ld(buffers[0]), (const double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                            exstar_mat_off(buffers[1], a.ib, a.jb), exstar_mat_ld(buffers[1]), state_ptr(buffers[2]),
                            exstar_mat_off(buffers[2], a.ic, a.jc), exstar_mat_ld(buffers[2]), a.uplo);
}

#ifdef EXSTAR_L3_CUDA
static void state_gemm_cuda(void *buffers[], void *cl_arg)
{
  exstar_gemm_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_run("exstar_state_gemm", [&](cudaStream_t s) {
    return exstar_cuda_gemm_state_add(a.transa, a.transb, a.m, a.n, a.k, a.alpha,
                                      (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                                      exstar_mat_off(buffers[0], a.ia, a.ja), exstar_mat_ld(buffers[0]),
                                      (const double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                                      exstar_mat_off(buffers[1], a.ib, a.jb), exstar_mat_ld(buffers[1]),
                                      state_ptr(buffers[2]), exstar_mat_off(buffers[2], a.ic, a.jc),
                                      exstar_mat_ld(buffers[2]), s);
  });
}
#endif

#ifdef EXSTAR_L3_OPENCL
static void state_gemm_opencl(void *buffers[], void *cl_arg)
{
  exstar_gemm_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  exstar_cl_gemm_kernels *k = exstar_codelet_cl_gemm_kernels(&q);
  if (!k) return;
  cl_int e = exstar_cl_gemm_state_add(q, k, a.transa, a.transb, a.m, a.n, a.k, a.alpha, exstar_mat_mem(buffers[0]),
                                      exstar_mat_cl_off(buffers[0], a.ia, a.ja), exstar_mat_ld(buffers[0]),
                                      exstar_mat_mem(buffers[1]), exstar_mat_cl_off(buffers[1], a.ib, a.jb),
                                      exstar_mat_ld(buffers[1]), exstar_mat_mem(buffers[2]),
                                      exstar_mat_cl_off(buffers[2], a.ic, a.jc), exstar_mat_ld(buffers[2]));
  exstar_codelet_cl_finish(q, e, "exstar_state_gemm");
}
#endif

EXSTAR_CODELET(state_gemm, 3, STARPU_R, STARPU_R, STARPU_RW);

// ---- st := C (exstar_state_args) ----
static void state_init_cpu(void *buffers[], void *cl_arg)
{
  exstar_state_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_gemm_state_init(a.m, a.n, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                             exstar_mat_off(buffers[0], a.ic, a.jc), exstar_mat_ld(buffers[0]), state_ptr(buffers[1]),
                             exstar_mat_off(buffers[1], a.is, a.js), exstar_mat_ld(buffers[1]));
}

#ifdef EXSTAR_L3_CUDA
static void state_init_cuda(void *buffers[], void *cl_arg)
{
  exstar_state_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(
      exstar_cuda_gemm_state_init(a.m, a.n, (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                                  exstar_mat_off(buffers[0], a.ic, a.jc), exstar_mat_ld(buffers[0]),
                                  state_ptr(buffers[1]), exstar_mat_off(buffers[1], a.is, a.js),
                                  exstar_mat_ld(buffers[1]), starpu_cuda_get_local_stream()),
      "exstar_state_init");
}
#endif

#ifdef EXSTAR_L3_OPENCL
static void state_init_opencl(void *buffers[], void *cl_arg)
{
  exstar_state_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  exstar_cl_gemm_kernels *k = exstar_codelet_cl_gemm_kernels(&q);
  if (!k) return;
  cl_int e = exstar_cl_gemm_state_init(q, k, a.m, a.n, exstar_mat_mem(buffers[0]),
                                       exstar_mat_cl_off(buffers[0], a.ic, a.jc), exstar_mat_ld(buffers[0]),
                                       exstar_mat_mem(buffers[1]), exstar_mat_cl_off(buffers[1], a.is, a.js),
                                       exstar_mat_ld(buffers[1]));
  exstar_codelet_cl_finish(q, e, "exstar_state_init");
}
#endif

EXSTAR_CODELET(state_init, 2, STARPU_R, STARPU_RW);

// ---- st := the tiles stacked (exstar_state_init_tiles_args): tile t's rows go to the state's
// rows from the sum of the rows of the tiles before it ----
static void state_init_tiles_cpu(void *buffers[], void *cl_arg)
{
  exstar_state_init_tiles_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  void *st = buffers[a.count];
  int64_t row = 0;
  for (int64_t t = 0; t < a.count; ++t) {
    const int64_t m = (int64_t)STARPU_MATRIX_GET_NX(buffers[t]), n = (int64_t)STARPU_MATRIX_GET_NY(buffers[t]);
    exstar_cpu_gemm_state_init(m, n, (const double *)STARPU_MATRIX_GET_PTR(buffers[t]), 0, exstar_mat_ld(buffers[t]),
                               state_ptr(st), exstar_mat_off(st, row, 0), exstar_mat_ld(st));
    row += m;
  }
}

#ifdef EXSTAR_L3_CUDA
static void state_init_tiles_cuda(void *buffers[], void *cl_arg)
{
  exstar_state_init_tiles_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  void *st = buffers[a.count];
  int64_t row = 0;
  int e = 0;
  for (int64_t t = 0; t < a.count && e == 0; ++t) {
    const int64_t m = (int64_t)STARPU_MATRIX_GET_NX(buffers[t]), n = (int64_t)STARPU_MATRIX_GET_NY(buffers[t]);
    e = exstar_cuda_gemm_state_init(m, n, (const double *)STARPU_MATRIX_GET_PTR(buffers[t]), 0, exstar_mat_ld(buffers[t]),
                                    state_ptr(st), exstar_mat_off(st, row, 0), exstar_mat_ld(st),
                                    starpu_cuda_get_local_stream());
    row += m;
  }
  exstar_codelet_cuda_check(e, "exstar_state_init_tiles");
}
#endif

#ifdef EXSTAR_L3_OPENCL
static void state_init_tiles_opencl(void *buffers[], void *cl_arg)
{
  exstar_state_init_tiles_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  exstar_cl_gemm_kernels *k = exstar_codelet_cl_gemm_kernels(&q);
  if (!k) return;
  void *st = buffers[a.count];
  int64_t row = 0;
  cl_int e = CL_SUCCESS;
  for (int64_t t = 0; t < a.count && e == CL_SUCCESS; ++t) {
    const int64_t m = (int64_t)STARPU_MATRIX_GET_NX(buffers[t]), n = (int64_t)STARPU_MATRIX_GET_NY(buffers[t]);
    e = exstar_cl_gemm_state_init(q, k, m, n, exstar_mat_mem(buffers[t]), exstar_mat_cl_off(buffers[t], 0, 0),
                                  exstar_mat_ld(buffers[t]), exstar_mat_mem(st), exstar_mat_cl_off(st, row, 0),
                                  exstar_mat_ld(st));
    row += m;
  }
  exstar_codelet_cl_finish(q, e, "exstar_state_init_tiles");
}
#endif

EXSTAR_CODELET_VARIABLE(state_init_tiles);

// ---- C := RN(st) where proven; mask marks the declined entries (exstar_state_args) ----
static unsigned char *mask_ptr(void *buffers[], int nbuf)
{
  return nbuf > 2 ? (unsigned char *)STARPU_VECTOR_GET_PTR(buffers[2]) : nullptr;
}

static void round_cpu(void *buffers[], void *cl_arg, int nbuf)
{
  exstar_state_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_gemm_state_round(a.m, a.n, state_ptr(buffers[0]), exstar_mat_off(buffers[0], a.is, a.js),
                              exstar_mat_ld(buffers[0]), (double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                              exstar_mat_off(buffers[1], a.ic, a.jc), exstar_mat_ld(buffers[1]),
                              mask_ptr(buffers, nbuf));
}
static void state_round_cpu(void *buffers[], void *cl_arg) { round_cpu(buffers, cl_arg, 3); }
static void state_round_nomask_cpu(void *buffers[], void *cl_arg) { round_cpu(buffers, cl_arg, 2); }

#ifdef EXSTAR_L3_CUDA
static void round_cuda(void *buffers[], void *cl_arg, int nbuf)
{
  exstar_state_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(
      exstar_cuda_gemm_state_round(a.m, a.n, state_ptr(buffers[0]), exstar_mat_off(buffers[0], a.is, a.js),
                                   exstar_mat_ld(buffers[0]), (double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                                   exstar_mat_off(buffers[1], a.ic, a.jc), exstar_mat_ld(buffers[1]),
                                   mask_ptr(buffers, nbuf), nullptr, starpu_cuda_get_local_stream()),
      "exstar_state_round");
}
static void state_round_cuda(void *buffers[], void *cl_arg) { round_cuda(buffers, cl_arg, 3); }
static void state_round_nomask_cuda(void *buffers[], void *cl_arg) { round_cuda(buffers, cl_arg, 2); }
#endif

#ifdef EXSTAR_L3_OPENCL
static void round_opencl(void *buffers[], void *cl_arg, int nbuf)
{
  exstar_state_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  exstar_cl_gemm_kernels *k = exstar_codelet_cl_gemm_kernels(&q);
  if (!k) return;
  // The mask buffer starts at its own offset: a sub-buffer is not needed for a whole handle.
  cl_mem mask = nbuf > 2 ? (cl_mem)STARPU_VECTOR_GET_DEV_HANDLE(buffers[2]) : nullptr;
  cl_int e = exstar_cl_gemm_state_round(q, k, a.m, a.n, exstar_mat_mem(buffers[0]),
                                        exstar_mat_cl_off(buffers[0], a.is, a.js), exstar_mat_ld(buffers[0]),
                                        exstar_mat_mem(buffers[1]), exstar_mat_cl_off(buffers[1], a.ic, a.jc),
                                        exstar_mat_ld(buffers[1]), mask, nullptr);
  exstar_codelet_cl_finish(q, e, "exstar_state_round");
}
static void state_round_opencl(void *buffers[], void *cl_arg) { round_opencl(buffers, cl_arg, 3); }
static void state_round_nomask_opencl(void *buffers[], void *cl_arg) { round_opencl(buffers, cl_arg, 2); }
#endif

EXSTAR_CODELET(state_round, 3, STARPU_R, STARPU_RW, STARPU_W);
EXSTAR_CODELET(state_round_nomask, 2, STARPU_R, STARPU_RW);

// ---- st := 0 (every entry an exact zero with no error): the handle's init method, so that a
// state registered without a home buffer can be read before any task wrote it ----
static void state_zero_cpu(void *buffers[], void *)
{
  const int64_t nx = (int64_t)STARPU_MATRIX_GET_NX(buffers[0]), ny = (int64_t)STARPU_MATRIX_GET_NY(buffers[0]);
  exstar_gemm_state_entry *st = state_ptr(buffers[0]);
  for (int64_t j = 0; j < ny; ++j)
    for (int64_t i = 0; i < nx; ++i) st[i + j * exstar_mat_ld(buffers[0])] = exstar_gemm_state_entry{0.0, 0.0, 0.0, 0.0};
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
static void state_zero_cuda(void *buffers[], void *)
{
  const size_t es = EXSTAR_STATE_ENTRY_BYTES;
  exstar_codelet_cuda_check(exstar_cuda_memset2d((void *)STARPU_MATRIX_GET_PTR(buffers[0]),
                                                 (size_t)exstar_mat_ld(buffers[0]) * es,
                                                 (size_t)STARPU_MATRIX_GET_NX(buffers[0]) * es,
                                                 (size_t)STARPU_MATRIX_GET_NY(buffers[0]), starpu_cuda_get_local_stream()),
                            "exstar_state_zero");
}
#else
#define state_zero_cuda nullptr
#endif

#ifdef EXSTAR_L3_OPENCL
static void state_zero_opencl(void *buffers[], void *)
{
  cl_command_queue q;
  starpu_opencl_get_queue(starpu_worker_get_devid(starpu_worker_get_id()), &q);
  const size_t es = EXSTAR_STATE_ENTRY_BYTES, ld = (size_t)exstar_mat_ld(buffers[0]);
  const size_t nx = STARPU_MATRIX_GET_NX(buffers[0]), ny = STARPU_MATRIX_GET_NY(buffers[0]);
  const double zero = 0.0;
  cl_int e = CL_SUCCESS;
  for (size_t j = 0; j < ny && e == CL_SUCCESS; ++j) // column by column: a sub-handle's gaps belong to others
    e = clEnqueueFillBuffer(q, (cl_mem)STARPU_MATRIX_GET_DEV_HANDLE(buffers[0]), &zero, sizeof zero,
                            STARPU_MATRIX_GET_OFFSET(buffers[0]) + j * ld * es, nx * es, 0, nullptr, nullptr);
  exstar_codelet_cl_finish(q, e, "exstar_state_zero");
}
#endif

EXSTAR_CODELET(state_zero, 1, STARPU_W);
