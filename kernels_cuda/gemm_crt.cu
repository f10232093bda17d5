// The exact gemm's fast path on the tensor cores (core/crt.h): each row of op(A) and column of
// op(B) becomes W-bit integers under its power of two, their int8 residues modulo the
// EXSTAR_CRT_COUNT moduli go through cuBLAS's int8 GEMMs with int32 sums (exact, in any order:
// integers), and each entry's integer product is rebuilt from its residues (CRT) into a bounded
// double-double with the truncation's bound E. The entry then takes the same checked rounding
// as the FP64 kernel's (exstar_bdd_finish, or the state's addition), and what it declines goes
// to the same repair list: the path never shows in the bits.
//
//   1. residues_kernel: a 32-line x 64-term tile of op(X) through shared memory (coalesced reads
//      whatever the transpose), then each thread splits 8 terms of a line (exstar_crt_split) and
//      writes their residues as 8 bytes a modulus, k contiguous (kp: k padded to 64 with zeros).
//   2. cublasGemmStridedBatchedEx, int8 x int8 -> int32, one batch entry a modulus: op(A)'s
//      residues as the transpose of a k-major array, op(B)'s as a k-major one (the TN layout of
//      the int8 tensor-core kernels).
//   3. finish_kernel: a thread an entry, its residues' sums from the EXSTAR_CRT_COUNT planes
//      (coalesced along i), the reconstruction, then the checked rounding or the state.
// Large products go by chunks of C (row and column blocks) so that the scratch stays near
// 3 GiB; scratch is stream-ordered (from exstar's own pool: scratch_pool), no host synchronization.
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <stdlib.h>
#include <atomic>
#include <mutex>
#include <vector>
#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"
#include "core/gemm.h"
#include "core/crt.h"
#include "kernels_cuda/gemm_internal.cuh"

