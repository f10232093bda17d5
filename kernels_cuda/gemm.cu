// Exact Level 3 on the GPU (core/gemm.h): gemm and the GEMM-accumulate state through one
// register-tiled kernel of the fast path, and the exact repair of what its check declines.
//
// 1. Exponent codes (exps): 2^e >= max |.| of each row of op(A) and each column of op(B) over
//    the k terms (EXSTAR_GEMM_EXP_NONFINITE for a NaN or inf), a block of threads per 32 lines
//    that lie side by side in memory, or a warp per line stored contiguously.
// 2. The fast kernel: blocks of BM x BN entries, k in steps of BK through a STAGES-deep ring of
//    shared tiles filled by cp.async (8-byte copies: any lda, any offset; the transposes are
//    taken in the copy: op(A) and op(B) always land k-major, padded against bank conflicts;
//    out-of-range elements are zero-filled by the copy itself), each thread a TM x TN register
//    tile with a running sum S and the rests' sum R per entry: exactly exstar_gemm_term's 4 FP64
//    instructions a term (2 DFMA, 2 DADD), terms of an entry in order l = 0, 1, ... (the CPU
//    kernel's order too; the states compare bit for bit).
//    Epilogue: gemm: exstar_gemm_finish_fast; proven entries are written, the others appended
//    to a device-side list (atomicAdd; beyond its capacity, a bit mask) and C(i, j) untouched;
//    state: st(i, j) += sign (S + R) within E (exstar_gemm_state_add).
// 3. The repair, a warp per listed entry (the counts are read on the device: no host
//    synchronization anywhere): first the retry pass of core/gemm.inc (the entry's own split
//    constant, its terms shared by the lanes: S exact in any order, R within the same bound; a
//    kernel of few registers, many warps in flight), then for what it declines the exact path:
//    each lane a private accumulator of its terms (core/gemm.inc), merged by integer atomics
//    into the warp's shared accumulator, beta*c added, one rounding.
//    exact_only (and k == 0): every entry through the exact path.
// Scratch is stream-ordered (cudaMallocAsync / cudaFreeAsync).
#include <cuda_runtime.h>
#include <atomic>
#include "kernels_cuda/gemm.h"
#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"
#include "core/gemv.h"
#include "core/gemm.h"
#include "kernels_cuda/gemm_internal.cuh"

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

using namespace exstar_cuda_l3;

