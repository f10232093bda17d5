// How many CUDA devices this process sees, before StarPU starts (exstar_init's defaults).
#include "codelets/codelets.h"
#include "codelets/glue.h"
#include "codelets/level3_glue.h"
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

void exstar_codelets_cuda_configure(unsigned gpus)
{
#ifdef EXSTAR_L3_CUDA
  // The state updates (the LU's and the Cholesky's) through the integer path on one GPU only:
  // measured faster there, slower on 4 GPUs (docs/design-notes.md, cause not found).
  exstar_cuda_set_state_integer_path(gpus == 1);
#else
  (void)gpus;
#endif
}
