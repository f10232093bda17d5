// Exact trsm on the GPU, the CPU kernel's structure (kernels_cpu/trsm.cpp): blocks of nb rows
// in substitution order; for block I every (row, right-hand side) is a bounded double-double
// (core/checked_round.h) started at alpha*b (TwoProd; a product off its window marks the entry
// NaN, so that it declines), minus the solved blocks' terms through the gemm fast kernel
// (exstar_cuda_gemm_state_add, sign -1), then the block solved column-parallel (a thread per
// right-hand side, its block of b staged in shared memory; rows in order; the block's own terms by
// exstar_bdd_add_product; exstar_bdd_round_ok; x = num / t_ii). A declined row is recomputed from
// ALL its terms the exact way (a private accumulator: alpha*b_i and -t_ij*x_j, core/gemm.inc),
// rounded, divided. Every path gives RN of the same exact value: every column (side L) or row
// (side R) of X is exstar_dtrsv's. No host synchronization; scratch is stream-ordered.
#include <cuda_runtime.h>
#include <stdlib.h>
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

constexpr int kRhs = 32;          // right-hand sides a block of threads (a warp)
constexpr int kXs = kRhs + 1;     // row pitch of the staged block of X

bool is(char c, char u) { return c == u || c == u + ('a' - 'A'); }
int status(cudaError_t e) { return e == cudaSuccess ? 0 : -(int)e; }

// The system in substitution terms (as the CPU kernel's tri_system): N unknowns per right-hand
// side, op_e(T)(i, j) = T[toff + i*trs + j*tcs], x_v(i) = X[xoff + i*es + v*vs].
struct tri {
  int64_t N, nrhs;
  const double *T;
  int64_t toff, trs, tcs;
  double *X;
  int64_t xoff, es, vs;
  int forward, unit;
};

__global__ void zero_kernel(int64_t m, int64_t n, double *B, int64_t offb, int64_t ldb)
{
  for (int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; x < m * n; x += (int64_t)gridDim.x * blockDim.x)
    B[offb + x % m + (x / m) * ldb] = 0.0;
}

// st(r, v) := alpha * x_v(lo + r) as a bounded double-double; NaN when TwoProd leaves its window.
__global__ void init_kernel(tri s, int64_t lo, int64_t len, double alpha, exstar_bdd *st)
{
  for (int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; x < len * s.nrhs; x += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = x % len, v = x / len;
    exstar_bdd d = {0.0, 0.0, 0.0, 0.0};
    if (!exstar_bdd_add_product(&d, alpha, s.X[s.xoff + (lo + r) * s.es + v * s.vs])) d.hi = __longlong_as_double(0x7ff8000000000000ll);
    st[x] = d;
  }
}

// Rows [lo, lo + len) of kRhs right-hand sides a block (one warp), the unknowns outside solved.
// TS: the block's triangle of op_e(T) staged in shared memory too (its terms then wait on no
// global load).
template <bool TS>
__global__ void __launch_bounds__(kRhs) diag_kernel(tri s, int64_t lo, int64_t len, double alpha, const exstar_bdd *st,
                                                    int exact_only, unsigned long long *repaired)
{
  extern __shared__ double xs[]; // [len][kXs]: b, then x, of the block's rhs; then Ts [len][len]
  double *ts = xs + len * kXs;
  const int lane = threadIdx.x;
  const int64_t v0 = (int64_t)blockIdx.x * kRhs, v = v0 + lane;
  if (s.es == 1) { // side L: a column's rows are contiguous
    for (int c = 0; c < kRhs && v0 + c < s.nrhs; ++c)
      for (int64_t r = lane; r < len; r += 32) xs[r * kXs + c] = s.X[s.xoff + lo + r + (v0 + c) * s.vs];
  } else if (v < s.nrhs) {
    for (int64_t r = 0; r < len; ++r) xs[r * kXs + lane] = s.X[s.xoff + (lo + r) * s.es + v * s.vs];
  }
  if (TS) // the triangle that is read (the other one never is), coalesced along the stored order
    for (int64_t q = lane; q < len * len; q += 32) {
      const int64_t r = s.trs == 1 ? q % len : q / len, c = s.trs == 1 ? q / len : q % len;
      if (s.forward ? c < r : c > r) ts[r * len + c] = s.T[s.toff + (lo + r) * s.trs + (lo + c) * s.tcs];
      else if (c == r && !s.unit) ts[r * len + c] = s.T[s.toff + (lo + r) * (s.trs + s.tcs)];
    }
  __syncwarp();
  if (v >= s.nrhs) return;
  unsigned long long mine = 0;
  exstar_i64 acc[EXSTAR_ACC_WORDS];
  for (int64_t step = 0; step < len; ++step) {
    const int64_t i = s.forward ? lo + step : lo + len - 1 - step, r = i - lo;
    const int64_t b0 = s.forward ? lo : i + 1, b1 = s.forward ? i : lo + len; // in-block solved unknowns
    const double *trow = s.T + s.toff + i * s.trs;
    const double *tsr = ts + r * len - lo; // tsr[j] = op_e(T)(i, j) for in-block j
    const double bi = xs[r * kXs + lane];
    double num = 0.0;
    int good = !exact_only;
    if (good) {
      exstar_bdd d = st[r + v * len];
      int fine = 1;
#pragma unroll 4
      for (int64_t j = b0; j < b1; ++j)
        fine &= exstar_bdd_add_product(&d, -(TS ? tsr[j] : trow[j * s.tcs]), xs[(j - lo) * kXs + lane]);
      good = fine & exstar_bdd_round_ok(&d, &num);
    }
    if (!good) { // every earlier unknown is in X by now (the block's ones written through below)
      const int64_t j0 = s.forward ? 0 : i + 1, cnt = s.forward ? i : s.N - 1 - i;
      for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) acc[w] = 0;
      exstar_gemm_add_terms_tpriv(acc, cnt, -1.0, s.T, s.toff + i * s.trs + j0 * s.tcs, s.tcs, s.X,
                                  s.xoff + j0 * s.es + v * s.vs, s.es);
      exstar_acc_add_beta_y_tpriv(acc, alpha, bi);
      num = exstar_acc_round_private(acc);
      ++mine;
    }
    const double x = s.unit ? num : num / (TS ? tsr[i] : trow[i * s.tcs]);
    xs[r * kXs + lane] = x;
    s.X[s.xoff + i * s.es + v * s.vs] = x;
  }
  if (repaired && mine) atomicAdd(repaired, mine);
}

