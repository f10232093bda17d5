// Substitution by groups on the GPU: a block (or a warp) a vector, its unknowns group after
// group (substitution by a warp, then the group's terms into the unknowns below by the fast sums,
// by the whole block); or, for many short vectors, a thread a vector (subst_lanes_kernel). Written once for the tiled LU's block rows of U (lu_urow.cu: unit lower
// L(K, K), a vector a column of U) and the tiled Cholesky's tiles below the diagonal
// (potrf_panel.cu: the diagonal tile's L, a vector a row of the tile, each unknown divided by
// its diagonal entry). Included after lu_tiled_common.cuh.
//
// A context C gives, for unknowns i in [c0, r1) of vector j in [j0, j0 + number of vectors):
//   double &a(i, j)           the entry (its input until it is written, then the result)
//   double l(i, k)            the factor's row i, column k < i (group columns only)
//   double finish(i, y)       the unknown from its rounded sum (the LU: y; Cholesky: y / l(i, i))
//   exstar_bdd state(i, j)    the entry's state (every term left of the block column in it)
//   double exact(wacc, i, j, kend)   RN of the exact sum of the entry's terms k < kend
//   S (global scratch for vectors too tall for shared memory, NULL: shared), lds, c0, j0,
//   ea (ea[(i − c0) + g·lds]: the exponent code of row i of the factor over group g's columns),
//   exact_only.
#ifndef EXSTAR_KERNELS_CUDA_SUBST_GROUPS_CUH
#define EXSTAR_KERNELS_CUDA_SUBST_GROUPS_CUH
#include "kernels_cuda/lu_tiled_common.cuh"

namespace {

// The fields every context has: the factor L (its row and column c0 first), the entries' states
// (read only), the global copy of them and the exponent table (subst_launch sets both), the first
// unknown c0 and the first vector j0. A context adds the entries, a(), finish(), state() and
// exact().
struct subst_fields {
  dgrid g;
  const double *L;
  int64_t ldl;
  const exstar_bdd *st;
  int64_t ldst;
  exstar_bdd *S;
  int64_t lds, c0, j0;
  const int *ea;
  int exact_only;
  unsigned long long *rep;
  __device__ double l(int64_t i, int64_t k) const { return L[(i - c0) + (k - c0) * ldl]; }
};

// The group [g0, g0 + nr) of vector j (its states in col, unknown i at col[i − c0]): the first
// warp substitutes, its lanes 0..15 holding the group's unknowns (bounded double-doubles in
// registers, every earlier term already in the states); values to ut, the largest exponent of
// the group's values to *seb.
template <class C>
__device__ void subst_group(const C &c, exstar_bdd *col, exstar_i64 *acc, int64_t j, int64_t g0, int nr, double *ut,
                            int *seb)
{
  const int lane = threadIdx.x & 31;
  const int64_t i = g0 + lane;
  const bool mine = lane < nr;
  exstar_bdd d{0.0, 0.0, 0.0, 0.0};
  double lrow[kGroup]; // the lane's row of the factor in the group, loaded together
#pragma unroll
  for (int t = 0; t < kGroup; ++t) lrow[t] = mine && t < lane ? c.l(i, g0 + t) : 0.0;
  if (mine) d = col[i - c.c0];
  int eb = EXSTAR_GEMM_EXP_ZERO;
#pragma unroll
  for (int t = 0; t < kGroup; ++t) {
    if (t < nr) {
      double y = 0.0;
      bool want = false;
      if (lane == t) want = c.exact_only || !exstar_bdd_round_ok(&d, &y);
      exact_where(c, acc, want, i, j, i, y);
      if (lane == t) y = c.finish(i, y), c.a(i, j) = y, ut[t] = y;
      y = __shfl_sync(0xffffffffu, y, t);
      __syncwarp(); // the value in memory too, for the exact path of the unknowns below
      eb = exstar_line_exp_step(eb, y);
      if (mine && lane > t && !exstar_bdd_add_product(&d, -lrow[t], y))
        d.hi = exstar_from_bits(EXSTAR_U64(0x7ff8000000000000));
    }
  }
  if (lane == 0) *seb = eb;
}

// Unknown ib of vector j takes the terms of the group [g0, g0 + nr) (values in ut, their largest
// exponent eb) through the fast sums (core/gemm.h: a split constant per entry from its row's and
// its vector's largest factors; the row's comes from the table, the same for every vector).
template <class C>
__device__ inline void subst_take_group(const C &c, exstar_bdd *col, int64_t ib, int64_t g0, int nr, const double *ut,
                                        int eb)
{
  const int ea = c.ea[(ib - c.c0) + ((g0 - c.c0) / kGroup) * c.lds];
  const double sigma = exstar_gemm_sigma(ea, eb, exstar_gemm_count_exp(nr));
  double S = exstar_gemm_run_begin(0.0, sigma), R = 0.0;
#pragma unroll
  for (int t = 0; t < kGroup; ++t)
    if (t < nr) exstar_gemm_term(c.l(ib, g0 + t), ut[t], &S, &R);
  exstar_gemm_state_add(&col[ib - c.c0], exstar_gemm_run_end(S, sigma), R, exstar_gemm_bound(nr, sigma), -1.0);
}

// The exponent codes of C::ea: a thread a (row, group) of the r x r factor L (column-major).
__global__ void subst_exps_kernel(const double *L, int64_t ldl, int64_t r, int *ea)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= r * ((r + kGroup - 1) / kGroup)) return;
  const int64_t i = x % r, g0 = (x / r) * kGroup, nr = min64(kGroup, r - g0);
  int e = EXSTAR_GEMM_EXP_ZERO;
  for (int64_t t = 0; t < nr; ++t) e = exstar_line_exp_step(e, L[i + (g0 + t) * ldl]);
  ea[x] = e;
}