namespace {

constexpr unsigned kFull = 0xffffffffu;

opview make_op(char trans, const double *p, int64_t off, int64_t ld)
{
  const bool t = trans == 'T' || trans == 't' || trans == 'C' || trans == 'c';
  return t ? opview{p, off, ld, 1} : opview{p, off, 1, ld};
}

int status(cudaError_t e) { return e == cudaSuccess ? 0 : -(int)e; }
int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
unsigned grid_cap(int64_t blocks, int64_t cap) { return (unsigned)(blocks < 1 ? 1 : blocks < cap ? blocks : cap); }

// ---- 1. exponent codes -------------------------------------------------------------------------

// Lines side by side (rs == 1): 32 lines a block, 8 threads a line (slices of l), coalesced.
__global__ void __launch_bounds__(256) exps_adjacent(opview X, int64_t lines, int64_t k, int *out)
{
  __shared__ int red[8][32];
  const int x = threadIdx.x & 31, y = threadIdx.x >> 5;
  const int64_t r = (int64_t)blockIdx.x * 32 + x;
  int e = EXSTAR_GEMM_EXP_ZERO;
  if (r < lines)
    for (int64_t l = y; l < k; l += 8) e = exstar_line_exp_step(e, X.p[X.off + r + l * X.cs]);
  red[y][x] = e;
  __syncthreads();
  if (y == 0 && r < lines) {
#pragma unroll
    for (int q = 1; q < 8; ++q) e = exstar_exp_max(e, red[q][x]);
    out[r] = e;
  }
}

// Lines stored contiguously (cs == 1): a warp a line.
__global__ void __launch_bounds__(256) exps_contiguous(opview X, int64_t lines, int64_t k, int *out)
{
  const int64_t r = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (r >= lines) return;
  int e = EXSTAR_GEMM_EXP_ZERO;
  for (int64_t l = lane; l < k; l += 32) e = exstar_line_exp_step(e, X.p[X.off + r * X.rs + l]);
  e = __reduce_max_sync(kFull, e);
  if (lane == 0) out[r] = e;
}

// Codes of `lines` lines (line r: X(r, l), l < k) into out. (exp_above is monotone in |x| and
// maps NaN and inf above everything: the max of the codes is the code of the max.)
int line_exps(const opview &X, int64_t lines, int64_t k, int *out, cudaStream_t s)
{
  if (X.rs == 1 && X.cs != 1) exps_adjacent<<<(unsigned)cdiv(lines, 32), 256, 0, s>>>(X, lines, k, out);
  else if (X.cs == 1) exps_contiguous<<<(unsigned)cdiv(lines, 8), 256, 0, s>>>(X, lines, k, out);
  else exps_adjacent<<<(unsigned)cdiv(lines, 32), 256, 0, s>>>(opview{X.p, X.off, 1, X.cs}, lines, k, out);
  return status(cudaGetLastError());
}

// ---- 2. the fast kernel ------------------------------------------------------------------------

__device__ __forceinline__ void cp_async8(void *smem, const double *gmem, bool valid)
{
  const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(s), "l"(gmem), "r"(valid ? 8 : 0) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

// The epilogue of one gemm entry (not inlined: the main loop keeps every register): its checked
// rounding, or its decline.
__device__ __noinline__ void finish_entry(const epilogue &ep_, int64_t m, int64_t k, int64_t i, int64_t j, double S,
                                          double R, double sigma)
{
  double *cp = ep_.C + ep_.offc + i + j * ep_.ldc;
  const double cin = ep_.beta != 0.0 ? *cp : 0.0;
  double y;
  if (exstar_gemm_finish_fast(S, R, exstar_gemm_bound(k, sigma), ep_.alpha, ep_.beta, cin, &y)) {
    *cp = y;
  } else {
    decline(ep_, i + j * m);
  }
}

// The states of a thread's TM x TN entries (STATE mode) take their sums S + R (bound E each):
// all loaded first, so that their loads are in flight together, then added and stored. One entry
// at a time, each a dependent load of a state not in L2, the epilogue of a short product (k = 64
// in the LU panel's state updates) took about as long as its terms.
// f(r, c, i, j) for each of a thread's TM x TN entries (r, c) that lies inside the m x n output
// (i, j).
template <class G, class F>
__device__ __forceinline__ void each_entry(int64_t m, int64_t n, int64_t i0, int64_t j0, int tx, int ty, F f)
{
#pragma unroll
  for (int r = 0; r < G::TM; ++r)
#pragma unroll
    for (int c = 0; c < G::TN; ++c) {
      const int64_t i = G::row(i0, ty, r), j = G::col(j0, tx, c);
      if (i < m && j < n) f(r, c, i, j);
    }
}

template <class G, class Sigma>
__device__ __forceinline__ void finish_states(const epilogue &ep_, int64_t m, int64_t n, int64_t k, int64_t i0,
                                              int64_t j0, int tx, int ty, const double (&S)[G::TM][G::TN],
                                              const double (&R)[G::TM][G::TN], Sigma sigma_at)
{
  exstar_bdd v[G::TM][G::TN];
  each_entry<G>(m, n, i0, j0, tx, ty,
                [&](int r, int c, int64_t i, int64_t j) { v[r][c] = ep_.st[ep_.offst + i + j * ep_.ldst]; });
  each_entry<G>(m, n, i0, j0, tx, ty, [&](int r, int c, int64_t i, int64_t j) {
    const double sigma = sigma_at(i, j);
    exstar_gemm_state_add(&v[r][c], exstar_gemm_run_end(S[r][c], sigma), R[r][c], exstar_gemm_bound(k, sigma), ep_.sign);
    ep_.st[ep_.offst + i + j * ep_.ldst] = v[r][c];
  });
}

// Tile geometry. Thread (tx, ty) owns rows ty*2 + {0,1} + p*(BM/(TM/2)) and columns
// tx*2 + {0,1} + p*(BN/(TN/2)): pairs of doubles (one 16-byte shared load each), the pairs of a
// warp's threads side by side (no bank conflict).
template <int BM_, int BN_, int TM_, int TN_, int MINB_, int BK_ = 16, int STAGES_ = 3>
struct cfg {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_, MINB = MINB_, STAGES = STAGES_;
  static constexpr int TX = BN / TN, TY = BM / TM, THREADS = TX * TY;
  static constexpr int PAD = 2; // a row of a shared tile is 16-byte aligned, k-neighbours 4 banks apart
  static constexpr int LDA = BM + PAD, LDB = BN + PAD;
  static constexpr int SMEM = (int)sizeof(double) * STAGES * BK * (LDA + LDB);
  static_assert(TM % 2 == 0 && TN % 2 == 0, "pairs");
  // the row (column) of thread ty's (tx's) entry r (c) in the tile at i0 (j0)
  __device__ static int64_t row(int64_t i0, int ty, int r) { return i0 + (r / 2) * (BM / (TM / 2)) + ty * 2 + (r & 1); }
  __device__ static int64_t col(int64_t j0, int tx, int c) { return j0 + (c / 2) * (BN / (TN / 2)) + tx * 2 + (c & 1); }
  static_assert((BM * BK) % THREADS == 0 && (BN * BK) % THREADS == 0, "whole copies a thread");
};

// The BM x BN tile of op(A)·op(B) at (blockIdx.y*BM, blockIdx.x*BN). AT / BT: op(A) / op(B) is
// the transpose of the stored matrix (A.cs == 1 / B.cs == 1).
template <class G, int MODE, bool AT, bool BT>
__global__ void __launch_bounds__(G::THREADS, G::MINB)
    fast_kernel(int64_t m, int64_t n, int64_t k, opview A, opview B, const int *ea, const int *eb, int ep, epilogue ep_)
{
  constexpr int BM = G::BM, BN = G::BN, BK = G::BK, TM = G::TM, TN = G::TN, ST = G::STAGES;
  extern __shared__ __align__(16) double smem_[];
  double *As = smem_;                          // [ST][BK][LDA]
  double *Bs = smem_ + ST * BK * G::LDA;       // [ST][BK][LDB]
  const int tid = threadIdx.x, tx = tid % G::TX, ty = tid / G::TX;
  const int64_t i0 = (int64_t)blockIdx.y * BM, j0 = (int64_t)blockIdx.x * BN;

  // global -> shared, one stage (k-tile kt): coalesced along the stored order
  auto load = [&](int stage, int64_t kt) {
    const int64_t k0 = kt * BK;
    double *as = As + stage * BK * G::LDA, *bs = Bs + stage * BK * G::LDB;
#pragma unroll
    for (int q = 0; q < (BM * BK) / G::THREADS; ++q) {
      const int e = tid + q * G::THREADS;
      const int row = AT ? e / BK : e % BM, kk = AT ? e % BK : e / BM;
      const int64_t i = i0 + row, l = k0 + kk;
      const bool ok = i < m && l < k;
      cp_async8(as + kk * G::LDA + row, ok ? A.p + A.off + (AT ? i * A.rs + l : i + l * A.cs) : A.p, ok);
    }
#pragma unroll
    for (int q = 0; q < (BN * BK) / G::THREADS; ++q) {
      const int e = tid + q * G::THREADS;
      const int col = BT ? e % BN : e / BK, kk = BT ? e / BN : e % BK;
      const int64_t j = j0 + col, l = k0 + kk;
      const bool ok = j < n && l < k;
      cp_async8(bs + kk * G::LDB + col, ok ? B.p + B.off + (BT ? l * B.rs + j : l + j * B.cs) : B.p, ok);
    }
  };

  const int64_t KT = (k + BK - 1) / BK;
#pragma unroll
  for (int s = 0; s < ST - 1; ++s) {
    if (s < KT) load(s, s);
    cp_async_commit();
  }

  // an entry's running sum S and rests' sum R; its sigma is taken again in the epilogue, so
  // the main loop holds 4 registers an entry, not 6
  const auto sigma_at = [&](int64_t i, int64_t j) { return (i < m && j < n) ? exstar_gemm_sigma(ea[i], eb[j], ep) : 1.0; };
  double S[TM][TN], R[TM][TN];
#pragma unroll
  for (int r = 0; r < TM; ++r)
#pragma unroll
    for (int c = 0; c < TN; ++c) {
      const int64_t i = G::row(i0, ty, r), j = G::col(j0, tx, c);
      S[r][c] = exstar_gemm_run_begin(0.0, sigma_at(i, j)), R[r][c] = 0.0;
    }

  for (int64_t kt = 0; kt < KT; ++kt) {
    cp_async_wait<ST - 2>();
    __syncthreads(); // stage kt landed for every thread; stage kt-1 is free
    if (kt + ST - 1 < KT) load((int)((kt + ST - 1) % ST), kt + ST - 1);
    cp_async_commit();
    const double *as = As + (int)(kt % ST) * BK * G::LDA, *bs = Bs + (int)(kt % ST) * BK * G::LDB;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      double a[TM], b[TN];
#pragma unroll
      for (int p = 0; p < TM / 2; ++p) {
        const double2 v = *reinterpret_cast<const double2 *>(as + kk * G::LDA + p * (BM / (TM / 2)) + ty * 2);
        a[2 * p] = v.x, a[2 * p + 1] = v.y;
      }
#pragma unroll
      for (int p = 0; p < TN / 2; ++p) {
        const double2 v = *reinterpret_cast<const double2 *>(bs + kk * G::LDB + p * (BN / (TN / 2)) + tx * 2);
        b[2 * p] = v.x, b[2 * p + 1] = v.y;
      }
#pragma unroll
      for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TN; ++c) { // exstar_gemm_term
          const double t = fma(a[r], b[c], S[r][c]);
          const double q = t - S[r][c];
          S[r][c] = t;
          R[r][c] += fma(a[r], b[c], -q);
        }
      constexpr int kFold = BK < EXSTAR_GEMM_FOLD ? BK : EXSTAR_GEMM_FOLD;
      if ((kk + 1) % kFold == 0 && kt * BK + kk < k && exstar_gemm_folds_after(kt * BK + kk))
#pragma unroll
        for (int r = 0; r < TM; ++r)
#pragma unroll
          for (int c = 0; c < TN; ++c) exstar_gemm_fold(&S[r][c], &R[r][c]);
    }
  }
  cp_async_wait<0>();

