// Copies between two handles of one shape (a matrix of any ld, or a vector): how the
// distributed drivers move a tile between a process's own array and the tile's owner, as a
// task (StarPU-MPI moves the source to the copy's executor, the owner of the destination).
#include "codelets/glue.h"
#include <cstring>

namespace {

void matrix_copy_cpu(void *buffers[], void *)
{
  const size_t elem = STARPU_MATRIX_GET_ELEMSIZE(buffers[0]);
  const size_t rows = STARPU_MATRIX_GET_NX(buffers[0]), cols = STARPU_MATRIX_GET_NY(buffers[0]);
  const size_t lds = STARPU_MATRIX_GET_LD(buffers[0]), ldd = STARPU_MATRIX_GET_LD(buffers[1]);
  const char *src = (const char *)STARPU_MATRIX_GET_PTR(buffers[0]);
  char *dst = (char *)STARPU_MATRIX_GET_PTR(buffers[1]);
  for (size_t j = 0; j < cols; ++j) std::memcpy(dst + j * ldd * elem, src + j * lds * elem, rows * elem);
}

void vector_copy_cpu(void *buffers[], void *)
{
  std::memcpy((void *)STARPU_VECTOR_GET_PTR(buffers[1]), (const void *)STARPU_VECTOR_GET_PTR(buffers[0]),
              STARPU_VECTOR_GET_NX(buffers[0]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]));
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
// The same on a CUDA worker (a rank that drives only GPUs).
void matrix_copy_cuda(void *buffers[], void *)
{
  const size_t elem = STARPU_MATRIX_GET_ELEMSIZE(buffers[0]);
  exstar_codelet_cuda_check(
      exstar_cuda_copy2d((void *)STARPU_MATRIX_GET_PTR(buffers[1]), STARPU_MATRIX_GET_LD(buffers[1]) * elem,
                         (const void *)STARPU_MATRIX_GET_PTR(buffers[0]), STARPU_MATRIX_GET_LD(buffers[0]) * elem,
                         STARPU_MATRIX_GET_NX(buffers[0]) * elem, STARPU_MATRIX_GET_NY(buffers[0]),
                         starpu_cuda_get_local_stream()),
      "exstar_matrix_copy");
}

void vector_copy_cuda(void *buffers[], void *)
{
  const size_t bytes = STARPU_VECTOR_GET_NX(buffers[0]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]);
  exstar_codelet_cuda_check(exstar_cuda_copy2d((void *)STARPU_VECTOR_GET_PTR(buffers[1]), bytes,
                                               (const void *)STARPU_VECTOR_GET_PTR(buffers[0]), bytes, bytes, 1,
                                               starpu_cuda_get_local_stream()),
                            "exstar_vector_copy");
}
#else
#define matrix_copy_cuda nullptr
#define vector_copy_cuda nullptr
#endif

starpu_codelet copy_codelet(starpu_cpu_func_t f, starpu_cuda_func_t g, const char *name)
{
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = f;
  if (g) cl.cuda_funcs[0] = g, cl.cuda_flags[0] = STARPU_CUDA_ASYNC;
  cl.nbuffers = 2;
  cl.modes[0] = STARPU_R, cl.modes[1] = STARPU_W;
  cl.name = name;
  return cl;
}

} // namespace

struct starpu_codelet exstar_matrix_copy_cl = copy_codelet(matrix_copy_cpu, matrix_copy_cuda, "exstar_matrix_copy");
struct starpu_codelet exstar_vector_copy_cl = copy_codelet(vector_copy_cpu, vector_copy_cuda, "exstar_vector_copy");
