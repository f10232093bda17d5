/* Shared by the OpenCL launchers (host side, not part of the program text). */
#ifndef EXSTAR_KERNELS_CL_LAUNCH_UTIL_H
#define EXSTAR_KERNELS_CL_LAUNCH_UTIL_H
#include "kernels_cl/kernels_cl.h"

namespace exstar_cl {

// Sets kernel arguments in order; stops at the first error.
inline cl_int set_args(cl_kernel, cl_uint) { return CL_SUCCESS; }
template <class T, class... Rest>
cl_int set_args(cl_kernel k, cl_uint i, const T &v, const Rest &...rest)
{
  cl_int e = clSetKernelArg(k, i, sizeof(T), &v);
  return e != CL_SUCCESS ? e : set_args(k, i + 1, rest...);
}

// One work-item (the sequential accumulator kernels).
inline cl_int enqueue_single(cl_command_queue q, cl_kernel k)
{
  size_t one = 1;
  return clEnqueueNDRangeKernel(q, k, 1, nullptr, &one, &one, 0, nullptr, nullptr);
}

// Work-group size (256, else the largest power of two the kernel allows on this device) and
// a bounded count of groups (8 per compute unit, fewer when n is small) for a reduction.
inline cl_int reduction_geometry(cl_command_queue q, cl_kernel k, int64_t n, size_t *global,
                                 size_t *local)
{
  cl_device_id dev;
  cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr);
  if (e != CL_SUCCESS) return e;
  size_t kmax = 0;
  e = clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, nullptr);
  if (e != CL_SUCCESS) return e;
  cl_uint cus = 0;
  e = clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, nullptr);
  if (e != CL_SUCCESS) return e;
  size_t wg = 256;
  while (wg > 1 && wg > kmax) wg /= 2;
  int64_t groups = (n + (int64_t)wg - 1) / (int64_t)wg;
  int64_t max_groups = 8 * (int64_t)(cus ? cus : 1);
  if (groups > max_groups) groups = max_groups;
  if (groups < 1) groups = 1;
  *local = wg;
  *global = wg * (size_t)groups;
  return CL_SUCCESS;
}

// The common tail of sum and dot: the reduction kernel k (its arguments set), then the
// normalization to canonical form. Requires an in-order queue, as every launcher does.
inline cl_int enqueue_reduction(cl_command_queue q, cl_kernel k, cl_kernel k_norm, int64_t n,
                                cl_mem acc, cl_ulong acc_off)
{
  cl_int e;
  if (n > 0) {
    size_t global, local;
    if ((e = reduction_geometry(q, k, n, &global, &local)) != CL_SUCCESS) return e;
    e = clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
    if (e != CL_SUCCESS) return e;
  }
  if ((e = set_args(k_norm, 0, acc, acc_off)) != CL_SUCCESS) return e;
  return enqueue_single(q, k_norm);
}

// The elementwise kernels (level 1): grid-stride loops over `items`, so any global size is
// correct; at most 1024 groups of 256, the group size left to the implementation.
inline cl_int enqueue_grid_stride(cl_command_queue q, cl_kernel k, int64_t items)
{
  if (items <= 0) return CL_SUCCESS;
  int64_t g = (items + 255) / 256 * 256;
  size_t global = (size_t)(g < 256 * 1024 ? g : 256 * 1024);
  return clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
}

} // namespace exstar_cl
#endif
