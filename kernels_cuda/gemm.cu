// Exact Level 3 on the GPU (core/gemm.h): gemm and the GEMM-accumulate state through one
// register-tiled kernel of the fast path, and the exact repair of what its check declines.
//
// The fast kernel: blocks of 64 x 64 entries, k in steps of 16 through shared memory, each thread
// a 4 x 4 register tile holding S, R and sigma per entry: 5 FP64 instructions a term (2 DFMA,
// 3 DADD). Its epilogue either writes y (gemm; the check proved it) or sets the entry's bit in a
// mask, or adds S + R within E to the entry's state. The repair kernel then computes the masked
// entries exactly (a private accumulator per thread, core/gemm.inc). Nothing waits on the host;
// scratch is stream-ordered (cudaMallocAsync).
#include <cuda_runtime.h>
#include "kernels_cuda/gemm.h"
#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"
#include "core/gemv.h"
#include "core/gemm.h"

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _priv
#include "core/acc_ops.inc"
#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _priv
#include "core/gemv.inc"
#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _priv
#define EXSTAR_GEMM_DPTR const double *
#include "core/gemm.inc"

namespace {

constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4, THREADS = 256;
static_assert((BM / TM) * (BN / TN) == THREADS, "a 4 x 4 tile per thread");

// op(X)(i, l) = X[off + i*rs + l*cs].
struct opview {
  const double *p;
  int64_t off, rs, cs;
};

opview make_op(char trans, const double *p, int64_t off, int64_t ld)
{
  const bool t = trans == 'T' || trans == 't' || trans == 'C' || trans == 'c';
  return t ? opview{p, off, ld, 1} : opview{p, off, 1, ld};
}

// Exponent code of each of `lines` lines of k elements: line r is X[off + r*rs + l*cs], l < k.
__global__ void line_exps(opview X, int64_t lines, int64_t k, int *out)
{
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= lines) return;
  double mx = 0.0;
  int finite = 1;
  for (int64_t l = 0; l < k; ++l) {
    const double a = fabs(X.p[X.off + r * X.rs + l * X.cs]);
    finite &= a <= EXSTAR_DBL_MAX;
    mx = a > mx ? a : mx;
  }
  out[r] = finite ? exstar_exp_above(mx) : EXSTAR_GEMM_EXP_NONFINITE;
}

enum mode { GEMM = 0, STATE = 1 };

struct epilogue {
  double alpha, beta;   // gemm
  double *C;            // gemm: C(i, j) = C[offc + i + j*ldc]
  int64_t offc, ldc;
  unsigned *mask;       // gemm: bit i + j*m set where the check declined
  exstar_bdd *st;       // state: st(i, j) = st[offst + i + j*ldst]
  int64_t offst, ldst;
  double sign;          // state
};

// The tile of op(A)·op(B) at (blockIdx.y*BM, blockIdx.x*BN).
template <int MODE>
__global__ void __launch_bounds__(THREADS) fast_kernel(int64_t m, int64_t n, int64_t k, opview A, opview B,
                                                       const int *ea, const int *eb, int ep, epilogue ep_)
{
  __shared__ double As[2][BK][BM];
  __shared__ double Bs[2][BK][BN];
  const int tid = threadIdx.x, tx = tid % (BN / TN), ty = tid / (BN / TN);
  const int64_t i0 = (int64_t)blockIdx.y * BM, j0 = (int64_t)blockIdx.x * BN;
  double S[TM][TN], R[TM][TN], G[TM][TN];
#pragma unroll
  for (int r = 0; r < TM; ++r)
#pragma unroll
    for (int c = 0; c < TN; ++c) {
      const int64_t i = i0 + ty * TM + r, j = j0 + tx * TN + c;
      S[r][c] = 0.0, R[r][c] = 0.0;
      G[r][c] = (i < m && j < n) ? exstar_gemm_sigma(ea[i], eb[j], ep) : 1.0;
    }
  // global -> shared: each thread 4 elements of each tile, coalesced along the stored order
  const bool a_rows_contig = A.rs == 1, b_k_contig = B.rs == 1;
  auto load = [&](int buf, int64_t k0) {
#pragma unroll
    for (int q = 0; q < (BM * BK) / THREADS; ++q) {
      const int e = tid + q * THREADS;
      const int row = a_rows_contig ? e % BM : e / BK, kk = a_rows_contig ? e / BM : e % BK;
      const int64_t i = i0 + row, l = k0 + kk;
      As[buf][kk][row] = (i < m && l < k) ? A.p[A.off + i * A.rs + l * A.cs] : 0.0;
    }
#pragma unroll
    for (int q = 0; q < (BN * BK) / THREADS; ++q) {
      const int e = tid + q * THREADS;
      const int col = b_k_contig ? e / BK : e % BN, kk = b_k_contig ? e % BK : e / BN;
      const int64_t j = j0 + col, l = k0 + kk;
      Bs[buf][kk][col] = (j < n && l < k) ? B.p[B.off + l * B.rs + j * B.cs] : 0.0;
    }
  };
  load(0, 0);
  __syncthreads();
  int buf = 0;
  for (int64_t k0 = 0; k0 < k; k0 += BK) {
    if (k0 + BK < k) load(buf ^ 1, k0 + BK); // the next tile while this one is used
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      double a[TM], b[TN];
#pragma unroll
      for (int r = 0; r < TM; ++r) a[r] = As[buf][kk][ty * TM + r];
#pragma unroll
      for (int c = 0; c < TN; ++c) b[c] = Bs[buf][kk][tx * TN + c];
#pragma unroll
      for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TN; ++c) {
          const double q = fma(a[r], b[c], G[r][c]) - G[r][c];
          S[r][c] += q;
          R[r][c] += fma(a[r], b[c], -q);
        }
    }
    __syncthreads();
    buf ^= 1;
  }