  if constexpr (MODE == STATE) { // every state of the thread's entries loaded at once, then added and stored
    finish_states<G>(ep_, m, n, k, i0, j0, tx, ty, S, R, sigma_at);
  } else {
    each_entry<G>(m, n, i0, j0, tx, ty, [&](int r, int c, int64_t i, int64_t j) {
      const double sigma = sigma_at(i, j);
      finish_entry(ep_, m, k, i, j, exstar_gemm_run_end(S[r][c], sigma), R[r][c], sigma);
    });
  }
}

// The configuration in use: 64 x 64 entries a block of 256 threads, 4 x 4 a thread (64 registers
// of S and R; sigma is taken again in the epilogue; about 236 in all: one block, 8 warps, a
// multiprocessor), k in steps of 32, three stages (101 KB of shared memory).
// EXSTAR_CUDA_GEMM_CFG=1 / 2 / 3 pick others, for measurements: 1: k in steps of 16; 2: steps of
// 16, four stages; 3: two blocks a multiprocessor (128 registers: ~300 bytes of spills).
// Measured on the H100, uniform n = 4096 / 8192 / 16384, 4 instructions a term: 5.64 / 5.96 /
// 5.62 TFLOP/s effective; cfg 3 4.94 / 5.13 / 4.95. With 5 instructions a term (S += q apart)
// it was 5.05 at n = 8192, cfg 1 4.91, cfg 2 4.93; 64 x 32 blocks of 128 threads 4.01.
// ncu (n = 4096, 5 instructions a term): FP64 pipe 77% of peak; per issued instruction 4.3
// cycles with 2 warps a scheduler: 1.0 selected, 1.16 fixed-latency dependencies ("wait"), 1.03
// FP64 pipe busy, 0.82 not selected, barriers and shared loads < 0.1 each: too few warps to
// cover every dependency of the chains.
using cfg0 = cfg<64, 64, 4, 4, 1, 32, 3>;
using cfg1 = cfg<64, 64, 4, 4, 1>;
using cfg2 = cfg<64, 64, 4, 4, 1, 16, 4>;
using cfg3 = cfg<64, 64, 4, 4, 2, 32, 3>;

