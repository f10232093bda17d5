/* The core accumulator operations for CUDA device code, instantiated twice from
 * core/acc_ops.inc (never copied):
 *   _atomic   words in __shared__ or global memory, updated by many threads with 64-bit
 *             atomicAdd (two's complement: adding the unsigned image of a signed value is the
 *             signed addition);
 *   _private  words owned by one thread (registers / local memory), plain +=.
 * Also the device helpers shared by the kernels of this folder (one file per operation). */
#ifndef EXSTAR_KERNELS_CUDA_ACC_CUDA_CUH
#define EXSTAR_KERNELS_CUDA_ACC_CUDA_CUH

#include <cuda_runtime.h>
#include "core/accumulator.h"
#include "core/strides.h"

/* The core functions are __host__ __device__; the atomic is device only (the host never
 * calls the _atomic instantiation). */
EXSTAR_FN void exstar_cuda_atomic_add(exstar_i64 *p, exstar_i64 v)
{
#ifdef __CUDA_ARCH__
  atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
  *p += v;
#endif
}

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) exstar_cuda_atomic_add((p), (v))
#define EXSTAR_ACC_SFX _atomic
#include "core/acc_ops.inc"

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _private
#include "core/acc_ops.inc"

/* ---- the block-level pipeline shared by sum and dot ---------------------------------------
 * Every thread keeps FPEs in registers and spills into the block's __shared__ digits (sacc,
 * EXSTAR_ACC_NDIGITS words). At the end: the FPEs of a warp are merged exactly by a shuffle
 * tree (spills still go to sacc), lane 0 flushes the warp's FPE, then the block's digits get
 * two parallel carry passes and go to the global accumulator with atomicAdd. */

/* Bound on the terms one block handles in one launch: every term adds at most 4 values
 * below 2^32 to a digit (a spilled remainder and a spilled head from each of the two FPE
 * additions of a dot term; the integer product: 1), so the shared digits stay below
 * 4 * 2^28 * 2^32 = 2^62 (plus the end-of-block flushes). The launchers size the grid so that
 * no block gets more. */
#define EXSTAR_CUDA_MAX_TERMS_PER_BLOCK (((long long)1) << 28)
/* The kernels run blocks of at least EXSTAR_CUDA_MIN_THREADS threads (a multiple of 32). */
#define EXSTAR_CUDA_MIN_THREADS 64
#define EXSTAR_CUDA_CARRY_ROUNDS ((EXSTAR_ACC_NDIGITS + EXSTAR_CUDA_MIN_THREADS - 1) / EXSTAR_CUDA_MIN_THREADS)

__device__ __forceinline__ void exstar_cuda_block_zero(exstar_i64 *sacc)
{
  for (int i = threadIdx.x; i < EXSTAR_ACC_NDIGITS; i += blockDim.x) sacc[i] = 0;
}

/* Start of a block's share of a sum: its digits zeroed (then a barrier: every thread may add
 * to them), and each thread's two FPEs (the even and the odd terms: two independent chains). */
__device__ __forceinline__ void exstar_cuda_block_begin(exstar_i64 *sacc, double f0[EXSTAR_FPE_N],
                                                        double f1[EXSTAR_FPE_N])
{
  exstar_cuda_block_zero(sacc);
  __syncthreads();
  exstar_fpe_zero(f0);
  exstar_fpe_zero(f1);
}

/* fpe += the FPE of lane (lane + off) for lanes < off; spills to sacc. The whole warp calls. */
__device__ __forceinline__ void exstar_cuda_warp_merge_fpe(exstar_i64 *sacc,
                                                           double fpe[EXSTAR_FPE_N])
{
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    double other[EXSTAR_FPE_N];
#pragma unroll
    for (int k = 0; k < EXSTAR_FPE_N; ++k) other[k] = __shfl_down_sync(0xffffffffu, fpe[k], off);
    if (lane < off) {
#pragma unroll
      for (int k = 0; k < EXSTAR_FPE_N; ++k)
        if (other[k] != 0.0) (void)exstar_sum_step_atomic(sacc, fpe, other[k]);
    }
  }
}