// C::S := the states of every vector (for vectors too tall for shared memory): a thread an entry.
template <class C>
__global__ void subst_states_kernel(C c, int64_t r, int64_t nv)
{
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= r * nv) return;
  const int64_t i = x % r, v = x / r;
  c.S[i + v * c.lds] = c.state(c.c0 + i, c.j0 + v);
}

// All vectors in one launch, a block of 128 threads a vector, group after group, pipelined:
// while the first warp brings the next group's unknowns up to date and substitutes them, the
// other warps take the current group's terms into the unknowns below the next group (the
// substitution alone had three warps waiting at the barrier: a third of the cycles, 25%
// occupancy). 128 registers at most: four blocks an SM run a tile's 512 vectors in one wave (168
// registers made two waves: +50% at every step). The vector's states stay in shared memory (16 KB
// at nb = 512) from the first group to the last; in global scratch (c.S) when too tall for it
// (every group's updates then go through memory: ~0.5 GB a 512² tile). A warp alone
// (subst_launch's threads 32) takes MinBlocks = 2: up to 255 registers, no spills.
template <class C, int MinBlocks = 4>
__global__ void __launch_bounds__(128, MinBlocks) subst_kernel(C c, int64_t r1)
{
  __shared__ exstar_i64 acc[EXSTAR_ACC_WORDS];
  __shared__ double ut[2][kGroup];
  __shared__ int seb[2];
  extern __shared__ __align__(16) exstar_bdd scol[];
  const int64_t j = c.j0 + blockIdx.x;
  exstar_bdd *col = c.S ? c.S + (j - c.j0) * c.lds : scol;
  if (!c.S)
    for (int64_t i = threadIdx.x; i < r1 - c.c0; i += blockDim.x) scol[i] = c.state(c.c0 + i, j);
  __syncthreads();
  if (threadIdx.x < 32) subst_group(c, col, acc, j, c.c0, (int)min64(kGroup, r1 - c.c0), ut[0], &seb[0]);
  __syncthreads();
  int cur = 0;
  for (int64_t g0 = c.c0; g0 < r1; g0 += kGroup, cur ^= 1) {
    const int nr = (int)min64(kGroup, r1 - g0);
    const int64_t n0 = g0 + nr; // the next group
    if (threadIdx.x < 32) {
      if (n0 < r1) {
        const int64_t ib = n0 + threadIdx.x;
        if (ib < min64(r1, n0 + kGroup)) subst_take_group(c, col, ib, g0, nr, ut[cur], seb[cur]);
        __syncwarp(); // the next group's states in memory
        subst_group(c, col, acc, j, n0, (int)min64(kGroup, r1 - n0), ut[cur ^ 1], &seb[cur ^ 1]);
      }
      if (blockDim.x == 32) // a warp alone: it takes the group's terms into the unknowns below too
        for (int64_t ib = n0 + kGroup + threadIdx.x; ib < r1; ib += 32)
          subst_take_group(c, col, ib, g0, nr, ut[cur], seb[cur]);
    } else {
      for (int64_t ib = n0 + kGroup + (threadIdx.x - 32); ib < r1; ib += blockDim.x - 32)
        subst_take_group(c, col, ib, g0, nr, ut[cur], seb[cur]);
    }
    __syncthreads(); // the next group's values and every state below it, before the group after
  }
}

