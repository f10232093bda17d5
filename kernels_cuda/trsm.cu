// Exact trsm on the GPU: a thread per right-hand side runs the substitution; each row a bounded
// double-double started at alpha*b (core/checked_round.h) that takes the earlier unknowns'
// terms and proves its rounding, or the row's exact sum (a private accumulator, core/gemm.inc).
// Every column (side L) or row (side R) is exstar_dtrsv's; the division is one IEEE division.
#include <cuda_runtime.h>
#include "kernels_cuda/gemm.h"
#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"
#include "core/gemv.h"
#include "core/gemm.h"

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _tpriv
#include "core/acc_ops.inc"
#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _tpriv
#include "core/gemv.inc"
#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _tpriv
#define EXSTAR_GEMM_DPTR const double *
#include "core/gemm.inc"

namespace {

__global__ void trsm_kernel(int64_t N, int64_t nrhs, double alpha, const double *T, int64_t offt, int64_t trs,
                            int64_t tcs, double *X, int64_t offx, int64_t es, int64_t vs, int forward, int unit,
                            int exact_only, unsigned long long *repaired)
{
  const int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nrhs) return;
  if (alpha == 0.0) { // BLAS: X := 0, nothing read
    for (int64_t i = 0; i < N; ++i) X[offx + i * es + v * vs] = 0.0;
    return;
  }
  for (int64_t step = 0; step < N; ++step) {
    const int64_t i = forward ? step : N - 1 - step;
    const int64_t j0 = forward ? 0 : i + 1, cnt = forward ? i : N - 1 - i;
    double *xi = X + offx + i * es + v * vs;
    double num = 0.0;
    int ok = 0;
    if (!exact_only) {
      exstar_bdd d;
      d.hi = d.lo = d.err = d.mag = 0.0;
      ok = exstar_bdd_add_product(&d, alpha, *xi);
      for (int64_t q = 0; q < cnt; ++q) {
        const int64_t j = j0 + q;
        ok &= exstar_bdd_add_product(&d, -T[offt + i * trs + j * tcs], X[offx + j * es + v * vs]);
      }
      ok &= exstar_bdd_round_ok(&d, &num);
    }
    if (!ok) {
      exstar_i64 acc[EXSTAR_ACC_WORDS];
      for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) acc[w] = 0;
      exstar_gemm_add_terms_tpriv(acc, cnt, -1.0, T, offt + i * trs + j0 * tcs, tcs, X, offx + j0 * es + v * vs, es);
      exstar_acc_add_beta_y_tpriv(acc, alpha, *xi);
      num = exstar_acc_round_private(acc);
      if (repaired) atomicAdd(repaired, 1ull);
    }
    *xi = unit ? num : num / T[offt + i * trs + i * tcs];
  }
}

bool is_t(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

} // namespace

extern "C" int exstar_cuda_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                                 const double *T, int64_t offt, int64_t ldt, double *B, int64_t offb, int64_t ldb,
                                 int exact_only, unsigned long long *repaired, exstar_cuda_stream stream)
{
  if (m <= 0 || n <= 0) return 0;
  const bool left = side == 'L' || side == 'l';
  const bool trans_e = left == is_t(transa); // side R transposes op(T)
  const int64_t trs = trans_e ? ldt : 1, tcs = trans_e ? 1 : ldt;
  const int64_t N = left ? m : n, nrhs = left ? n : m, es = left ? 1 : ldb, vs = left ? ldb : 1;
  const int forward = (uplo == 'L' || uplo == 'l') != trans_e, unit = diag == 'U' || diag == 'u';
  const unsigned threads = 64, blocks = (unsigned)((nrhs + threads - 1) / threads);
  trsm_kernel<<<blocks, threads, 0, (cudaStream_t)stream>>>(N, nrhs, alpha, T, offt, trs, tcs, B, offb, es, vs, forward,
                                                            unit, exact_only, repaired);
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? 0 : -(int)e;
}
