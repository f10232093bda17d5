// OpenCL launchers of the accumulator housekeeping kernels (acc.cl).
#include "kernels_cl/kernels_cl.h"
#include "kernels_cl/launch_util.h"
#include "core/accumulator.h"

using exstar_cl::enqueue_single;
using exstar_cl::set_args;

extern "C" cl_int exstar_cl_acc_zero(cl_command_queue q, cl_kernel k_zero, cl_mem acc,
                                     cl_ulong acc_off, cl_ulong count)
{
  cl_ulong words = count * EXSTAR_ACC_WORDS;
  cl_int e = set_args(k_zero, 0, acc, acc_off, words);
  if (e != CL_SUCCESS || words == 0) return e;
  size_t global = (size_t)words;
  return clEnqueueNDRangeKernel(q, k_zero, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
}

extern "C" cl_int exstar_cl_acc_merge(cl_command_queue q, cl_kernel k_merge, cl_mem dst,
                                      cl_ulong dst_off, cl_mem src, cl_ulong src_off, cl_ulong count)
{
  cl_int e = set_args(k_merge, 0, dst, dst_off, src, src_off, count);
  if (e != CL_SUCCESS || count == 0) return e;
  size_t global = (size_t)count; // one work-item per accumulator
  return clEnqueueNDRangeKernel(q, k_merge, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
}

extern "C" cl_int exstar_cl_acc_round(cl_command_queue q, cl_kernel k_round, cl_mem acc,
                                      cl_ulong acc_off, cl_mem result, cl_ulong result_off)
{
  cl_int e = set_args(k_round, 0, acc, acc_off, result, result_off);
  return e != CL_SUCCESS ? e : enqueue_single(q, k_round);
}

extern "C" cl_int exstar_cl_acc_round_sqrt(cl_command_queue q, cl_kernel k_round_sqrt, cl_mem acc, cl_ulong acc_off,
                                           cl_mem result, cl_ulong result_off)
{
  return exstar_cl_acc_round(q, k_round_sqrt, acc, acc_off, result, result_off); // the same arguments
}
