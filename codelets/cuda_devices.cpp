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
  // The state updates (the LU's and the Cholesky's) through the integer path on any number of
  // GPUs: its bound is as tight as the folded FP64 loop's (26 moduli, core/crt.h). With 24
  // moduli it was 2^7 looser, the panels retried more declined entries, and the path lost where
  // the panel chain sets the time (2 H200s, n = 16384: 0.74 s against 0.60 s on the FP64
  // kernel), so each factorization chose it only on one GPU or with 16384 columns a GPU. With 26
  // moduli, H200s, n = 16384 / 32768: 1 GPU 0.79 / 4.73 s (was 0.94 / 5.76 s); 2 GPUs 0.51 s at
  // 16384 against 0.59 s on the FP64 kernel, 2.52 s at 32768 (was 3.09 s).
#ifdef EXSTAR_L3_CUDA
  exstar_cuda_set_state_integer_path(gpus > 0);
#else
  (void)gpus;
#endif
}