// ---- A thread a vector (subst_launch's threads = 1) ----
// For many short substitutions (the Cholesky's rows below its diagonal tile: thousands of rows of
// a 128-unknown chunk), where a warp a vector needs several waves of the GPU: lanes take vectors,
// so every vector of the launch runs at once and nothing is exchanged between lanes but the exact
// path's. Left-looking: unknown i starts from its state (every term left of the chunk in it),
// takes each earlier full group's terms by the fast sums (core/gemm.h: the split constant from the
// factor row's code for the group, c.ea, and the vector's for the group's values, as
// subst_take_group), then its own group's earlier unknowns as exact products into the bounded
// double-double (as subst_group); rounded when the bound proves it, else exactly (exact_where: the
// warp's lanes in turn). The chunk's values of the warp's vectors stay in shared memory.
constexpr int kLaneUnknowns = 128;                   // the most unknowns a launch of subst_lanes_kernel
constexpr int kLaneGroups = kLaneUnknowns / kGroup;
// Its dynamic shared memory: the values yv[kLaneUnknowns][32] (unknown i of the lane's vector at
// yv[i − c0][lane]), then the current group's rows of the factor, Lg[kGroup][kLaneUnknowns] (its
// row t, column k at Lg[t][k − c0]: every factor read of the group a broadcast from shared memory).
constexpr size_t kLaneSmem = (size_t)(kLaneUnknowns * 32 + kGroup * kLaneUnknowns) * sizeof(double);

// The terms of the groups [h, h + G) of the lane's vector into d, the fast sums of
// subst_take_group: Lrow the unknown's row of the factor (from the chunk's first column), ea its
// codes over the groups, eb the lane's values' codes.
template <int G>
__device__ __forceinline__ void lane_group_terms(exstar_bdd &d, const double *Lrow, const double (*yv)[32],
                                                 const int *ea, const int (*eb)[32], int h, int lane)
{
  double S[G], R[G], sg[G];
#pragma unroll
  for (int q = 0; q < G; ++q) {
    sg[q] = exstar_gemm_sigma(ea[h + q], eb[h + q][lane], exstar_gemm_count_exp(kGroup));
    S[q] = exstar_gemm_run_begin(0.0, sg[q]), R[q] = 0.0;
  }
#pragma unroll
  for (int u = 0; u < kGroup; ++u)
#pragma unroll
    for (int q = 0; q < G; ++q) {
      const int k = (h + q) * kGroup + u;
      exstar_gemm_term(Lrow[k], yv[k][lane], &S[q], &R[q]);
    }
#pragma unroll
  for (int q = 0; q < G; ++q)
    exstar_gemm_state_add(&d, exstar_gemm_run_end(S[q], sg[q]), R[q], exstar_gemm_bound(kGroup, sg[q]), -1.0);
}

