/* exstar codelet glue, for the codelet files only (it pulls in the kernels' headers).
 *
 * Each codelet file has the same skeleton: a CPU function, a CUDA function and an OpenCL
 * function that only unpack the buffers and call the kernel of their back end, then
 * EXSTAR_CODELET, which makes the codelet with a history-based performance model named
 * exstar_<op>. */
#ifndef EXSTAR_CODELETS_GLUE_H
#define EXSTAR_CODELETS_GLUE_H
#include "codelets/codelets.h"
#include "core/accumulator.h"
#include <new>
#include <stdexcept>

/* Every CPU function of a codelet runs through this guard. The kernels allocate their work
 * space with std::vector, and a C++ exception must not leave a codelet function: StarPU's
 * worker is C, so a std::bad_alloc escaping into it ends the process (std::terminate, exit code
 * 134). The guard turns it into a codelet error (EXSTAR_ERR_NOMEM), which the blocking call
 * that waits for the task returns. The task's outputs are then unspecified, as after any
 * failed task; the LU's interchanges skip a pivot that no panel wrote. */
template <void (*F)(void *[], void *)>
void exstar_cpu_guarded(void *buffers[], void *cl_arg) noexcept
{
  try {
    F(buffers, cl_arg);
  } catch (const std::bad_alloc &) {
    exstar_codelet_fail(EXSTAR_ERR_NOMEM, "%s: out of memory in a CPU task", exstar_codelet_current_name());
  } catch (const std::length_error &) {
    exstar_codelet_fail(EXSTAR_ERR_NOMEM, "%s: out of memory in a CPU task (work space too large)",
                        exstar_codelet_current_name());
  } catch (const std::exception &e) {
    exstar_codelet_fail(EXSTAR_ERR_STARPU, "%s: a CPU task failed: %s", exstar_codelet_current_name(), e.what());
  } catch (...) {
    exstar_codelet_fail(EXSTAR_ERR_STARPU, "%s: a CPU task failed (unknown exception)", exstar_codelet_current_name());
  }
}

#ifdef STARPU_USE_OPENCL
#include "kernels_cl/kernels_cl.h"
/* The kernel of that name (e.g. "exstar_dot") for the calling OpenCL worker, and its queue;
 * NULL (and a codelet error) when the program has none. */
cl_kernel exstar_codelet_cl_kernel(const char *name, cl_command_queue *queue);
/* Waits for the queue; reports a failed launch (status != CL_SUCCESS) as a codelet error. */
void exstar_codelet_cl_finish(cl_command_queue queue, cl_int status, const char *what);
#endif

#if defined(STARPU_USE_CUDA) && defined(EXSTAR_CUDA_CODELETS)
#define EXSTAR_WITH_CUDA_CODELETS 1
#include "kernels_cuda/kernels_cuda.h"
void exstar_codelet_cuda_check(int status, const char *what);
/* The stream for the calling task's kernels (codelets/cuda_stream.cpp): StarPU's, or above the
 * default priority a high-priority stream of the worker's; then exstar_codelet_cuda_join(s)
 * makes StarPU's stream wait for s (0, or -(cudaError_t)). */
cudaStream_t exstar_codelet_cuda_stream(void);
int exstar_codelet_cuda_join(cudaStream_t s);
/* Closes the calling worker's device behind the kernels already on s: the tasks at or below the
 * default priority launched there later wait on the GPU until they end (0, or -(cudaError_t)). */
int exstar_codelet_cuda_gate_close(cudaStream_t s);
/* Runs launch(stream) (a CUDA launcher's status) on the task's stream, joins it, and reports a
 * failure as a codelet error named what. */
template <class Launch> void exstar_codelet_cuda_run(const char *what, Launch launch)
{
  const cudaStream_t s = exstar_codelet_cuda_stream();
  int status = launch(s);
  if (status == 0) status = exstar_codelet_cuda_join(s);
  exstar_codelet_cuda_check(status, what);
}
#endif

#ifdef EXSTAR_WITH_CUDA_CODELETS
#define EXSTAR_CUDA_FUNC(cl, f) ((cl).cuda_funcs[0] = f, (cl).cuda_flags[0] = STARPU_CUDA_ASYNC)
#else
#define EXSTAR_CUDA_FUNC(cl, f) ((void)0)
#endif
#ifdef STARPU_USE_OPENCL
#define EXSTAR_OPENCL_FUNC(cl, f) ((cl).opencl_funcs[0] = f)
#else
#define EXSTAR_OPENCL_FUNC(cl, f) ((void)0)
#endif

/* Defines the codelet exstar_<op>_cl from the functions <op>_cpu, <op>_cuda, <op>_opencl of
 * the including file, with its access modes and a history-based performance model named
 * exstar_<op>. */
#define EXSTAR_CODELET(op, nb, ...) EXSTAR_CODELET_FOOTPRINT(op, NULL, nb, __VA_ARGS__)

/* The same with a footprint function for the performance model (tasks on one big handle:
 * the model keys on the task's own work, not on the handle's size). */
#define EXSTAR_CODELET_FOOTPRINT(op, fp, nb, ...) EXSTAR_CODELET_OF(op, op, fp, nb, __VA_ARGS__)

/* The codelet exstar_<cname>_cl (model exstar_<cname>) on the functions of <op>: the same kernels
 * with other access modes. */