template <class G, int MODE, bool AT, bool BT>
int launch_one(int64_t m, int64_t n, int64_t k, const opview &A, const opview &B, const int *ex, const epilogue &e,
               cudaStream_t s)
{
  // The attribute is the current device's: set once on each (a bit a device ordinal; beyond 32
  // devices, at every launch). Two CUDA workers may get here at once: setting it twice is harmless.
  static std::atomic<unsigned> attr{0};
  int dev = 0;
  cudaError_t ce = cudaGetDevice(&dev);
  if (ce != cudaSuccess) return status(ce);
  const unsigned bit = dev < 32 ? 1u << dev : 0u;
  if (!bit || !(attr.load() & bit)) {
    ce = cudaFuncSetAttribute(fast_kernel<G, MODE, AT, BT>, cudaFuncAttributeMaxDynamicSharedMemorySize, G::SMEM);
    if (ce != cudaSuccess) return status(ce);
    attr.fetch_or(bit);
  }
  const int64_t gx = cdiv(n, G::BN), gy = cdiv(m, G::BM);
  if (gy > 65535 || gx > 2147483647) return -(int)cudaErrorInvalidValue;
  fast_kernel<G, MODE, AT, BT><<<dim3((unsigned)gx, (unsigned)gy), G::THREADS, G::SMEM, s>>>(
      m, n, k, A, B, ex, ex + m, exstar_gemm_count_exp(k), e);
  return status(cudaGetLastError());
}