namespace exstar_cuda_l3 {
namespace {

constexpr int kLines = 32, kTerms = 64, kPad = 64;
constexpr int64_t P = EXSTAR_CRT_COUNT;

int status(cudaError_t e) { return e == cudaSuccess ? 0 : -(int)e; }
int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Residues of lines [line0, line0 + count) of op(X) (line r: X(r, l), l < k) into
// out[p*plane + (r - line0)*kp + l], codes ex[r]. LC: lines contiguous (X.rs == 1).
template <bool LC>
__global__ void __launch_bounds__(256) residues_kernel(opview X, int64_t line0, int64_t count, int64_t k, int64_t kp,
                                                       const int *ex, int w, int8_t *out, int64_t plane)
{
  __shared__ double tile[kLines][kTerms + 1];
  const int t = threadIdx.x;
  const int64_t r0 = (int64_t)blockIdx.x * kLines, l0 = (int64_t)blockIdx.y * kTerms;
#pragma unroll
  for (int q = 0; q < kLines * kTerms / 256; ++q) {
    const int e = t + q * 256;
    const int line = LC ? e % kLines : e / kTerms, term = LC ? e / kLines : e % kTerms;
    const int64_t r = r0 + line, l = l0 + term;
    tile[line][term] = r < count && l < k ? X.p[X.off + (line0 + r) * X.rs + l * X.cs] : 0.0;
  }
  __syncthreads();
  const int line = t / 8, seg = (t % 8) * 8;
  const int64_t r = r0 + line;
  if (r >= count) return;
  const int e = ex[line0 + r];
  exstar_crt_int v[8];
#pragma unroll
  for (int q = 0; q < 8; ++q) v[q] = exstar_crt_split(tile[line][seg + q], e, w);
  int8_t *o = out + r * kp + l0 + seg;
  int64_t po = 0;
#define EXSTAR_CRT_RESIDUES(p, inv, c0, c1, c2, m0, m1, m2, m3, m4, m5, m6)                                     \
  {                                                                                                             \
    unsigned long long packed = 0;                                                                              \
    _Pragma("unroll") for (int q = 0; q < 8; ++q) packed |=                                                     \
        (unsigned long long)(unsigned char)(signed char)exstar_crt_residue(v[q], p, c0, c1, c2) << (8 * q);     \
    *(unsigned long long *)(o + po) = packed;                                                                   \
    po += plane;                                                                                                \
  }
  EXSTAR_CRT_MODULI(EXSTAR_CRT_RESIDUES)
#undef EXSTAR_CRT_RESIDUES
}

// Entry (i0 + i, j0 + j) of the product from the int32 sums c[p*plane + i + j*mc].
template <int MODE>
__global__ void __launch_bounds__(256) finish_kernel(int64_t mc, int64_t nc, int64_t i0, int64_t j0, int64_t m,
                                                     int64_t k, int w, const int32_t *c, int64_t plane,
                                                     const int *ea, const int *eb, epilogue ep)
{
  for (int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; x < mc * nc; x += (int64_t)gridDim.x * blockDim.x) {
    const int64_t i = x % mc, j = x / mc, gi = i0 + i, gj = j0 + j;
    const int ei = ea[gi], ej = eb[gj];
    const int kind = exstar_crt_entry_kind(ei, ej, w, k);
    exstar_bdd d;
    d.hi = 0.0, d.lo = 0.0, d.err = 0.0, d.mag = 0.0;
    if (kind == EXSTAR_CRT_PRODUCT) {
      exstar_crt_sum s;
      exstar_crt_sum_init(&s);
      const int32_t *cp = c + x;
#define EXSTAR_CRT_ADD(p, inv, c0, c1, c2, m0, m1, m2, m3, m4, m5, m6)                                          \
  exstar_crt_sum_add(&s, *cp, p, inv, m0, m1, m2, m3, m4, m5, m6);                                              \
  cp += plane;
      EXSTAR_CRT_MODULI(EXSTAR_CRT_ADD)
#undef EXSTAR_CRT_ADD
      exstar_crt_sum_to_bdd(&s, ei + ej - 2 * w, &d);
      d.err = exstar_crt_bound(k, ei, ej, w);
    }
    if (MODE == GEMM) {
      double y = 0.0;
      double *cout = ep.C + ep.offc + gi + gj * ep.ldc;
      const double cin = ep.beta != 0.0 ? *cout : 0.0;
      const bool done = kind != EXSTAR_CRT_DECLINE && exstar_bdd_finish(&d, ep.alpha, ep.beta, cin, &y);
      if (done) *cout = y;
      else decline(ep, gi + gj * m);
    } else if (kind != EXSTAR_CRT_ZERO) {
      exstar_bdd *sp = ep.st + ep.offst + gi + gj * ep.ldst;
      exstar_bdd v = *sp;
      if (kind == EXSTAR_CRT_PRODUCT) {
        exstar_bdd_add_pair(&v, ep.sign * d.hi, ep.sign * d.lo);
        v.mag += d.mag;
        v.err += d.err;
      } else {
        v.hi = __longlong_as_double(0x7ff8000000000000ll); // the state's rounding declines
      }
      *sp = v;
    }
  }
}

// One cuBLAS handle a stream (of the calling thread's device): a handle's workspace must not be
// shared by kernels that run at once, and StarPU runs several tasks a device, each on a stream
// of its own (the LU's chain on high-priority ones). A handle is bound to its stream once.
int blas_handle(cudaStream_t s, cublasHandle_t *h)
{
  struct bound {
    int dev;
    cudaStream_t s;
    cublasHandle_t h;
  };
  thread_local std::vector<bound> handles;
  int dev = 0;
  cudaError_t ce = cudaGetDevice(&dev);
  if (ce != cudaSuccess) return status(ce);
  for (const bound &b : handles)
    if (b.dev == dev && b.s == s) return *h = b.h, 0;
  cublasHandle_t nh;
  if (cublasCreate(&nh) != CUBLAS_STATUS_SUCCESS) return -(int)cudaErrorInitializationError;
  if (cublasSetStream(nh, s) != CUBLAS_STATUS_SUCCESS) return cublasDestroy(nh), -(int)cudaErrorInitializationError;
  handles.push_back({dev, s, nh});
  *h = nh;
  return 0;
}

int residues(const opview &X, int64_t line0, int64_t count, int64_t k, int64_t kp, const int *ex, int w, int8_t *out,
             cudaStream_t s)
{
  const dim3 grid((unsigned)cdiv(count, kLines), (unsigned)(kp / kTerms));
  if (X.rs == 1 && X.cs != 1) residues_kernel<true><<<grid, 256, 0, s>>>(X, line0, count, k, kp, ex, w, out, count * kp);
  else residues_kernel<false><<<grid, 256, 0, s>>>(X, line0, count, k, kp, ex, w, out, count * kp);
  return status(cudaGetLastError());
}

int int8_products(cublasHandle_t h, int64_t mc, int64_t nc, int64_t kp, const int8_t *ra, const int8_t *rb, int32_t *c)
{
  const int32_t one = 1, zero = 0;
  const cublasStatus_t st = cublasGemmStridedBatchedEx(
      h, CUBLAS_OP_T, CUBLAS_OP_N, (int)mc, (int)nc, (int)kp, &one, ra, CUDA_R_8I, (int)kp, mc * kp, rb, CUDA_R_8I,
      (int)kp, nc * kp, &zero, c, CUDA_R_32I, (int)mc, mc * nc, (int)P, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : -(int)cudaErrorLaunchFailure;
}

// Rows (or columns) a chunk: residues of at most 1 GiB an operand (EXSTAR_CUDA_CRT_CHUNK: that
// many lines, for the tests of the chunks' seams).
int64_t chunk(int64_t lines, int64_t kp)
{
  const char *v = getenv("EXSTAR_CUDA_CRT_CHUNK");
  int64_t c = v && atoll(v) > 0 ? atoll(v) : ((int64_t)1 << 30) / (P * kp);
  if (!(v && atoll(v) > 0)) c = c < 128 ? 128 : c / 128 * 128;
  return lines < c ? lines : c;
}

} // namespace

// The scratch's own memory pool a device, which keeps up to 3 GiB (EXSTAR_CUDA_POOL_KEEP_GB, for
// measurements) mapped between products:
// the default pool gives its memory back at every stream synchronization (StarPU's, after each
// task), so that each product would map its ~1 GiB of scratch again.
int scratch_pool(cudaMemPool_t *pool)
{
  static std::mutex lock;
  static cudaMemPool_t pools[64] = {};
  int dev = 0;
  cudaError_t ce = cudaGetDevice(&dev);
  if (ce != cudaSuccess || dev >= 64) return ce != cudaSuccess ? status(ce) : -(int)cudaErrorInvalidDevice;
  std::lock_guard<std::mutex> g(lock);
  if (!pools[dev]) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    ce = cudaMemPoolCreate(&pools[dev], &props);
    if (ce != cudaSuccess) return pools[dev] = nullptr, status(ce);
    const char *kg = getenv("EXSTAR_CUDA_POOL_KEEP_GB");
    uint64_t keep = (uint64_t)(kg && atoi(kg) > 0 ? atoi(kg) : 3) << 30;
    cudaMemPoolSetAttribute(pools[dev], cudaMemPoolAttrReleaseThreshold, &keep);
    // No reuse that makes one stream wait for another's free: StarPU runs several tasks a
    // device on streams of their own (the LU's chain on high-priority ones), and a product must
    // not wait behind an unrelated one for its scratch.
    int no = 0;
    cudaMemPoolSetAttribute(pools[dev], cudaMemPoolReuseAllowInternalDependencies, &no);
  }
  *pool = pools[dev];
  return 0;
}

static std::atomic<int> state_integer_path{0};

bool crt_wanted(int md, int64_t m, int64_t n, int64_t k, cudaStream_t s)
{
  if (k < 1 || k > EXSTAR_CRT_MAX_K) return false;
  const char *v = getenv("EXSTAR_CUDA_GEMM_CRT");
  if (v && v[0] == '0') return false;
  if (v && v[0] == '1') return true;
  if (v && v[0] == '2' && md == STATE) { // the state updates off the critical path (default-priority streams)
    int prio = 0;
    return cudaStreamGetPriority(s, &prio) == cudaSuccess && prio >= 0 && m >= 512 && n >= 256;
  }
  // unset: products whose int8 GEMMs fill the GPU, the states' when exstar_cuda_set_state_integer_path
  if (md == STATE) return state_integer_path.load() && k >= 256 && m >= 512 && n >= 256;
  return k >= 256 && m >= 512 && n >= 512;
}

int crt_products(int md, int64_t m, int64_t n, int64_t k, const opview &A, const opview &B, const int *ea,
                 const int *eb, const epilogue &ep, cudaStream_t s)
{
  // without a cuBLAS handle or a pool (a device or driver without them), the FP64 kernel
  cublasHandle_t h;
  cudaMemPool_t pool;
  if (blas_handle(s, &h) || scratch_pool(&pool)) {
    (void)cudaGetLastError();
    return kCrtNoMemory;
  }
  int r = 0;
  const int w = exstar_crt_width(k);
  const int64_t kp = cdiv(k, kPad) * kPad, mc = chunk(m, kp), nc = chunk(n, kp);
  const opview Bt{B.p, B.off, B.cs, B.rs}; // op(B)'s columns as lines
  const size_t bytes_a = (size_t)(P * mc * kp), bytes_b = (size_t)(P * nc * kp);
  char *scratch = nullptr;
  cudaError_t ce =
      cudaMallocFromPoolAsync((void **)&scratch, bytes_a + bytes_b + sizeof(int32_t) * (size_t)(P * mc * nc), pool, s);
  if (ce == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    return kCrtNoMemory; // the caller takes the FP64 kernel: the same bits, no scratch
  }
  if (ce != cudaSuccess) return status(ce);
  int8_t *ra = (int8_t *)scratch, *rb = ra + bytes_a;
  int32_t *c = (int32_t *)(scratch + bytes_a + bytes_b);
  for (int64_t i0 = 0; i0 < m && r == 0; i0 += mc) {
    const int64_t mi = m - i0 < mc ? m - i0 : mc;
    r = residues(A, i0, mi, k, kp, ea, w, ra, s);
    for (int64_t j0 = 0; j0 < n && r == 0; j0 += nc) {
      const int64_t nj = n - j0 < nc ? n - j0 : nc;
      r = residues(Bt, j0, nj, k, kp, eb, w, rb, s);
      if (r == 0) r = int8_products(h, mi, nj, kp, ra, rb, c);
      if (r == 0) {
        const int64_t blocks = cdiv(mi * nj, 256);
        const unsigned grid = (unsigned)(blocks < 8192 ? blocks : 8192);
        if (md == GEMM) finish_kernel<GEMM><<<grid, 256, 0, s>>>(mi, nj, i0, j0, m, k, w, c, mi * nj, ea, eb, ep);
        else finish_kernel<STATE><<<grid, 256, 0, s>>>(mi, nj, i0, j0, m, k, w, c, mi * nj, ea, eb, ep);
        r = status(cudaGetLastError());
      }
    }
  }
  cudaFreeAsync(scratch, s);
  return r;
}

} // namespace exstar_cuda_l3

extern "C" void exstar_cuda_set_state_integer_path(int on) { exstar_cuda_l3::state_integer_path.store(on != 0); }