#define EXSTAR_CODELET_OF(cname, op, fp, nb, ...)                                           \
  static struct starpu_perfmodel exstar_##cname##_model;                                    \
  struct starpu_codelet exstar_##cname##_cl = [] {                                          \
    exstar_##cname##_model.type = STARPU_HISTORY_BASED;                                     \
    exstar_##cname##_model.symbol = "exstar_" #cname;                                       \
    exstar_##cname##_model.footprint = fp;                                                  \
    struct starpu_codelet cl;                                                               \
    starpu_codelet_init(&cl);                                                               \
    cl.cpu_funcs[0] = exstar_cpu_guarded<op##_cpu>;                                         \
    EXSTAR_CUDA_FUNC(cl, op##_cuda);                                                        \
    EXSTAR_OPENCL_FUNC(cl, op##_opencl);                                                    \
    cl.nbuffers = nb;                                                                       \
    const enum starpu_data_access_mode modes[] = {__VA_ARGS__};                             \
    for (int i = 0; i < nb; ++i) cl.modes[i] = modes[i];                                    \
    cl.model = &exstar_##cname##_model;                                                     \
    cl.name = "exstar_" #cname;                                                             \
    return cl;                                                                              \
  }()

/* The codelet exstar_<op>_cl of a variable number of buffers (their modes given by each task,
 * STARPU_DATA_MODE_ARRAY), on the functions <op>_cpu, <op>_cuda, <op>_opencl. */
#define EXSTAR_CODELET_VARIABLE(op)                                                         \
  static struct starpu_perfmodel exstar_##op##_model;                                       \
  struct starpu_codelet exstar_##op##_cl = [] {                                             \
    exstar_##op##_model.type = STARPU_HISTORY_BASED;                                        \
    exstar_##op##_model.symbol = "exstar_" #op;                                             \
    struct starpu_codelet cl;                                                               \
    starpu_codelet_init(&cl);                                                               \
    cl.cpu_funcs[0] = exstar_cpu_guarded<op##_cpu>;                                         \
    EXSTAR_CUDA_FUNC(cl, op##_cuda);                                                        \
    EXSTAR_OPENCL_FUNC(cl, op##_opencl);                                                    \
    cl.nbuffers = STARPU_VARIABLE_NBUFFERS;                                                 \
    cl.model = &exstar_##op##_model;                                                        \
    cl.name = "exstar_" #op;                                                                \
    return cl;                                                                              \
  }()

/* Buffer accessors shared by the codelet files. */
static inline double *exstar_vec_ptr(void *buf) { return (double *)STARPU_VECTOR_GET_PTR(buf); }
static inline long long *exstar_acc_ptr(void *buf) { return (long long *)STARPU_VECTOR_GET_PTR(buf); }
/* Accumulators in a handle: a vector of count * EXSTAR_ACC_WORDS 64-bit words. */
static inline int64_t exstar_acc_count(void *buf) { return (int64_t)STARPU_VECTOR_GET_NX(buf) / EXSTAR_ACC_WORDS; }
#ifdef STARPU_USE_OPENCL
static inline cl_mem exstar_vec_mem(void *buf) { return (cl_mem)STARPU_VECTOR_GET_DEV_HANDLE(buf); }
/* Offset of an OpenCL buffer's data, in elements of 8 bytes. */
static inline int64_t exstar_vec_off(void *buf) { return (int64_t)(STARPU_VECTOR_GET_OFFSET(buf) / 8); }
#endif

/* Level 1 (laswp, invscal_h): a vector or matrix buffer seen as a column-major matrix (a vector
 * is one column of nx rows); element (r, c) is at element offset r + c*ld of its pointer. */
static inline int exstar_buf_is_matrix(void *buf)
{
  return ((struct starpu_vector_interface *)buf)->id == STARPU_MATRIX_INTERFACE_ID;
}
static inline int64_t exstar_buf_ld(void *buf)
{
  return exstar_buf_is_matrix(buf) ? (int64_t)STARPU_MATRIX_GET_LD(buf) : (int64_t)STARPU_VECTOR_GET_NX(buf);
}
static inline int64_t exstar_buf_rows(void *buf)
{
  return exstar_buf_is_matrix(buf) ? (int64_t)STARPU_MATRIX_GET_NX(buf) : (int64_t)STARPU_VECTOR_GET_NX(buf);
}
static inline uintptr_t exstar_buf_ptr(void *buf)
{
  return exstar_buf_is_matrix(buf) ? STARPU_MATRIX_GET_PTR(buf) : STARPU_VECTOR_GET_PTR(buf);
}
#ifdef STARPU_USE_OPENCL
static inline cl_mem exstar_buf_mem(void *buf)
{
  return (cl_mem)(exstar_buf_is_matrix(buf) ? STARPU_MATRIX_GET_DEV_HANDLE(buf) : STARPU_VECTOR_GET_DEV_HANDLE(buf));
}
/* Offset of the buffer's data in its cl_mem, in elements of elemsize bytes. */
static inline int64_t exstar_buf_off(void *buf, size_t elemsize)
{
  return (int64_t)((exstar_buf_is_matrix(buf) ? STARPU_MATRIX_GET_OFFSET(buf) : STARPU_VECTOR_GET_OFFSET(buf)) /
                   elemsize);
}
#endif

#endif
