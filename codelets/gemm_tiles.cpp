// The exact gemm on tiles (exstar_gemm_tiles_args): a task reads a tile row of op(A) and a tile
// column of op(B), kt tiles each (variable buffers), and writes one tile of C, every entry
// exstar_dgemm's. The kernels gather the tiles into strips and run the exact gemm on them.
#include "codelets/level3_glue.h"
#include <vector>

namespace {

// The tiles' pointers (or buffers and offsets) and leading dimensions, op(A)'s then op(B)'s.
struct tiles {
  std::vector<const double *> a, b;
  std::vector<int64_t> lda, ldb;
  tiles(void *buffers[], int64_t kt)
  {
    for (int64_t l = 0; l < kt; ++l) {
      a.push_back((const double *)STARPU_MATRIX_GET_PTR(buffers[l]));
      lda.push_back(exstar_mat_ld(buffers[l]));
      b.push_back((const double *)STARPU_MATRIX_GET_PTR(buffers[kt + l]));
      ldb.push_back(exstar_mat_ld(buffers[kt + l]));
    }
  }
};

void gemm_tiles_cpu(void *buffers[], void *cl_arg)
{
  exstar_gemm_tiles_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const tiles t(buffers, a.kt);
  void *c = buffers[2 * a.kt];
  exstar_cpu_dgemm_tiles(a.transa, a.transb, a.m, a.n, a.k, a.kb, a.kt, a.alpha, t.a.data(), t.lda.data(), t.b.data(),
                         t.ldb.data(), a.beta, (double *)STARPU_MATRIX_GET_PTR(c), exstar_mat_ld(c), a.exact_only);
}

#ifdef EXSTAR_L3_CUDA
void gemm_tiles_cuda(void *buffers[], void *cl_arg)
{
  exstar_gemm_tiles_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const tiles t(buffers, a.kt);
  void *c = buffers[2 * a.kt];
  exstar_codelet_cuda_run("exstar_gemm_tiles", [&](cudaStream_t s) {
    return exstar_cuda_dgemm_tiles(a.transa, a.transb, a.m, a.n, a.k, a.kb, a.kt, a.alpha, t.a.data(), t.lda.data(),
                                   t.b.data(), t.ldb.data(), a.beta, (double *)STARPU_MATRIX_GET_PTR(c),
                                   exstar_mat_ld(c), a.exact_only, nullptr, s);
  });
}
#endif

#ifdef EXSTAR_L3_OPENCL
void gemm_tiles_opencl(void *buffers[], void *cl_arg)
{
  exstar_gemm_tiles_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  cl_command_queue q;
  exstar_cl_gemm_kernels *k = exstar_codelet_cl_gemm_kernels(&q);
  if (!k) return;
  std::vector<cl_mem> A, B;
  std::vector<int64_t> offa, offb, lda, ldb;
  for (int64_t l = 0; l < a.kt; ++l) {
    A.push_back(exstar_mat_mem(buffers[l])), offa.push_back(exstar_mat_cl_off(buffers[l], 0, 0));
    lda.push_back(exstar_mat_ld(buffers[l]));
    B.push_back(exstar_mat_mem(buffers[a.kt + l])), offb.push_back(exstar_mat_cl_off(buffers[a.kt + l], 0, 0));
    ldb.push_back(exstar_mat_ld(buffers[a.kt + l]));
  }
  void *c = buffers[2 * a.kt];
  cl_int e = exstar_cl_dgemm_tiles(q, k, a.transa, a.transb, a.m, a.n, a.k, a.kb, a.kt, a.alpha, A.data(), offa.data(),
                                   lda.data(), B.data(), offb.data(), ldb.data(), a.beta, exstar_mat_mem(c),
                                   exstar_mat_cl_off(c, 0, 0), exstar_mat_ld(c), a.exact_only);
  exstar_codelet_cl_finish(q, e, "exstar_gemm_tiles");
}
#endif

} // namespace

EXSTAR_CODELET_VARIABLE(gemm_tiles);
