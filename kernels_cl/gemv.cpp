// OpenCL launchers of gemv (gemv.cl).
#include "kernels_cl/gemv.h"
#include "kernels_cl/launch_util.h"
#include "core/accumulator.h"
#include "core/strides.h"

using exstar_cl::set_args;

extern "C" cl_int exstar_cl_gemv_acc(cl_command_queue q, cl_kernel k, cl_kernel k_norm, char trans, int64_t m,
                                     int64_t n, double alpha, cl_mem A, int64_t offa, int64_t lda, cl_mem x,
                                     int64_t offx, int64_t incx, cl_mem acc, cl_ulong acc_off)
{
  const bool notrans = trans == 'N' || trans == 'n';
  const int64_t leny = notrans ? m : n, lenx = notrans ? n : m;
  if (leny <= 0) return CL_SUCCESS;
  cl_long m_ = m, n_ = n, offa_ = offa, lda_ = lda, fx_ = exstar_first_index(lenx, offx, incx), incx_ = incx;
  cl_int e = set_args(k, 0, m_, n_, alpha, A, offa_, lda_, x, fx_, incx_, acc, acc_off);
  if (e != CL_SUCCESS) return e;
  if (notrans) { // one work-item per row; the kernel normalizes its row
    size_t global = (size_t)m;
    return clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
  }
  size_t wg_global, local; // one work-group per column
  if ((e = exstar_cl::reduction_geometry(q, k, m > 0 ? m : 1, &wg_global, &local)) != CL_SUCCESS) return e;
  size_t global = local * (size_t)n;
  if ((e = clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr)) != CL_SUCCESS) return e;
  cl_ulong count = (cl_ulong)n;
  if ((e = set_args(k_norm, 0, acc, acc_off, count)) != CL_SUCCESS) return e;
  size_t gn = (size_t)n;
  return clEnqueueNDRangeKernel(q, k_norm, 1, nullptr, &gn, nullptr, 0, nullptr, nullptr);
}

extern "C" cl_int exstar_cl_gemv_finish(cl_command_queue q, cl_kernel k, int64_t n, double beta, cl_mem y,
                                        int64_t offy, int64_t incy, cl_mem acc, cl_ulong acc_off)
{
  if (n <= 0) return CL_SUCCESS;
  cl_long n_ = n, fy_ = exstar_first_index(n, offy, incy), incy_ = incy;
  cl_int e = set_args(k, 0, n_, beta, y, fy_, incy_, acc, acc_off);
  if (e != CL_SUCCESS) return e;
  size_t global = (size_t)n;
  return clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
}
