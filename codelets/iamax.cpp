// Codelets of iamax: the partial search (R x, REDUX state), the state's reduction methods
// (init: empty pair, redux: keep the winner) and the two ways out of a state (an int64 index, or
// an int32 LAPACK pivot). States are vectors of EXSTAR_IAMAX_WORDS int64 words (core/iamax.h).
#include "codelets/glue.h"
#include "kernels_cpu/level1.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/level1.h"
#endif
#ifdef STARPU_USE_OPENCL
#include "kernels_cl/level1.h"
#endif

static exstar_i64 *state_ptr(void *buf) { return (exstar_i64 *)STARPU_VECTOR_GET_PTR(buf); }

/* ---- iamax: state := winner(state, pairs of this part) ---- */
static void iamax_cpu(void *buffers[], void *cl_arg)
{
  exstar_iamax_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_cpu_iamax(a.n, exstar_vec_ptr(buffers[0]), a.offx, a.incx, a.base, state_ptr(buffers[1]));
}
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void iamax_cuda(void *buffers[], void *cl_arg)
{
  exstar_iamax_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_iamax(a.n, exstar_vec_ptr(buffers[0]), a.offx, a.incx, a.base,
                                              state_ptr(buffers[1]), starpu_cuda_get_local_stream()),
                            "exstar_iamax");
}
#endif
#ifdef STARPU_USE_OPENCL
static void iamax_opencl(void *buffers[], void *cl_arg)
{
  exstar_iamax_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel part = exstar_codelet_cl_kernel("exstar_iamax_part", &q);
  cl_kernel combine = exstar_codelet_cl_kernel("exstar_iamax_combine", &q);
  cl_int e = exstar_cl_iamax(q, part, combine, a.n, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]) + a.offx,
                             a.incx, a.base, exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1]));
  exstar_codelet_cl_finish(q, e, "exstar_iamax");
}
#endif

/* ---- init: the empty pair ---- */
static void iamax_init_cpu(void *buffers[], void *) { exstar_cpu_iamax_init(state_ptr(buffers[0])); }
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void iamax_init_cuda(void *buffers[], void *)
{
  exstar_codelet_cuda_check(exstar_cuda_iamax_init(state_ptr(buffers[0]), starpu_cuda_get_local_stream()),
                            "exstar_iamax_init");
}
#endif
#ifdef STARPU_USE_OPENCL
static void iamax_init_opencl(void *buffers[], void *)
{
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_iamax_init", &q);
  exstar_codelet_cl_finish(q, exstar_cl_iamax_init(q, k, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0])),
                           "exstar_iamax_init");
}
#endif

/* ---- redux: dst := winner(dst, src), associative and commutative ---- */
static void iamax_redux_cpu(void *buffers[], void *)
{
  exstar_cpu_iamax_merge(state_ptr(buffers[0]), state_ptr(buffers[1]));
}
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void iamax_redux_cuda(void *buffers[], void *)
{
  exstar_codelet_cuda_check(exstar_cuda_iamax_merge(state_ptr(buffers[0]), state_ptr(buffers[1]),
                                                    starpu_cuda_get_local_stream()),
                            "exstar_iamax_redux");
}
#endif
#ifdef STARPU_USE_OPENCL
static void iamax_redux_opencl(void *buffers[], void *)
{
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_iamax_combine", &q);
  exstar_codelet_cl_finish(q,
                           exstar_cl_iamax_merge(q, k, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]),
                                                 exstar_vec_mem(buffers[1]), exstar_vec_off(buffers[1])),
                           "exstar_iamax_redux");
}
#endif

/* ---- index: variable int64 := the state's index ---- */
static void iamax_index_cpu(void *buffers[], void *)
{
  *(int64_t *)STARPU_VARIABLE_GET_PTR(buffers[1]) = state_ptr(buffers[0])[1];
}
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void iamax_index_cuda(void *buffers[], void *)
{
  exstar_codelet_cuda_check(exstar_cuda_iamax_index(state_ptr(buffers[0]),
                                                    (long long *)STARPU_VARIABLE_GET_PTR(buffers[1]),
                                                    starpu_cuda_get_local_stream()),
                            "exstar_iamax_index");
}
#endif
#ifdef STARPU_USE_OPENCL
static void iamax_index_opencl(void *buffers[], void *)
{
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_iamax_index", &q);
  cl_mem out = (cl_mem)STARPU_VARIABLE_GET_PTR(buffers[1]);
  int64_t ooff = (int64_t)(STARPU_VARIABLE_GET_OFFSET(buffers[1]) / sizeof(int64_t));
  exstar_codelet_cl_finish(
      q, exstar_cl_iamax_index(q, k, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]), out, ooff),
      "exstar_iamax_index");
}
#endif

/* ---- ipiv: int32 vector element off := the state's index + base ---- */
static void iamax_ipiv_cpu(void *buffers[], void *cl_arg)
{
  exstar_iamax_ipiv_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  ((int32_t *)STARPU_VECTOR_GET_PTR(buffers[1]))[a.off] = (int32_t)(state_ptr(buffers[0])[1] + a.base);
}
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void iamax_ipiv_cuda(void *buffers[], void *cl_arg)
{
  exstar_iamax_ipiv_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  exstar_codelet_cuda_check(exstar_cuda_iamax_ipiv(state_ptr(buffers[0]),
                                                   (int32_t *)STARPU_VECTOR_GET_PTR(buffers[1]) + a.off, a.base,
                                                   starpu_cuda_get_local_stream()),
                            "exstar_iamax_ipiv");
}
#endif
#ifdef STARPU_USE_OPENCL
static void iamax_ipiv_opencl(void *buffers[], void *cl_arg)
{
  exstar_iamax_ipiv_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  cl_kernel k = exstar_codelet_cl_kernel("exstar_iamax_ipiv", &q);
  exstar_codelet_cl_finish(q,
                           exstar_cl_iamax_ipiv(q, k, exstar_vec_mem(buffers[0]), exstar_vec_off(buffers[0]),
                                                exstar_vec_mem(buffers[1]),
                                                exstar_buf_off(buffers[1], sizeof(int32_t)) + a.off, a.base),
                           "exstar_iamax_ipiv");
}
#endif

EXSTAR_CODELET(iamax, 2, STARPU_R, STARPU_REDUX);
EXSTAR_CODELET(iamax_init, 1, STARPU_W);
EXSTAR_CODELET(iamax_redux, 2, STARPU_RW, STARPU_R); // StarPU 1.3 wants exactly RW here
EXSTAR_CODELET(iamax_index, 2, STARPU_R, STARPU_W);
EXSTAR_CODELET(iamax_ipiv, 2, STARPU_R, STARPU_RW);
