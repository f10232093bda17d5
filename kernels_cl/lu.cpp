// OpenCL launchers of the LU driver's own steps (lu.cl).
#include "kernels_cl/lu.h"
#include "kernels_cl/launch_util.h"

namespace {
constexpr size_t kGroup = 256; // EXSTAR_CL_LU_WG of lu.cl
}

extern "C" cl_int exstar_cl_lu_pivot(cl_command_queue q, cl_kernel k, int64_t m, int64_t j, cl_mem a, int64_t offa,
                                     int64_t lda, cl_mem ipiv, int64_t offipiv)
{
  cl_long m_ = m, j_ = j, offa_ = offa, lda_ = lda, offipiv_ = offipiv;
  cl_int e = exstar_cl::set_args(k, 0, m_, j_, a, offa_, lda_, ipiv, offipiv_);
  size_t global = kGroup, local = kGroup;
  return e != CL_SUCCESS ? e : clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
}

extern "C" cl_int exstar_cl_lu_plain_column(cl_command_queue q, cl_kernel k_trsv, cl_kernel k_gemv, int64_t m,
                                            int64_t j, cl_mem a, int64_t offa, int64_t lda)
{
  cl_long utop = j < m ? j : m, m_ = m, j_ = j, offa_ = offa, lda_ = lda;
  cl_int e = CL_SUCCESS;
  if (utop > 0) {
    e = exstar_cl::set_args(k_trsv, 0, utop, j_, a, offa_, lda_);
    if (e == CL_SUCCESS) e = exstar_cl::enqueue_single(q, k_trsv);
  }
  if (e != CL_SUCCESS || j >= m) return e;
  size_t global = (size_t)((m - j + 63) / 64 * 64);
  e = exstar_cl::set_args(k_gemv, 0, m_, j_, a, offa_, lda_);
  return e != CL_SUCCESS ? e : clEnqueueNDRangeKernel(q, k_gemv, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
}

extern "C" cl_int exstar_cl_lu_plain_getrs(cl_command_queue q, cl_kernel k, int64_t n, int64_t nrhs, cl_mem lu,
                                           int64_t offlu, int64_t ldlu, cl_mem ipiv, int64_t offipiv, cl_mem b,
                                           int64_t offb, int64_t ldb)
{
  if (n <= 0 || nrhs <= 0) return CL_SUCCESS;
  cl_long n_ = n, nrhs_ = nrhs, offlu_ = offlu, ldlu_ = ldlu, offipiv_ = offipiv, offb_ = offb, ldb_ = ldb;
  cl_int e = exstar_cl::set_args(k, 0, n_, nrhs_, lu, offlu_, ldlu_, ipiv, offipiv_, b, offb_, ldb_);
  size_t global = (size_t)nrhs;
  return e != CL_SUCCESS ? e : clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
}
