// OpenCL programs and kernels of exstar, one set per OpenCL worker device.
#include "codelets/glue.h"
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#ifdef STARPU_USE_OPENCL
#ifdef EXSTAR_CL_LEVEL3
#include "kernels_cl/gemm.h"
#endif
namespace {

// Every kernel of the program, created once at load and only read afterwards (each device
// has one StarPU worker, so a cl_kernel is never used by two threads).
struct device_kernels {
  cl_program program = nullptr;
  std::map<std::string, cl_kernel> kernels;
#ifdef EXSTAR_CL_LEVEL3
  exstar_cl_gemm_kernels *gemm = nullptr; // Level 3, created on first use
#endif
};
std::vector<device_kernels> per_device; // indexed by StarPU OpenCL devid
uint64_t smallest_max_alloc = 0;        // over the OpenCL workers' devices; 0: none

std::string kernel_name(cl_kernel k)
{
  size_t size = 0;
  clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size);
  std::string name(size, '\0');
  if (size) clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, size, &name[0], nullptr);
  name.resize(name.find('\0') == std::string::npos ? name.size() : name.find('\0'));
  return name;
}

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
    cl_ulong max_alloc = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr) == CL_SUCCESS &&
        (smallest_max_alloc == 0 || max_alloc < smallest_max_alloc))
      smallest_max_alloc = max_alloc;
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
    cl_uint nk = 0;
    e = clCreateKernelsInProgram(dk.program, 0, nullptr, &nk);
    std::vector<cl_kernel> ks(nk);
    if (e == CL_SUCCESS) e = clCreateKernelsInProgram(dk.program, nk, ks.data(), nullptr);
    if (e != CL_SUCCESS) {
      status = report(msg, len, "clCreateKernelsInProgram failed (%d)", (int)e);
      break;
    }
    for (cl_kernel k : ks) dk.kernels[kernel_name(k)] = k;
  }
  std::free(source);
  if (status != 0) exstar_codelets_opencl_unload();
  return status;
}

void exstar_codelets_opencl_unload(void)
{
  for (device_kernels &dk : per_device) {
    for (auto &nk : dk.kernels) clReleaseKernel(nk.second);
#ifdef EXSTAR_CL_LEVEL3
    if (dk.gemm) exstar_cl_gemm_kernels_release(dk.gemm), dk.gemm = nullptr;
#endif
    dk.kernels.clear();
    if (dk.program) clReleaseProgram(dk.program), dk.program = nullptr;
  }
  per_device.clear();
  smallest_max_alloc = 0;
}

uint64_t exstar_codelets_opencl_max_alloc(void) { return smallest_max_alloc; }

cl_kernel exstar_codelet_cl_kernel(const char *name, cl_command_queue *queue)
{
  int devid = starpu_worker_get_devid(starpu_worker_get_id());
  starpu_opencl_get_queue(devid, queue);
  auto it = per_device[devid].kernels.find(name);
  if (it != per_device[devid].kernels.end()) return it->second;
  exstar_codelet_fail(EXSTAR_ERR_OPENCL, "OpenCL kernel %s is not in the program", name);
  return nullptr;
}

#ifdef EXSTAR_CL_LEVEL3
struct exstar_cl_gemm_kernels *exstar_codelet_cl_gemm_kernels(cl_command_queue *queue)
{
  int devid = starpu_worker_get_devid(starpu_worker_get_id());
  starpu_opencl_get_queue(devid, queue);
  device_kernels &dk = per_device[devid];
  if (!dk.gemm) {
    cl_int e = CL_SUCCESS;
    dk.gemm = exstar_cl_gemm_kernels_create(dk.program, &e);
    if (!dk.gemm) exstar_codelet_fail(EXSTAR_ERR_OPENCL, "OpenCL Level-3 kernels: creation failed (%d)", (int)e);
  }
  return dk.gemm;
}
#endif

void exstar_codelet_cl_finish(cl_command_queue queue, cl_int status, const char *what)
{
  if (status == CL_SUCCESS) status = clFinish(queue);
  if (status != CL_SUCCESS) exstar_codelet_fail(EXSTAR_ERR_OPENCL, "%s failed (OpenCL error %d)", what, (int)status);
}

#else
uint64_t exstar_codelets_opencl_max_alloc(void) { return 0; }
int exstar_codelets_opencl_load(const char *, char *, size_t) { return 0; }
void exstar_codelets_opencl_unload(void) {}
#endif
