// The exact gemm on tiled operands (exstar_dgemm_desc_insert's tasks) on an OpenCL device: a
// tile row of op(A) and a tile column of op(B) copied into one strip each (core/strides.h) by
// rectangle copies on the queue, then exstar_cl_dgemm, whose bits are every back end's.
#include "kernels_cl/gemm.h"
#include "core/strides.h"

namespace {

bool is_trans(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

cl_int gather(cl_command_queue q, bool along_rows, const cl_mem *X, const int64_t *off, const int64_t *ld, int64_t kt,
              int64_t kb, int64_t k, int64_t w, cl_mem strip)
{
  const int64_t sld = exstar_strip_ld(along_rows, k, w);
  for (int64_t l = 0; l < kt; ++l) {
    exstar_i64 to, rows, cols;
    exstar_strip_tile(along_rows, l, kb, k, w, &to, &rows, &cols);
    // origins as (byte in a column, column): an element offset split by the leading dimension
    const size_t src[3] = {(size_t)(off[l] % ld[l]) * sizeof(double), (size_t)(off[l] / ld[l]), 0};
    const size_t dst[3] = {(size_t)(to % sld) * sizeof(double), (size_t)(to / sld), 0};
    const size_t region[3] = {(size_t)rows * sizeof(double), (size_t)cols, 1};
    const cl_int e = clEnqueueCopyBufferRect(q, X[l], strip, src, dst, region, (size_t)ld[l] * sizeof(double), 0,
                                             (size_t)sld * sizeof(double), 0, 0, nullptr, nullptr);
    if (e != CL_SUCCESS) return e;
  }
  return CL_SUCCESS;
}

} // namespace

extern "C" cl_int exstar_cl_dgemm_tiles(cl_command_queue q, struct exstar_cl_gemm_kernels *k, char transa,
                                        char transb, int64_t m, int64_t n, int64_t kk, int64_t kb, int64_t kt,
                                        double alpha, const cl_mem *A, const int64_t *offa, const int64_t *lda,
                                        const cl_mem *B, const int64_t *offb, const int64_t *ldb, double beta, cl_mem C,
                                        int64_t offc, int64_t ldc, int exact_only)
{
  if (kt <= 1 || kk == 0)
    return exstar_cl_dgemm(q, k, transa, transb, m, n, kk, alpha, kt ? A[0] : C, kt ? offa[0] : 0, kt ? lda[0] : 1,
                           kt ? B[0] : C, kt ? offb[0] : 0, kt ? ldb[0] : 1, beta, C, offc, ldc, exact_only, nullptr);
  if (m <= 0 || n <= 0) return CL_SUCCESS;
  cl_context ctx;
  cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr);
  if (e != CL_SUCCESS) return e;
  const bool ar = is_trans(transa), br = !is_trans(transb);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)(m * kk) * sizeof(double), nullptr, &e);
  if (e != CL_SUCCESS) return e;
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)(n * kk) * sizeof(double), nullptr, &e);
  if (e == CL_SUCCESS) e = gather(q, ar, A, offa, lda, kt, kb, kk, m, a);
  if (e == CL_SUCCESS) e = gather(q, br, B, offb, ldb, kt, kb, kk, n, b);
  if (e == CL_SUCCESS)
    e = exstar_cl_dgemm(q, k, transa, transb, m, n, kk, alpha, a, 0, exstar_strip_ld(ar, kk, m), b, 0,
                        exstar_strip_ld(br, kk, n), beta, C, offc, ldc, exact_only, nullptr);
  // released now, freed by OpenCL once the queued commands that use them have finished
  if (b) clReleaseMemObject(b);
  clReleaseMemObject(a);
  return e;
}