template <class G, int MODE>
int launch_cfg(int64_t m, int64_t n, int64_t k, const opview &A, const opview &B, const int *ex, const epilogue &e,
               cudaStream_t s)
{
  const bool at = A.cs == 1 && A.rs != 1, bt = B.cs == 1 && B.rs != 1;
  if (at) return bt ? launch_one<G, MODE, true, true>(m, n, k, A, B, ex, e, s) : launch_one<G, MODE, true, false>(m, n, k, A, B, ex, e, s);
  return bt ? launch_one<G, MODE, false, true>(m, n, k, A, B, ex, e, s) : launch_one<G, MODE, false, false>(m, n, k, A, B, ex, e, s);
}

// Read at every launch (a benchmark switches it between runs).
int config_choice()
{
  const char *v = getenv("EXSTAR_CUDA_GEMM_CFG");
  return v && (v[0] == '1' || v[0] == '2' || v[0] == '3') ? v[0] - '0' : 0;
}

template <int MODE>
int launch_fast(int64_t m, int64_t n, int64_t k, const opview &A, const opview &B, const int *ex, const epilogue &e,
                cudaStream_t s)
{
  // a view with rs == cs == 1 (one row or one term) reads as 'N'
  switch (config_choice()) {
  case 1: return launch_cfg<cfg1, MODE>(m, n, k, A, B, ex, e, s);
  case 2: return launch_cfg<cfg2, MODE>(m, n, k, A, B, ex, e, s);
  case 3: return launch_cfg<cfg3, MODE>(m, n, k, A, B, ex, e, s);
  default: return launch_cfg<cfg0, MODE>(m, n, k, A, B, ex, e, s);
  }
}

// Exponent codes of op(A)'s rows and op(B)'s columns into stream-ordered scratch (m + n ints).
int exps(int64_t m, int64_t n, int64_t k, const opview &A, const opview &B, int **scratch, cudaStream_t s)
{
  cudaError_t e = cudaMallocAsync((void **)scratch, sizeof(int) * (size_t)(m + n), s);
  if (e != cudaSuccess) return status(e);
  int r = line_exps(A, m, k, *scratch, s);
  if (r == 0) r = line_exps(opview{B.p, B.off, B.cs, B.rs}, n, k, *scratch + m, s); // op(B)'s columns as lines
  return r;
}

// ---- 3. the repair ------------------------------------------------------------------------------

constexpr int kRepairWarps = 4;

struct repair_args {
  int64_t m, n, k;
  double alpha, beta;
  opview A, B;
  double *C;
  int64_t offc, ldc;
  unsigned long long *repaired;
};

