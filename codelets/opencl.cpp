// OpenCL programs and kernels of exstar, one set per OpenCL worker device.
#include "codelets/glue.h"
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#ifdef STARPU_USE_OPENCL
namespace {

struct device_kernels {
  cl_program program = nullptr;
  cl_kernel kernels[EXSTAR_CLK_COUNT] = {};
};
std::vector<device_kernels> per_device; // indexed by StarPU OpenCL devid

const char *const kernel_names[] = {
#define X(name) "exstar_" #name,
    EXSTAR_CL_KERNEL_NAMES
#undef X
};

std::string build_log(cl_program program, cl_device_id device)
{
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  if (size) clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, &log[0], nullptr);
  return log;
}

int report(char *msg, size_t len, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, len, fmt, ap);
  va_end(ap);
  return EXSTAR_ERR_OPENCL;
}

} // namespace

int exstar_codelets_opencl_load(const char *dir, char *msg, size_t len)
{
  unsigned ndev = starpu_opencl_worker_get_count();
  if (ndev == 0) return 0;
  const char *err = nullptr;
  char *source = exstar_cl_source(dir, &err);
  if (!source) return report(msg, len, "OpenCL sources: %s", err ? err : "unreadable");
  int max_devid = -1;
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w)
    if (starpu_worker_get_type(w) == STARPU_OPENCL_WORKER && starpu_worker_get_devid(w) > max_devid)
      max_devid = starpu_worker_get_devid(w);
  per_device.assign(max_devid + 1, device_kernels{});
  int status = 0;
  for (unsigned w = 0; w < starpu_worker_get_count() && status == 0; ++w) {
    if (starpu_worker_get_type(w) != STARPU_OPENCL_WORKER) continue;
    int devid = starpu_worker_get_devid(w);
    device_kernels &dk = per_device[devid];
    if (dk.program) continue;
    cl_context ctx;
    cl_device_id dev;
    starpu_opencl_get_context(devid, &ctx);
    starpu_opencl_get_device(devid, &dev);
    cl_int e;
    const char *src = source;
    dk.program = clCreateProgramWithSource(ctx, 1, &src, nullptr, &e);
    if (e != CL_SUCCESS) {
      status = report(msg, len, "clCreateProgramWithSource failed (%d)", (int)e);
      break;
    }
    e = clBuildProgram(dk.program, 1, &dev, exstar_cl_build_options(), nullptr, nullptr);
    if (e != CL_SUCCESS) {
      status = report(msg, len, "OpenCL build failed on device %d (%d): %s", devid,
                                (int)e, build_log(dk.program, dev).c_str());
      break;
    }
    for (int k = 0; k < EXSTAR_CLK_COUNT; ++k) {
      dk.kernels[k] = clCreateKernel(dk.program, kernel_names[k], &e);
      if (e != CL_SUCCESS) {
        status = report(msg, len, "OpenCL kernel %s missing (%d)", kernel_names[k], (int)e);
        break;
      }
    }
  }
  std::free(source);
  if (status != 0) exstar_codelets_opencl_unload();
  return status;
}

void exstar_codelets_opencl_unload(void)
{
  for (device_kernels &dk : per_device) {
    for (cl_kernel &k : dk.kernels)
      if (k) clReleaseKernel(k), k = nullptr;
    if (dk.program) clReleaseProgram(dk.program), dk.program = nullptr;
  }
  per_device.clear();
}

cl_kernel exstar_codelet_cl_kernel(enum exstar_cl_kernel_id id, cl_command_queue *queue)
{
  int devid = starpu_worker_get_devid(starpu_worker_get_id());
  starpu_opencl_get_queue(devid, queue);
  return per_device[devid].kernels[id];
}

void exstar_codelet_cl_finish(cl_command_queue queue, cl_int status, const char *what)
{
  if (status == CL_SUCCESS) status = clFinish(queue);
  if (status != CL_SUCCESS) exstar_codelet_fail(EXSTAR_ERR_OPENCL, "%s failed (OpenCL error %d)", what, (int)status);
}

#else
int exstar_codelets_opencl_load(const char *, char *, size_t) { return 0; }
void exstar_codelets_opencl_unload(void) {}
#endif