template <class C>
__global__ void __launch_bounds__(32) subst_lanes_kernel(C c, int64_t r1, int64_t nv)
{
  __shared__ exstar_i64 acc[EXSTAR_ACC_WORDS];
  __shared__ int eb[kLaneGroups][32];       // the code of the lane's values in each group
  __shared__ int eag[kGroup][kLaneGroups];  // the codes of the group's factor rows over each group
  extern __shared__ __align__(16) double lanes_smem[];
  double(*yv)[32] = reinterpret_cast<double(*)[32]>(lanes_smem);
  double(*Lg)[kLaneUnknowns] = reinterpret_cast<double(*)[kLaneUnknowns]>(lanes_smem + kLaneUnknowns * 32);
  const int lane = threadIdx.x;
  const int64_t v = (int64_t)blockIdx.x * 32 + lane;
  const bool mine = v < nv;
  const int64_t j = c.j0 + (mine ? v : 0); // a lane past the end shadows vector 0, writes nothing
  for (int64_t g0 = c.c0; g0 < r1; g0 += kGroup) {
    const int nr = (int)min64(kGroup, r1 - g0), gi = (int)((g0 - c.c0) / kGroup);
    const int w = (int)(g0 + nr - c.c0);
    __syncwarp(); // the previous group's reads of Lg done
    for (int x = lane; x < nr * w; x += 32) { // 32-bit index arithmetic: a 64-bit division is a long call
      const int t = x % nr, k = x / nr;
      Lg[t][k] = c.l(g0 + t, c.c0 + k);
    }
    for (int x = lane; x < nr * gi; x += 32) eag[x % nr][x / nr] = c.ea[(g0 + x % nr - c.c0) + (int64_t)(x / nr) * c.lds];
    __syncwarp();
    int e = EXSTAR_GEMM_EXP_ZERO;
    exstar_bdd dn = c.state(g0, j); // the next unknown's state, loaded one unknown ahead
    for (int t = 0; t < nr; ++t) {
      const int64_t i = g0 + t;
      exstar_bdd d = dn;
      if (t + 1 < nr) dn = c.state(i + 1, j);
      // the earlier groups two at a time (two independent chains; a loop unrolled over every
      // possible group issued all of them, predicated off: ~1000 instructions an unknown)
      int h = 0;
      for (; h + 1 < gi; h += 2) lane_group_terms<2>(d, Lg[t], yv, eag[t], eb, h, lane);
      if (h < gi) lane_group_terms<1>(d, Lg[t], yv, eag[t], eb, h, lane);
      int ok = 1;
      const int k0 = gi * kGroup;
      for (int u = 0; u < t; ++u) ok &= exstar_bdd_add_product(&d, -Lg[t][k0 + u], yv[k0 + u][lane]);
      double y = 0.0;
      const bool want = mine && (c.exact_only || !ok || !exstar_bdd_round_ok(&d, &y));
      exact_where(c, acc, want, i, j, i, y);
      if (mine) y = c.finish(i, y), c.a(i, j) = y;
      yv[i - c.c0][lane] = y;
      e = exstar_line_exp_step(e, y);
      __syncwarp(); // the values in memory, for the exact path of the unknowns after
    }
    eb[gi][lane] = e;
  }
}

// The r unknowns of nv vectors (c's factor L with leading dimension ldl): the exponent table and,
// when a vector's states do not fit the default 48 KB of shared memory a block beside the
// kernel's own (subst_kernel declares 1.9 KB, sm_90; 4 KB kept for it: r > 1408), their copy in
// global scratch, then the launch; scratch from sc (its extra bytes, sized by
// subst_scratch_bytes). (Until 2026-11-29 the states alone were measured against 48 KB, and a
// Cholesky tile of 1536 failed to launch: "invalid argument".) EXSTAR_CUDA_UROW_GLOBAL=1 takes
// the global scratch always (the test of that path).
constexpr size_t kSubstSharedStates = (48 - 4) * 1024;
inline bool subst_in_shared(int64_t r)
{
  return (size_t)r * sizeof(exstar_bdd) <= kSubstSharedStates && !std::getenv("EXSTAR_CUDA_UROW_GLOBAL");
}
inline size_t subst_ea_bytes(int64_t r)
{
  return ((size_t)(r * ((r + kGroup - 1) / kGroup)) * sizeof(int) + 255) / 256 * 256;
}
inline size_t subst_scratch_bytes(int64_t r, int64_t nv)
{
  return subst_ea_bytes(r) + (subst_in_shared(r) ? 0 : (size_t)(r * nv) * sizeof(exstar_bdd));
}
// The value of the environment variable `name` when in [lo, hi], else fallback (the chunk widths
// and threads a vector of the chunked substitutions, for measurements: no value changes a bit).
inline long subst_env(const char *name, long lo, long hi, long fallback)
{
  const char *e = std::getenv(name);
  const long v = e ? std::atol(e) : 0;
  return v >= lo && v <= hi ? v : fallback;
}