// core/gemm.inc's retry pass for the entry (i, j) by a warp, its terms shared by the lanes: the
// same sigma (a max), S exact in any order, R within the same bound (each addition still errs by
// at most 2^-53 of a partial sum of at most k rests). Every lane calls; 1 when lane 0 wrote C.
__device__ __forceinline__ int retry_entry(const repair_args &a, int64_t i, int64_t j, int lane)
{
  double *cp = a.C + a.offc + i + j * a.ldc;
  const double *pa = a.A.p + a.A.off + i * a.A.rs, *pb = a.B.p + a.B.off + j * a.B.cs;
  const int64_t sa = a.A.cs, sb = a.B.rs;
  int e = 2 * EXSTAR_GEMM_EXP_ZERO;
#pragma unroll 4
  for (int64_t l = lane; l < a.k; l += 32) e = exstar_exp_max(e, exstar_exp_above(pa[l * sa]) + exstar_exp_above(pb[l * sb]));
  e = __reduce_max_sync(kFull, e);
  const double sigma = exstar_gemm_sigma(e, 0, exstar_gemm_count_exp(a.k));
  double S = exstar_gemm_run_begin(0.0, sigma), R = 0.0;
#pragma unroll 4
  for (int64_t l = lane; l < a.k; l += 32) exstar_gemm_term(pa[l * sa], pb[l * sb], &S, &R);
  S = exstar_gemm_run_end(S, sigma); // each lane's exact part; their sum is exact in any order
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    S += __shfl_down_sync(kFull, S, off);
    R += __shfl_down_sync(kFull, R, off);
  }
  int ok = 0;
  if (lane == 0) {
    const double cin = a.beta != 0.0 ? *cp : 0.0;
    double y;
    ok = exstar_gemm_finish_fast(S, R, exstar_gemm_bound_unfolded(a.k, sigma), a.alpha, a.beta, cin, &y);
    if (ok) *cp = y;
  }
  return __shfl_sync(kFull, ok, 0);
}

// The exact path for the entry (i, j) by a warp: lane l takes terms l, l + 32, ... into its
// private accumulator (core/gemm.inc), normalized, added into the warp's shared one with integer
// atomics; lane 0 adds beta*c and rounds. Every lane calls.
__device__ __noinline__ void exact_entry(const repair_args &a, int64_t i, int64_t j, exstar_i64 *sacc, int lane)
{
  double *cp = a.C + a.offc + i + j * a.ldc;
  const double *pa = a.A.p + a.A.off + i * a.A.rs, *pb = a.B.p + a.B.off + j * a.B.cs;
  const int64_t sa = a.A.cs, sb = a.B.rs;
  for (int w = lane; w < EXSTAR_ACC_WORDS; w += 32) sacc[w] = 0;
  __syncwarp();
  {
    exstar_i64 acc[EXSTAR_ACC_WORDS];
    for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) acc[w] = 0;
    const int64_t mine = a.k > lane ? (a.k - lane + 31) / 32 : 0;
    exstar_gemm_add_terms_priv(acc, mine, a.alpha, pa, lane * sa, 32 * sa, pb, lane * sb, 32 * sb);
    exstar_acc_normalize_priv(acc); // digits below 2^32, counters 0/1: 32 of them fit a word
    for (int w = 0; w < EXSTAR_ACC_WORDS; ++w)
      if (acc[w] != 0) atomicAdd((unsigned long long *)&sacc[w], (unsigned long long)acc[w]);
  }
  __syncwarp();
  if (lane == 0) {
    const double cin = a.beta != 0.0 ? *cp : 0.0;
    exstar_acc_add_beta_y_priv(sacc, a.beta, cin);
    *cp = exstar_acc_round_private(sacc);
  }
  __syncwarp();
}

// The listed entries (count read here): the retry pass, a warp an entry, few registers (many
// warps in flight: its loads are latency-bound); what it declines goes to list2.
__global__ void __launch_bounds__(256) retry_kernel(repair_args a, const int64_t *list, const unsigned long long *count,
                                                    int64_t cap, int64_t *list2, unsigned long long *count2)
{
  const int lane = threadIdx.x & 31;
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5, warps = ((int64_t)gridDim.x * blockDim.x) >> 5;
  const unsigned long long c = *count;
  const int64_t items = (int64_t)c < cap ? (int64_t)c : cap;
  for (int64_t t = warp; t < items; t += warps) {
    const int64_t x = list[t];
    if (!retry_entry(a, x % a.m, x / a.m, lane) && lane == 0) list2[atomicAdd(count2, 1ull)] = x;
  }
  if (a.repaired && warp == 0 && lane == 0) atomicAdd(a.repaired, c);
}

