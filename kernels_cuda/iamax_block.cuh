/* exstar CUDA: the block step of iamax, shared by the iamax kernel and the LU pivot. The order
 * of (key, index) pairs is core/iamax.h's strict total order, so the tree shape never changes
 * the winner. */
#ifndef EXSTAR_KERNELS_CUDA_IAMAX_BLOCK_CUH
#define EXSTAR_KERNELS_CUDA_IAMAX_BLOCK_CUH
#include "core/iamax.h"

/* Every thread of the block (Threads of them, a power of two) brings its own pair; on return
 * skey[0], sidx[0] hold the block's winner, seen by all. */
template <int Threads>
__device__ __forceinline__ void exstar_cuda_iamax_block(exstar_i64 *skey, exstar_i64 *sidx, exstar_i64 key,
                                                        exstar_i64 idx)
{
  const int tid = threadIdx.x;
  skey[tid] = key;
  sidx[tid] = idx;
  __syncthreads();
  for (int s = Threads / 2; s > 0; s /= 2) {
    if (tid < s && exstar_iamax_beats(skey[tid + s], sidx[tid + s], skey[tid], sidx[tid])) {
      skey[tid] = skey[tid + s];
      sidx[tid] = sidx[tid + s];
    }
    __syncthreads();
  }
}

#endif