// A substitution by chunks (the Cholesky's rows below a diagonal tile, the LU's block rows of U):
// unknowns a chunk (chunk_var, 16..1024, default 128) and threads a vector (threads_var: 1, 32,
// 64 or 128, default dflt), read once.
struct subst_chunking {
  int64_t width;
  unsigned threads;
  subst_chunking(const char *chunk_var, const char *threads_var, unsigned dflt)
      : width(subst_env(chunk_var, 16, 1024, 128))
  {
    const unsigned t = (unsigned)subst_env(threads_var, 1, 128, dflt);
    threads = t < 32 ? 1 : t / 32 == 3 ? 64 : t / 32 * 32;
  }
};

// Whether nv vectors of at most kLaneUnknowns unknowns take a thread each rather than a warp each:
// when there are more than 32 an SM. On one H200 a 128-unknown chunk took ~0.2 ms a wave of
// warps (16 an SM), and 0.34-0.48 ms for 1024 to 14336 vectors on lanes (a few warps an SM,
// each unknown a serial chain of ~500 instructions): lanes win from about two waves of warps
// (2048 and 4224 vectors as the threshold gave the same Cholesky).
// EXSTAR_CUDA_SUBST_LANES_MIN sets the least nv, for measurements.
inline bool subst_on_lanes(int64_t r, int64_t nv)
{
  if (r > kLaneUnknowns) return false;
  static const char *const e = std::getenv("EXSTAR_CUDA_SUBST_LANES_MIN");
  static const long forced = e ? std::atol(e) : -1;
  if (forced >= 0) return nv >= forced;
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
    return false;
  return nv > 2 * 16 * (int64_t)sms;
}

// threads: 128 (a warp substitutes, three take the terms below), 64, 32 (one warp does both:
// for short vectors, where the substitution's chain is the time and 8 warps an SM run 8 chains
// instead of 4), or 1 (a thread a vector, subst_lanes_kernel, where subst_on_lanes; else a warp).
template <class C>
cudaError_t subst_launch(C c, const double *L, int64_t ldl, int64_t r, int64_t nv, char *extra, cudaStream_t stream,
                         unsigned threads = 128)
{
  const bool lanes = threads == 1 && subst_on_lanes(r, nv);
  const bool in_shared = lanes || subst_in_shared(r);
  const int64_t ne = r * ((r + kGroup - 1) / kGroup);
  c.ea = (const int *)extra, c.lds = r;
  c.S = in_shared ? nullptr : (exstar_bdd *)(extra + subst_ea_bytes(r));
  subst_exps_kernel<<<blocks_for(ne, 256), 256, 0, stream>>>(L, ldl, r, (int *)extra);
  if (lanes) {
    // above the default 48 KB a block; an attribute of the device's context, so set at every
    // launch (a driver call; a few launches a panel) rather than once a process
    const cudaError_t big =
        cudaFuncSetAttribute(subst_lanes_kernel<C>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kLaneSmem);
    if (big != cudaSuccess) return big;
    subst_lanes_kernel<<<blocks_for(nv, 32), 32, kLaneSmem, stream>>>(c, c.c0 + r, nv);
    return cudaGetLastError();
  }
  if (!in_shared) subst_states_kernel<<<blocks_for(r * nv, 256), 256, 0, stream>>>(c, r, nv);
  const unsigned bt = threads == 1 ? 32 : threads;
  const size_t smem = in_shared ? (size_t)r * sizeof(exstar_bdd) : 0;
  if (bt == 32) // a warp alone: registers up to 255 (204, no spills; at 128 it spilled 1.3 KB a
                 // thread), 8 warps an SM: the Cholesky 0.254 -> 0.250 s at n = 16384, the LU the same
    subst_kernel<C, 2><<<(unsigned)nv, bt, smem, stream>>>(c, c.c0 + r);
  else
    subst_kernel<C><<<(unsigned)nv, bt, smem, stream>>>(c, c.c0 + r);
  return cudaGetLastError();
}

} // namespace

#endif