// The exact path over list2 (count2 read here), or over every entry (all != 0). A warp an entry.
__global__ void __launch_bounds__(32 * kRepairWarps)
    exact_kernel(repair_args a, const int64_t *list2, const unsigned long long *count2, int all)
{
  __shared__ exstar_i64 sacc[kRepairWarps][EXSTAR_ACC_WORDS];
  const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
  const int64_t warp = (int64_t)blockIdx.x * kRepairWarps + wib, warps = (int64_t)gridDim.x * kRepairWarps;
  const int64_t items = all ? a.m * a.n : (int64_t)*count2;
  for (int64_t t = warp; t < items; t += warps) {
    const int64_t x = all ? t : list2[t];
    exact_entry(a, x % a.m, x / a.m, sacc[wib], lane);
  }
  if (all && a.repaired && blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(a.repaired, (unsigned long long)items);
}

// The entries beyond the list's capacity (their mask bits), when there are any: both passes.
__global__ void __launch_bounds__(32 * kRepairWarps)
    repair_mask_kernel(repair_args a, const unsigned *mask, int64_t words, const unsigned long long *count, int64_t cap)
{
  __shared__ exstar_i64 sacc[kRepairWarps][EXSTAR_ACC_WORDS];
  if ((int64_t)*count <= cap) return;
  const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
  const int64_t warp = (int64_t)blockIdx.x * kRepairWarps + wib, warps = (int64_t)gridDim.x * kRepairWarps;
  for (int64_t w = warp; w < words; w += warps) {
    unsigned bits = mask[w];
    while (bits) {
      const int b = __ffs(bits) - 1;
      bits &= bits - 1;
      const int64_t x = w * 32 + b;
      if (!retry_entry(a, x % a.m, x / a.m, lane)) exact_entry(a, x % a.m, x / a.m, sacc[wib], lane);
    }
  }
}

// ---- the state ---------------------------------------------------------------------------------

__global__ void state_init_kernel(int64_t m, int64_t n, const double *C, int64_t offc, int64_t ldc, exstar_bdd *st,
                                  int64_t offst, int64_t ldst)
{
  for (int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; x < m * n; x += (int64_t)gridDim.x * blockDim.x) {
    const int64_t i = x % m, j = x / m;
    exstar_bdd v;
    exstar_gemm_state_init(&v, C[offc + i + j * ldc]);
    st[offst + i + j * ldst] = v;
  }
}

__global__ void state_round_kernel(int64_t m, int64_t n, const exstar_bdd *st, int64_t offst, int64_t ldst, double *C,
                                   int64_t offc, int64_t ldc, unsigned char *mask, unsigned long long *declined)
{
  unsigned long long mine = 0;
  for (int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; x < m * n; x += (int64_t)gridDim.x * blockDim.x) {
    const int64_t i = x % m, j = x / m;
    const exstar_bdd v = st[offst + i + j * ldst];
    double y;
    const int ok = exstar_bdd_round_ok(&v, &y);
    if (ok) C[offc + i + j * ldc] = y;
    if (mask) mask[x] = (unsigned char)!ok;
    mine += !ok;
  }
  mine = __reduce_add_sync(kFull, (unsigned)mine);
  if (declined && (threadIdx.x & 31) == 0 && mine) atomicAdd(declined, mine);
}

} // namespace

