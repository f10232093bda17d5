// Shared by the Level 1 .cu files: launch geometry of the grid-stride elementwise kernels.
#ifndef EXSTAR_KERNELS_CUDA_LEVEL1_UTIL_CUH
#define EXSTAR_KERNELS_CUDA_LEVEL1_UTIL_CUH
#include <cuda_runtime.h>

namespace exstar_cuda_l1 {
constexpr int kThreads = 256;
// Blocks for `items` work items: one per 256 items, at most 4096 (grid-stride beyond).
inline int blocks_for(long long items)
{
  long long b = (items + kThreads - 1) / kThreads;
  return (int)(b < 4096 ? (b > 0 ? b : 1) : 4096);
}
inline int check_launch()
{
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? 0 : -(int)e;
}
} // namespace exstar_cuda_l1
#endif
