// Shared by the exact gemm's CUDA files (gemm.cu: the FP64 fast kernel and the repair;
// gemm_crt.cu: the integer products on the tensor cores): the operand view and where an
// entry's checked result goes. Include after core/checked_round.h.
#ifndef EXSTAR_KERNELS_CUDA_GEMM_INTERNAL_CUH
#define EXSTAR_KERNELS_CUDA_GEMM_INTERNAL_CUH
#include <cuda_runtime.h>
#include <stdint.h>

namespace exstar_cuda_l3 {

// op(X)(i, l) = X[off + i*rs + l*cs].
struct opview {
  const double *p;
  int64_t off, rs, cs;
};

enum mode { GEMM = 0, STATE = 1 };

struct epilogue {
  double alpha, beta;            // gemm
  double *C;                     // gemm: C(i, j) = C[offc + i + j*ldc]
  int64_t offc, ldc;
  unsigned long long *count;     // gemm: entries declined so far (the list's length, may pass cap)
  int64_t *list;                 // gemm: i + j*m of declined entries, the first `cap`
  int64_t cap;
  unsigned *mask;                // gemm: bit i + j*m of declined entries beyond cap (or NULL)
  exstar_bdd *st;                // state: st(i, j) = st[offst + i + j*ldst]
  int64_t offst, ldst;
  double sign;                   // state
};

// A gemm entry (x = i + j*m) the fast path could not prove: onto the repair's list, or its
// mask beyond the list's capacity.
__device__ __forceinline__ void decline(const epilogue &ep, int64_t x)
{
  const unsigned long long slot = atomicAdd(ep.count, 1ull);
  if ((int64_t)slot < ep.cap) ep.list[slot] = x;
  else atomicOr(&ep.mask[x >> 5], 1u << (x & 31));
}

// The integer path (gemm_crt.cu): whether it takes an m x n x k product (EXSTAR_CUDA_GEMM_CRT:
// 0 never, 1 whenever k allows; unset: gemm products large enough to fill the tensor cores),
// and the product itself: every entry's checked result into ep (declines listed, as the FP64
// fast kernel's), from the line codes ea (m) and eb (n).
// crt_products's answer when its scratch does not fit the device (or cuBLAS or a memory pool is
// not to be had): nothing was launched, and the caller takes the FP64 kernel (the same bits).
constexpr int kCrtNoMemory = 1;
// exstar's own stream-ordered pool on the current device (the integer path's scratch, the tiled
// gemm's strips): it keeps up to 3 GiB mapped between products, where the default pool unmaps
// its memory at every stream synchronization (StarPU's, after each task).
int scratch_pool(cudaMemPool_t *pool);
bool crt_wanted(int md, int64_t m, int64_t n, int64_t k, cudaStream_t s);
int crt_products(int md, int64_t m, int64_t n, int64_t k, const opview &A, const opview &B, const int *ea,
                 const int *eb, const epilogue &ep, cudaStream_t s);

} // namespace exstar_cuda_l3
#endif
