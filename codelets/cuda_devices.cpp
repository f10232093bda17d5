// How many CUDA devices this process sees, before StarPU starts (exstar_init's defaults).
#include "codelets/codelets.h"
#include "codelets/glue.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include <cuda_runtime_api.h>
#endif

int exstar_codelets_cuda_device_count(void)
{
#ifdef EXSTAR_WITH_CUDA_CODELETS
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
#else
  return 0;
#endif
}
