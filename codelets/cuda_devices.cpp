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

static unsigned cuda_gpus = 0; // exstar_codelets_cuda_configure's

void exstar_codelets_cuda_configure(unsigned gpus)
{
  cuda_gpus = gpus;
#ifdef EXSTAR_L3_CUDA
  exstar_cuda_set_state_integer_path(gpus == 1);
#endif
}

void exstar_codelets_cuda_plan_states(int64_t n)
{
  // The state updates (the LU's and the Cholesky's) through the integer path where the updates
  // are most of the work: one GPU, or at least 16384 columns a GPU. Where the panel chain sets
  // the time (several GPUs, fewer columns each) the FP64 kernel: its tighter bound leaves the
  // panels fewer declined entries to retry (docs/design-notes.md, *R folded into S*). Measured
  // on H200s, n = 16384 / 32768: 1 GPU integer path 0.95 / 5.75 s, FP64 1.02 / 6.68 s; 2 GPUs
  // 0.74 / 3.13 s against 0.60 / 3.53 s; 4 GPUs (n = 32768) 3.3 s against 2.6 s.
#ifdef EXSTAR_L3_CUDA
  if (cuda_gpus > 0) exstar_cuda_set_state_integer_path(cuda_gpus == 1 || n / (int64_t)cuda_gpus >= 16384);
#else
  (void)n;
#endif
}