#pragma unroll
  for (int r = 0; r < TM; ++r)
#pragma unroll
    for (int c = 0; c < TN; ++c) {
      const int64_t i = i0 + ty * TM + r, j = j0 + tx * TN + c;
      if (i >= m || j >= n) continue;
      const double E = exstar_gemm_bound(k, G[r][c]);
      if (MODE == GEMM) {
        double *cp = ep_.C + ep_.offc + i + j * ep_.ldc;
        const double cin = ep_.beta != 0.0 ? *cp : 0.0;
        double y;
        if (exstar_gemm_finish_fast(S[r][c], R[r][c], E, ep_.alpha, ep_.beta, cin, &y)) {
          *cp = y;
        } else {
          const int64_t bit = i + j * m;
          atomicOr(&ep_.mask[bit >> 5], 1u << (bit & 31));
        }
      } else {
        exstar_bdd *d = ep_.st + ep_.offst + i + j * ep_.ldst;
        exstar_bdd v = *d;
        exstar_gemm_state_add(&v, S[r][c], R[r][c], E, ep_.sign);
        *d = v;
      }
    }
}

// The entries whose mask bit is set, exactly: a thread per 32-bit word of the mask.
__global__ void repair_kernel(int64_t m, int64_t n, int64_t k, double alpha, opview A, opview B, double beta,
                              double *C, int64_t offc, int64_t ldc, const unsigned *mask, int64_t words,
                              unsigned long long *repaired, int exact_only)
{
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += (int64_t)gridDim.x * blockDim.x) {
    unsigned bits = mask[w];
    if (!bits) continue;
    if (repaired) atomicAdd(repaired, (unsigned long long)__popc(bits));
    while (bits) {
      const int b = __ffs(bits) - 1;
      bits &= bits - 1;
      const int64_t x = w * 32 + b, i = x % m, j = x / m;
      if (j >= n) break;
      double *cp = C + offc + i + j * ldc;
      const double cin = beta != 0.0 ? *cp : 0.0;
      exstar_i64 acc[EXSTAR_ACC_WORDS];
      *cp = exact_only ? exstar_gemm_entry_exact_priv(acc, k, alpha, A.p, A.off + i * A.rs, A.cs, B.p,
                                                      B.off + j * B.cs, B.rs, beta, cin)
                       : exstar_gemm_entry_repair_priv(acc, k, alpha, A.p, A.off + i * A.rs, A.cs, B.p,
                                                       B.off + j * B.cs, B.rs, beta, cin);
    }
  }
}

__global__ void fill_mask(unsigned *mask, int64_t words, int64_t entries)
{
  for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += (int64_t)gridDim.x * blockDim.x) {
    const int64_t left = entries - w * 32;
    mask[w] = left >= 32 ? 0xffffffffu : (1u << left) - 1u;
  }
}

__global__ void state_init_kernel(int64_t m, int64_t n, const double *C, int64_t offc, int64_t ldc, exstar_bdd *st,
                                  int64_t offst, int64_t ldst)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= m * n) return;
  const int64_t i = x % m, j = x / m;
  exstar_bdd v;
  exstar_gemm_state_init(&v, C[offc + i + j * ldc]);
  st[offst + i + j * ldst] = v;
}

__global__ void state_round_kernel(int64_t m, int64_t n, const exstar_bdd *st, int64_t offst, int64_t ldst, double *C,
                                   int64_t offc, int64_t ldc, unsigned char *mask, unsigned long long *declined)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= m * n) return;
  const int64_t i = x % m, j = x / m;
  exstar_bdd v = st[offst + i + j * ldst];
  double y;
  const int ok = exstar_bdd_round_ok(&v, &y);
  if (ok) C[offc + i + j * ldc] = y;
  if (mask) mask[x] = (unsigned char)!ok;
  if (!ok && declined) atomicAdd(declined, 1ull);
}

int status(cudaError_t e) { return e == cudaSuccess ? 0 : -(int)e; }

unsigned blocks_for(int64_t items, int threads) { return (unsigned)((items + threads - 1) / threads); }

