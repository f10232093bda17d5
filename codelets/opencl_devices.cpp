// Which OpenCL devices this process sees, before StarPU starts (exstar_mpi_init's defaults).
#include "codelets/codelets.h"
#include "codelets/glue.h"
#include <vector>

int exstar_codelets_opencl_noncpu_device_count(void)
{
#ifdef STARPU_USE_OPENCL
  cl_uint nplatforms = 0;
  if (clGetPlatformIDs(0, nullptr, &nplatforms) != CL_SUCCESS || nplatforms == 0) return 0;
  std::vector<cl_platform_id> platforms(nplatforms);
  if (clGetPlatformIDs(nplatforms, platforms.data(), nullptr) != CL_SUCCESS) return 0;
  int n = 0;
  for (cl_platform_id p : platforms) {
    cl_uint count = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR, 0, nullptr, &count) == CL_SUCCESS)
      n += (int)count;
  }
  return n;
#else
  return 0;
#endif
}
