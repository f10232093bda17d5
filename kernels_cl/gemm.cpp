// OpenCL launchers of exact Level 3 (gemm.cl): one work-item per entry or right-hand side.
#include "kernels_cl/gemm.h"
#include "kernels_cl/launch_util.h"
#include <initializer_list>
#include <new>

using exstar_cl::set_args;

struct exstar_cl_gemm_kernels {
  cl_kernel gemm = nullptr, state_add = nullptr, state_init = nullptr, state_round = nullptr, trsm = nullptr;
};

namespace {

bool is_t(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

// Element steps of op(X) for a column-major X: (i, l) at off + i*rs + l*cs.
void op_steps(char trans, int64_t ld, cl_long *rs, cl_long *cs)
{
  *rs = is_t(trans) ? ld : 1;
  *cs = is_t(trans) ? 1 : ld;
}

cl_int enqueue_items(cl_command_queue q, cl_kernel k, int64_t items)
{
  if (items <= 0) return CL_SUCCESS;
  size_t global = (size_t)items;
  return clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
}

} // namespace

extern "C" struct exstar_cl_gemm_kernels *exstar_cl_gemm_kernels_create(cl_program prog, cl_int *err)
{
  exstar_cl_gemm_kernels *k = new (std::nothrow) exstar_cl_gemm_kernels;
  if (!k) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return nullptr;
  }
  cl_int e = CL_SUCCESS;
  const char *names[] = {"exstar_l3_gemm", "exstar_l3_state_add", "exstar_l3_state_init", "exstar_l3_state_round",
                         "exstar_l3_trsm"};
  cl_kernel *slots[] = {&k->gemm, &k->state_add, &k->state_init, &k->state_round, &k->trsm};
  for (int i = 0; i < 5 && e == CL_SUCCESS; ++i) *slots[i] = clCreateKernel(prog, names[i], &e);
  if (e != CL_SUCCESS) {
    exstar_cl_gemm_kernels_release(k);
    *err = e;
    return nullptr;
  }
  *err = CL_SUCCESS;
  return k;
}

extern "C" void exstar_cl_gemm_kernels_release(struct exstar_cl_gemm_kernels *k)
{
  if (!k) return;
  for (cl_kernel c : {k->gemm, k->state_add, k->state_init, k->state_round, k->trsm})
    if (c) clReleaseKernel(c);
  delete k;
}

extern "C" cl_int exstar_cl_dgemm(cl_command_queue q, struct exstar_cl_gemm_kernels *k, char transa, char transb,
                                  int64_t m, int64_t n, int64_t kk, double alpha, cl_mem A, int64_t offa, int64_t lda,
                                  cl_mem B, int64_t offb, int64_t ldb, double beta, cl_mem C, int64_t offc,
                                  int64_t ldc, int exact_only, cl_mem counter)
{
  if (m <= 0 || n <= 0) return CL_SUCCESS;
  cl_long ars, acs, brs, bcs;
  op_steps(transa, lda, &ars, &acs);
  op_steps(transb, ldb, &brs, &bcs);
  const cl_long m_ = m, n_ = n, k_ = kk, oa = offa, ob = offb, oc = offc, ldc_ = ldc;
  const cl_int ex = exact_only;
  cl_int e = set_args(k->gemm, 0, m_, n_, k_, alpha, beta, A, oa, ars, acs, B, ob, brs, bcs, C, oc, ldc_, ex, counter);
  return e != CL_SUCCESS ? e : enqueue_items(q, k->gemm, m * n);
}

extern "C" cl_int exstar_cl_gemm_state_add(cl_command_queue q, struct exstar_cl_gemm_kernels *k, char transa,
                                           char transb, int64_t m, int64_t n, int64_t kk, double sign, cl_mem A,
                                           int64_t offa, int64_t lda, cl_mem B, int64_t offb, int64_t ldb, cl_mem st,
                                           int64_t offst, int64_t ldst)
{
  if (m <= 0 || n <= 0 || kk <= 0) return CL_SUCCESS;
  cl_long ars, acs, brs, bcs;
  op_steps(transa, lda, &ars, &acs);
  op_steps(transb, ldb, &brs, &bcs);
  const cl_long m_ = m, n_ = n, k_ = kk, oa = offa, ob = offb, os = offst, lds = ldst;
  cl_int e = set_args(k->state_add, 0, m_, n_, k_, sign, A, oa, ars, acs, B, ob, brs, bcs, st, os, lds);
  return e != CL_SUCCESS ? e : enqueue_items(q, k->state_add, m * n);
}

extern "C" cl_int exstar_cl_gemm_state_init(cl_command_queue q, struct exstar_cl_gemm_kernels *k, int64_t m,
                                            int64_t n, cl_mem C, int64_t offc, int64_t ldc, cl_mem st, int64_t offst,
                                            int64_t ldst)
{
  const cl_long m_ = m, n_ = n, oc = offc, ldc_ = ldc, os = offst, lds = ldst;
  cl_int e = set_args(k->state_init, 0, m_, n_, C, oc, ldc_, st, os, lds);
  return e != CL_SUCCESS ? e : enqueue_items(q, k->state_init, m * n);
}

extern "C" cl_int exstar_cl_gemm_state_round(cl_command_queue q, struct exstar_cl_gemm_kernels *k, int64_t m,
                                             int64_t n, cl_mem st, int64_t offst, int64_t ldst, cl_mem C,
                                             int64_t offc, int64_t ldc, cl_mem mask, cl_mem counter)
{
  const cl_long m_ = m, n_ = n, os = offst, lds = ldst, oc = offc, ldc_ = ldc;
  cl_int e = set_args(k->state_round, 0, m_, n_, st, os, lds, C, oc, ldc_, mask, counter);
  return e != CL_SUCCESS ? e : enqueue_items(q, k->state_round, m * n);
}

extern "C" cl_int exstar_cl_dtrsm(cl_command_queue q, struct exstar_cl_gemm_kernels *k, char side, char uplo,
                                  char transa, char diag, int64_t m, int64_t n, double alpha, cl_mem T, int64_t offt,
                                  int64_t ldt, cl_mem B, int64_t offb, int64_t ldb, int exact_only, cl_mem counter)
{
  if (m <= 0 || n <= 0) return CL_SUCCESS;
  const bool left = side == 'L' || side == 'l';
  const bool trans_e = left == is_t(transa); // side R transposes op(T)
  cl_long trs, tcs;
  op_steps(trans_e ? 'T' : 'N', ldt, &trs, &tcs);
  const cl_long N = left ? m : n, nrhs = left ? n : m, ot = offt, ob = offb;
  const cl_long es = left ? 1 : ldb, vs = left ? ldb : 1;
  const cl_int forward = (uplo == 'L' || uplo == 'l') != trans_e, unit = diag == 'U' || diag == 'u';
  const cl_int ex = exact_only;
  cl_int e = set_args(k->trsm, 0, N, nrhs, alpha, T, ot, trs, tcs, B, ob, es, vs, forward, unit, ex, counter);
  return e != CL_SUCCESS ? e : enqueue_items(q, k->trsm, nrhs);
}