/* End of a block: merge the FPE and the flags of every thread, carry, add to the global
 * accumulator. The whole block calls it (it has __syncthreads inside). */
__device__ __forceinline__ void exstar_cuda_block_finish(exstar_i64 *sacc, double fpe[EXSTAR_FPE_N],
                                                         int flags, exstar_i64 *gacc)
{
  __shared__ int sflags;
  if (threadIdx.x == 0) sflags = 0;
  exstar_cuda_warp_merge_fpe(sacc, fpe);
  if ((threadIdx.x & 31) == 0) exstar_acc_flush_fpe_atomic(sacc, fpe);
  flags = (int)__reduce_or_sync(0xffffffffu, (unsigned)flags);
  __syncthreads(); /* sflags zeroed; every spill and flush in sacc */
  if ((threadIdx.x & 31) == 0 && flags) atomicOr(&sflags, flags);
  /* Two carry passes, each digit by its own thread: value-preserving (the carry out of digit
   * i-1 moves to digit i; the top digit is never split). Digits start below 2^63 in
   * magnitude; after pass 1 they lie in [-2^31, 2^32+2^31), after pass 2 in [-1, 2^32]. */
  for (int pass = 0; pass < 2; ++pass) {
    exstar_i64 nd[EXSTAR_CUDA_CARRY_ROUNDS];
#pragma unroll
    for (int r = 0; r < EXSTAR_CUDA_CARRY_ROUNDS; ++r) {
      const int i = threadIdx.x + r * blockDim.x;
      nd[r] = 0;
      if (i < EXSTAR_ACC_NDIGITS) {
        exstar_i64 d = sacc[i];
        exstar_i64 c = 0;
        if (i > 0) { exstar_i64 p = sacc[i - 1]; c = exstar_digit_carry(&p); }
        if (i < EXSTAR_ACC_NDIGITS - 1) (void)exstar_digit_carry(&d);
        nd[r] = d + c;
      }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < EXSTAR_CUDA_CARRY_ROUNDS; ++r) {
      const int i = threadIdx.x + r * blockDim.x;
      if (i < EXSTAR_ACC_NDIGITS) sacc[i] = nd[r];
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < EXSTAR_ACC_NDIGITS; i += blockDim.x)
    if (sacc[i] != 0) exstar_cuda_atomic_add(&gacc[i], sacc[i]);
  if (threadIdx.x == 0 && sflags) exstar_acc_add_flags_atomic(gacc, sflags); // normalize makes it 0/1
}

/* The same for a thread's two FPEs: f1's digits go into f0 first. */
__device__ __forceinline__ void exstar_cuda_block_finish2(exstar_i64 *sacc, double f0[EXSTAR_FPE_N],
                                                          double f1[EXSTAR_FPE_N], int flags, exstar_i64 *gacc)
{
#pragma unroll
  for (int k = 0; k < EXSTAR_FPE_N; ++k)
    if (f1[k] != 0.0) (void)exstar_sum_step_atomic(sacc, f0, f1[k]);
  exstar_cuda_block_finish(sacc, f0, flags, gacc);
}

/* Grid size for n terms: blocks_per_sm per multiprocessor, more when a block would get more
 * than EXSTAR_CUDA_MAX_TERMS_PER_BLOCK terms, fewer when there is little work. */
int exstar_cuda_grid_size(long long n, int threads, int blocks_per_sm, int *grid);
/* The one-thread final normalize of a global accumulator (digits and markers). */
int exstar_cuda_launch_normalize(exstar_i64 *acc, cudaStream_t stream);
/* 0, or -(error) of the last launch. */
int exstar_cuda_check_launch(void);

#endif