// Rows a block: 128 (read at every call: EXSTAR_CUDA_TRSM_NB, 8..512, for measurements).
int block_rows()
{
  const char *e = getenv("EXSTAR_CUDA_TRSM_NB");
  const int v = e ? atoi(e) : 0;
  return v >= 8 && v <= 512 ? v : 128;
}

} // namespace

extern "C" int exstar_cuda_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                                 const double *T, int64_t offt, int64_t ldt, double *B, int64_t offb, int64_t ldb,
                                 int exact_only, unsigned long long *repaired, exstar_cuda_stream stream)
{
  if (m <= 0 || n <= 0) return 0;
  cudaStream_t cs = (cudaStream_t)stream;
  if (alpha == 0.0) { // X := +0, nothing read
    const int64_t blocks = (m * n + 255) / 256;
    zero_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, cs>>>(m, n, B, offb, ldb);
    return status(cudaGetLastError());
  }
  const bool left = is(side, 'L');
  const bool trans_e = left == (is(transa, 'T') || is(transa, 'C')); // side R transposes op(T)
  tri s;
  s.N = left ? m : n, s.nrhs = left ? n : m;
  s.T = T, s.toff = offt, s.trs = trans_e ? ldt : 1, s.tcs = trans_e ? 1 : ldt;
  s.X = B, s.xoff = offb, s.es = left ? 1 : ldb, s.vs = left ? ldb : 1;
  s.forward = is(uplo, 'L') != trans_e, s.unit = is(diag, 'U');
  const int64_t nb = s.N < block_rows() ? s.N : block_rows();
  const size_t smem_x = sizeof(double) * (size_t)nb * kXs, smem_t = sizeof(double) * (size_t)(nb * nb);
  const bool ts = smem_x + smem_t <= 200 * 1024;
  const size_t smem = ts ? smem_x + smem_t : smem_x;
  if (smem > 48 * 1024) {
    cudaError_t e = ts ? cudaFuncSetAttribute(diag_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)
                       : cudaFuncSetAttribute(diag_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess) return status(e);
  }
  exstar_bdd *st = nullptr;
  if (!exact_only) {
    cudaError_t e = cudaMallocAsync((void **)&st, sizeof(exstar_bdd) * (size_t)(nb * s.nrhs), cs);
    if (e != cudaSuccess) return status(e);
  }
  const unsigned gdiag = (unsigned)((s.nrhs + kRhs - 1) / kRhs);
  int rc = 0;
  for (int64_t b = 0; b < s.N && rc == 0; b += nb) {
    const int64_t len = s.N - b < nb ? s.N - b : nb;
    const int64_t lo = s.forward ? b : s.N - b - len;
    if (!exact_only) {
      const int64_t blocks = (len * s.nrhs + 255) / 256;
      init_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, cs>>>(s, lo, len, alpha, st);
      rc = status(cudaGetLastError());
      const int64_t s0 = s.forward ? 0 : lo + len, ks = s.forward ? lo : s.N - lo - len; // solved unknowns
      if (rc == 0 && ks > 0) {
        // op(A) = op_e(T)[lo.., s0..], op(B) = X[s0.., all rhs]
        const char ta = trans_e ? 'T' : 'N', tb = left ? 'N' : 'T';
        const int64_t offa = s.toff + lo * s.trs + s0 * s.tcs, offx = s.xoff + s0 * s.es;
        rc = exstar_cuda_gemm_state_add(ta, tb, len, s.nrhs, ks, -1.0, T, offa, ldt, B, offx, ldb, st, 0, len, stream);
      }
    }
    if (rc == 0) {
      const size_t sm = sizeof(double) * (size_t)len * kXs + (ts ? sizeof(double) * (size_t)(len * len) : 0);
      if (ts) diag_kernel<true><<<gdiag, kRhs, sm, cs>>>(s, lo, len, alpha, st, exact_only, repaired);
      else diag_kernel<false><<<gdiag, kRhs, sm, cs>>>(s, lo, len, alpha, st, exact_only, repaired);
      rc = status(cudaGetLastError());
    }
  }
  if (st) cudaFreeAsync(st, cs);
  return rc;
}
