// OpenCL launchers of trsv (trsv.cl).
#include "kernels_cl/trsv.h"
#include "kernels_cl/launch_util.h"

namespace {

// The work-group size a kernel allows on the queue's device, at most `want` (a power of two).
cl_int group_size(cl_command_queue q, cl_kernel k, size_t want, size_t *wg)
{
  cl_device_id dev;
  cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr);
  if (e != CL_SUCCESS) return e;
  size_t kmax = 0;
  e = clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, nullptr);
  if (e != CL_SUCCESS) return e;
  while (want > 1 && want > kmax) want /= 2;
  *wg = want;
  return CL_SUCCESS;
}

// One work-item per index below n, in groups of the allowed size.
cl_int enqueue_per_item(cl_command_queue q, cl_kernel k, int64_t n)
{
  size_t wg;
  cl_int e = group_size(q, k, 64, &wg);
  if (e != CL_SUCCESS) return e;
  size_t global = ((size_t)n + wg - 1) / wg * wg;
  return clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &wg, 0, nullptr, nullptr);
}

} // namespace

extern "C" cl_int exstar_cl_trsv_solve(cl_command_queue q, cl_kernel k, const exstar_trsv_shape *s, cl_mem t,
                                       cl_mem accs, cl_ulong acc_off, cl_mem y, int64_t offy, int64_t incy)
{
  if (s->nb <= 0) return CL_SUCCESS;
  cl_int fw = s->forward, tr = s->trans, un = s->unit;
  cl_long nb = s->nb, t0 = s->t0, ldt = s->ldt, oy = offy, iy = incy;
  cl_int e = exstar_cl::set_args(k, 0, fw, tr, un, nb, t, t0, ldt, accs, acc_off, y, oy, iy);
  if (e != CL_SUCCESS) return e;
  size_t wg;
  if ((e = group_size(q, k, 64, &wg)) != CL_SUCCESS) return e;
  return clEnqueueNDRangeKernel(q, k, 1, nullptr, &wg, &wg, 0, nullptr, nullptr); // one group
}

extern "C" cl_int exstar_cl_trsv_resid(cl_command_queue q, cl_kernel k, const exstar_trsv_shape *s, cl_mem t,
                                       cl_mem accs, cl_ulong acc_off, cl_mem x, int64_t offx, int64_t incx,
                                       cl_mem b, int64_t offb, int64_t incb, cl_mem r, int64_t offr,
                                       int64_t incr)
{
  if (s->nb <= 0) return CL_SUCCESS;
  cl_int fw = s->forward, tr = s->trans, un = s->unit;
  cl_long nb = s->nb, t0 = s->t0, ldt = s->ldt, ox = offx, ix = incx, ob = offb, ib = incb, orr = offr,
          ir = incr;
  cl_int e = exstar_cl::set_args(k, 0, fw, tr, un, nb, t, t0, ldt, accs, acc_off, x, ox, ix, b, ob, ib, r,
                                 orr, ir);
  return e != CL_SUCCESS ? e : enqueue_per_item(q, k, s->nb);
}

extern "C" cl_int exstar_cl_trsv_update(cl_command_queue q, cl_kernel k, int64_t n, int add, cl_mem d,
                                        int64_t offd, int64_t incd, cl_mem x, int64_t offx, int64_t incx)
{
  if (n <= 0) return CL_SUCCESS;
  cl_long n_ = n, od = offd, id = incd, ox = offx, ix = incx;
  cl_int a = add;
  cl_int e = exstar_cl::set_args(k, 0, n_, a, d, od, id, x, ox, ix);
  return e != CL_SUCCESS ? e : enqueue_per_item(q, k, n);
}
