// Handles larger than an OpenCL device's largest buffer (runtime/internal.h: where_for,
// check_fits). StarPU allocates a handle whole on the device of the worker that runs a task on
// it, and an OpenCL allocation beyond CL_DEVICE_MAX_MEM_ALLOC_SIZE is a StarPU assertion (an
// abort): PoCL allows 4 GiB, so `exstar gemv` on a 40000 x 40000 matrix (12.8 GB) aborted on a
// machine with the memory for it. Such tasks now leave OpenCL workers out.
#include "runtime/internal.h"
#include "codelets/codelets.h"

namespace exstar_rt {

namespace {

bool fits_opencl(size_t bytes)
{
  const uint64_t max = exstar_codelets_opencl_max_alloc();
  return max == 0 || bytes <= max;
}

} // namespace

unsigned where_for(starpu_data_handle_t h)
{
  return STARPU_CPU | STARPU_CUDA | (!h || fits_opencl(starpu_data_get_size(h)) ? STARPU_OPENCL : 0);
}

int check_fits(const char *who, const char *name, starpu_data_handle_t h)
{
  if (!h) return EXSTAR_SUCCESS;
  const size_t bytes = starpu_data_get_size(h);
  if (fits_opencl(bytes) || starpu_cpu_worker_get_count() + starpu_cuda_worker_get_count() > 0) return EXSTAR_SUCCESS;
  return exstar_set_error(EXSTAR_ERR_NO_WORKER,
                          "%s: %s (%.0f MB) is larger than the largest buffer of the OpenCL devices (%.0f MB), "
                          "and there is no CPU or CUDA worker to take its tasks",
                          who, name, (double)bytes / 1e6, (double)exstar_codelets_opencl_max_alloc() / 1e6);
}

} // namespace exstar_rt