extern "C" int exstar_cuda_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                 const double *A, int64_t offa, int64_t lda, const double *B, int64_t offb,
                                 int64_t ldb, double beta, double *C, int64_t offc, int64_t ldc, int exact_only,
                                 unsigned long long *repaired, exstar_cuda_stream stream)
{
  if (m <= 0 || n <= 0) return 0;
  if (k < 0) return -(int)cudaErrorInvalidValue;
  cudaStream_t s = (cudaStream_t)stream;
  const opview a = make_op(transa, A, offa, lda), b = make_op(transb, B, offb, ldb);
  repair_args ra{m, n, k, alpha, beta, a, b, C, offc, ldc, repaired};
  if (exact_only || k == 0) { // every entry the exact way
    exact_kernel<<<grid_cap(cdiv(m * n, kRepairWarps), 8192), 32 * kRepairWarps, 0, s>>>(ra, nullptr, nullptr, 1);
    return status(cudaGetLastError());
  }
  // scratch: two counts, the list and the retry's list (capacity m*n up to 2^21 entries each),
  // the mask beyond it, the codes
  const int64_t mn = m * n, cap = mn < (1 << 21) ? mn : (1 << 21);
  const int64_t words = mn > cap ? cdiv(mn, 32) : 0;
  const size_t bytes_list = sizeof(int64_t) * (size_t)cap, bytes_mask = sizeof(unsigned) * (size_t)words;
  const size_t bytes = 16 + 2 * bytes_list + bytes_mask + sizeof(int) * (size_t)(m + n);
  char *scratch = nullptr;
  cudaError_t ce = cudaMallocAsync((void **)&scratch, bytes, s);
  if (ce != cudaSuccess) return status(ce);
  unsigned long long *count = (unsigned long long *)scratch, *count2 = count + 1;
  int64_t *list = (int64_t *)(scratch + 16), *list2 = list + cap;
  unsigned *mask = words ? (unsigned *)(scratch + 16 + 2 * bytes_list) : nullptr;
  int *ex = (int *)(scratch + 16 + 2 * bytes_list + bytes_mask);
  int st = status(cudaMemsetAsync(count, 0, 16, s));
  if (st == 0 && mask) st = status(cudaMemsetAsync(mask, 0, bytes_mask, s));
  if (st == 0) st = line_exps(a, m, k, ex, s);
  if (st == 0) st = line_exps(opview{b.p, b.off, b.cs, b.rs}, n, k, ex + m, s);
  epilogue e{};
  e.alpha = alpha, e.beta = beta, e.C = C, e.offc = offc, e.ldc = ldc, e.count = count, e.list = list, e.cap = cap,
  e.mask = mask;
  if (st == 0 && crt_wanted(GEMM, m, n, k, s)) st = crt_products(GEMM, m, n, k, a, b, ex, ex + m, e, s);
  else if (st == 0) st = kCrtNoMemory;
  if (st == kCrtNoMemory) st = launch_fast<GEMM>(m, n, k, a, b, ex, e, s);
  // grids for a typical decline rate; grid-stride beyond (the counts are on the device)
  if (st == 0) {
    retry_kernel<<<grid_cap(cdiv(cap, 8), 2048), 256, 0, s>>>(ra, list, count, cap, list2, count2);
    st = status(cudaGetLastError());
  }
  if (st == 0) {
    exact_kernel<<<grid_cap(cdiv(cap, kRepairWarps), 1024), 32 * kRepairWarps, 0, s>>>(ra, list2, count2, 0);
    st = status(cudaGetLastError());
  }
  if (st == 0 && mask) {
    repair_mask_kernel<<<grid_cap(cdiv(words, kRepairWarps), 2048), 32 * kRepairWarps, 0, s>>>(ra, mask, words, count, cap);
    st = status(cudaGetLastError());
  }
  cudaFreeAsync(scratch, s);
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
  if (r == 0 && crt_wanted(STATE, m, n, k, s)) r = crt_products(STATE, m, n, k, a, b, ex, ex + m, e, s);
  else if (r == 0) r = kCrtNoMemory;
  if (r == kCrtNoMemory) r = launch_fast<STATE>(m, n, k, a, b, ex, e, s);
  if (ex) cudaFreeAsync(ex, s);
  return r;
}

extern "C" int exstar_cuda_gemm_state_init(int64_t m, int64_t n, const double *C, int64_t offc, int64_t ldc, void *st,
                                           int64_t offst, int64_t ldst, exstar_cuda_stream stream)
{
  if (m <= 0 || n <= 0) return 0;
  state_init_kernel<<<grid_cap(cdiv(m * n, 256), 8192), 256, 0, (cudaStream_t)stream>>>(m, n, C, offc, ldc,
                                                                                     (exstar_bdd *)st, offst, ldst);
  return status(cudaGetLastError());
}

extern "C" int exstar_cuda_gemm_state_round(int64_t m, int64_t n, const void *st, int64_t offst, int64_t ldst,
                                            double *C, int64_t offc, int64_t ldc, unsigned char *mask,
                                            unsigned long long *declined, exstar_cuda_stream stream)
{
  if (m <= 0 || n <= 0) return 0;
  state_round_kernel<<<grid_cap(cdiv(m * n, 256), 8192), 256, 0, (cudaStream_t)stream>>>(
      m, n, (const exstar_bdd *)st, offst, ldst, C, offc, ldc, mask, declined);
  return status(cudaGetLastError());
}