// Exponent codes of op(A)'s rows and op(B)'s columns into scratch (m + n ints).
int exps(int64_t m, int64_t n, int64_t k, const opview &A, const opview &B, int **scratch, cudaStream_t s)
{
  cudaError_t e = cudaMallocAsync((void **)scratch, sizeof(int) * (size_t)(m + n), s);
  if (e != cudaSuccess) return status(e);
  line_exps<<<blocks_for(m, 128), 128, 0, s>>>(A, m, k, *scratch);
  const opview Bt{B.p, B.off, B.cs, B.rs}; // the columns of op(B) as lines
  line_exps<<<blocks_for(n, 128), 128, 0, s>>>(Bt, n, k, *scratch + m);
  return status(cudaGetLastError());
}

template <int MODE>
int launch_fast(int64_t m, int64_t n, int64_t k, const opview &A, const opview &B, const int *ex, const epilogue &e,
                cudaStream_t s)
{
  const int64_t gx = (n + BN - 1) / BN, gy = (m + BM - 1) / BM;
  if (gy > 65535) return -(int)cudaErrorInvalidValue;
  fast_kernel<MODE><<<dim3((unsigned)gx, (unsigned)gy), THREADS, 0, s>>>(m, n, k, A, B, ex, ex + m,
                                                                         exstar_gemm_count_exp(k), e);
  return status(cudaGetLastError());
}

} // namespace

extern "C" int exstar_cuda_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                 const double *A, int64_t offa, int64_t lda, const double *B, int64_t offb,
                                 int64_t ldb, double beta, double *C, int64_t offc, int64_t ldc, int exact_only,
                                 unsigned long long *repaired, exstar_cuda_stream stream)
{
  if (m <= 0 || n <= 0) return 0;
  cudaStream_t s = (cudaStream_t)stream;
  const opview a = make_op(transa, A, offa, lda), b = make_op(transb, B, offb, ldb);
  const int64_t words = (m * n + 31) / 32;
  unsigned *mask = nullptr;
  cudaError_t ce = cudaMallocAsync((void **)&mask, sizeof(unsigned) * (size_t)words, s);
  if (ce != cudaSuccess) return status(ce);
  int st = 0;
  int *ex = nullptr;
  if (exact_only || k == 0) {
    fill_mask<<<blocks_for(words, 256) < 4096 ? blocks_for(words, 256) : 4096, 256, 0, s>>>(mask, words, m * n);
    st = status(cudaGetLastError());
  } else {
    ce = cudaMemsetAsync(mask, 0, sizeof(unsigned) * (size_t)words, s);
    st = status(ce);
    if (st == 0) st = exps(m, n, k, a, b, &ex, s);
    epilogue e{};
    e.alpha = alpha, e.beta = beta, e.C = C, e.offc = offc, e.ldc = ldc, e.mask = mask;
    if (st == 0) st = launch_fast<GEMM>(m, n, k, a, b, ex, e, s);
  }
  if (st == 0) {
    const unsigned g = blocks_for(words, 128) < 8192 ? blocks_for(words, 128) : 8192;
    repair_kernel<<<g, 128, 0, s>>>(m, n, k, alpha, a, b, beta, C, offc, ldc, mask, words, repaired, exact_only);
    st = status(cudaGetLastError());
  }
  if (ex) cudaFreeAsync(ex, s);
  cudaFreeAsync(mask, s);
  return st;
}

extern "C" int exstar_cuda_gemm_state_add(char transa, char transb, int64_t m, int64_t n, int64_t k, double sign,
                                          const double *A, int64_t offa, int64_t lda, const double *B, int64_t offb,
                                          int64_t ldb, void *st, int64_t offst, int64_t ldst,
                                          exstar_cuda_stream stream)
{
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  cudaStream_t s = (cudaStream_t)stream;
  const opview a = make_op(transa, A, offa, lda), b = make_op(transb, B, offb, ldb);
  int *ex = nullptr;
  int r = exps(m, n, k, a, b, &ex, s);
  epilogue e{};
  e.st = (exstar_bdd *)st, e.offst = offst, e.ldst = ldst, e.sign = sign;
  if (r == 0) r = launch_fast<STATE>(m, n, k, a, b, ex, e, s);
  if (ex) cudaFreeAsync(ex, s);
  return r;
}

extern "C" int exstar_cuda_gemm_state_init(int64_t m, int64_t n, const double *C, int64_t offc, int64_t ldc, void *st,
                                           int64_t offst, int64_t ldst, exstar_cuda_stream stream)
{
  if (m <= 0 || n <= 0) return 0;
  state_init_kernel<<<blocks_for(m * n, 256), 256, 0, (cudaStream_t)stream>>>(m, n, C, offc, ldc, (exstar_bdd *)st,
                                                                               offst, ldst);
  return status(cudaGetLastError());
}

extern "C" int exstar_cuda_gemm_state_round(int64_t m, int64_t n, const void *st, int64_t offst, int64_t ldst,
                                            double *C, int64_t offc, int64_t ldc, unsigned char *mask,
                                            unsigned long long *declined, exstar_cuda_stream stream)
{
  if (m <= 0 || n <= 0) return 0;
  state_round_kernel<<<blocks_for(m * n, 256), 256, 0, (cudaStream_t)stream>>>(
      m, n, (const exstar_bdd *)st, offst, ldst, C, offc, ldc, mask, declined);
  return status(cudaGetLastError());
}
