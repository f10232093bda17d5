// OpenCL launchers of iamax (iamax.cl): per-group pairs in a temporary buffer, then one
// work-item folds them into the state.
#include "kernels_cl/level1.h"
#include "kernels_cl/launch_util.h"

namespace {
constexpr size_t kGroup = 256; // EXSTAR_CL_IAMAX_WG of iamax.cl
constexpr int64_t kMaxGroups = 256;
} // namespace

extern "C" cl_int exstar_cl_iamax(cl_command_queue q, cl_kernel k_part, cl_kernel k_combine, int64_t n,
                                  cl_mem x, int64_t offx, int64_t incx, int64_t base, cl_mem state,
                                  int64_t soff)
{
  if (n <= 0) return CL_SUCCESS;
  int64_t groups = (n + (int64_t)kGroup - 1) / (int64_t)kGroup;
  if (groups > kMaxGroups) groups = kMaxGroups;
  cl_context ctx;
  cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr);
  if (e != CL_SUCCESS) return e;
  cl_mem part = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)groups * 2 * sizeof(cl_long), nullptr, &e);
  if (e != CL_SUCCESS) return e;
  cl_long n_ = n, offx_ = offx, incx_ = incx, base_ = base, zero = 0, groups_ = groups, soff_ = soff;
  e = exstar_cl::set_args(k_part, 0, n_, x, offx_, incx_, base_, part);
  size_t global = kGroup * (size_t)groups, local = kGroup;
  if (e == CL_SUCCESS) e = clEnqueueNDRangeKernel(q, k_part, 1, nullptr, &global, &local, 0, nullptr, nullptr);
  if (e == CL_SUCCESS) e = exstar_cl::set_args(k_combine, 0, part, zero, groups_, state, soff_);
  if (e == CL_SUCCESS) e = exstar_cl::enqueue_single(q, k_combine);
  // Released now, freed by OpenCL once the queued kernels that use it have finished.
  clReleaseMemObject(part);
  return e;
}

extern "C" cl_int exstar_cl_iamax_init(cl_command_queue q, cl_kernel k, cl_mem state, int64_t soff)
{
  cl_long soff_ = soff;
  cl_int e = exstar_cl::set_args(k, 0, state, soff_);
  return e != CL_SUCCESS ? e : exstar_cl::enqueue_single(q, k);
}

extern "C" cl_int exstar_cl_iamax_merge(cl_command_queue q, cl_kernel k_combine, cl_mem dst, int64_t doff,
                                        cl_mem src, int64_t soff)
{
  cl_long soff_ = soff, one = 1, doff_ = doff;
  cl_int e = exstar_cl::set_args(k_combine, 0, src, soff_, one, dst, doff_);
  return e != CL_SUCCESS ? e : exstar_cl::enqueue_single(q, k_combine);
}

extern "C" cl_int exstar_cl_iamax_index(cl_command_queue q, cl_kernel k, cl_mem state, int64_t soff,
                                        cl_mem out, int64_t ooff)
{
  cl_long soff_ = soff, ooff_ = ooff;
  cl_int e = exstar_cl::set_args(k, 0, state, soff_, out, ooff_);
  return e != CL_SUCCESS ? e : exstar_cl::enqueue_single(q, k);
}

extern "C" cl_int exstar_cl_iamax_ipiv(cl_command_queue q, cl_kernel k, cl_mem state, int64_t soff,
                                       cl_mem ipiv, int64_t ooff, int64_t base)
{
  cl_long soff_ = soff, ooff_ = ooff, base_ = base;
  cl_int e = exstar_cl::set_args(k, 0, state, soff_, ipiv, ooff_, base_);
  return e != CL_SUCCESS ? e : exstar_cl::enqueue_single(q, k);
}
