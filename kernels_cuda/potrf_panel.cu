// The tiled exact Cholesky's panel on the GPU (exstar_cuda_potrf_panel): the diagonal tile (its
// roots and the entries below them) and a tile below it. Definitions and bits:
// kernels_cpu/potrf_tiled.cpp (every accepted rounding is the correct one, so the GPU's
// right-looking order inside the tile gives the CPU kernel's bits).
//  - A tile below the diagonal: each of its rows is a substitution with the diagonal tile's L
//    (kernels_cuda/subst_groups.cuh, as the LU's block rows of U), each unknown divided by its
//    diagonal entry once its sum is rounded.
//  - The diagonal tile: group after group of kGroup columns, one block walks the group's columns
//    (the root: its state plus the group's own terms when the bound proves the root's rounding,
//    else the exact value of all its terms, by a warp, rounded by core/sqrt.h; the column below
//    it: each entry its state plus the group's own terms, checked or exact, divided), and the
//    group's terms enter the later columns' states (the diagonal's too) by the fast sums.
#include "kernels_cuda/subst_groups.cuh"
#include "kernels_cuda/potrf_tiled.h"
#include "kernels_cuda/gemm.h"
#include "core/sqrt.h"

namespace {

constexpr int kDiagThreads = 512; // the block that walks a group's columns

// The terms k < kend of rows r and j of L: left of the panel (its first column c0) from the
// column copies when the grid has them (the column shape) or the tiles, the panel's own from its
// tiles (its copy is written when it ends).
template <class Sink>
__device__ __forceinline__ int row_terms(Sink &sink, const dgrid &g, int64_t r, int64_t j, int64_t kend, int64_t c0,
                                         int t, int step)
{
  const int flags = grid_terms<true>(sink, g, r, j, min64(kend, c0), t, step);
  return flags | span_terms(sink, c0, kend, t, step, [&](int64_t k) { return g.at(r, k); },
                            [&](int64_t k) { return g.at(j, k); });
}

// RN(a(r, j) − Σ_{k<kend} l(r, k)·l(j, k)) by the whole warp (row_terms). retry and rep:
// exact_sum_warp's.
__device__ __noinline__ double exact_rows(exstar_i64 *wacc, const dgrid &g, double a, int64_t r, int64_t j,
                                          int64_t kend, int64_t c0, bool retry, unsigned long long *rep)
{
  return exact_sum_warp(wacc, a, retry, rep,
                        [&](auto &sink, int t, int step) { return row_terms(sink, g, r, j, kend, c0, t, step); });
}

// Tile (I, K) below the diagonal: an unknown i is a column of the panel, a vector j a row of the
// tile; the factor is the diagonal tile (K, K).
struct trsm_ctx : subst_fields { // L: tile (K, K); st: tile (I, K)'s states
  double *X;                      // tile (I, K)
  int64_t ldx;
  __device__ double &a(int64_t i, int64_t j) const { return X[(j - j0) + (i - c0) * ldx]; }
  __device__ double finish(int64_t i, double y) const { return y / L[(i - c0) * (1 + ldl)]; }
  __device__ exstar_bdd state(int64_t i, int64_t j) const { return st[(j - j0) + (i - c0) * ldst]; }
  __device__ double exact(exstar_i64 *wacc, int64_t i, int64_t j, int64_t kend) const
  {
    return exact_rows(wacc, g, a(i, j), j, i, kend, c0, !exact_only, rep);
  }
};

// The diagonal tile: columns [c0, c1) (w of them), the tile X in place, its states copied to S
// (w x w, leading dimension w; the diagonal's too: a root's value within its bound).
struct diag_ctx {
  dgrid g;
  double *X;
  int64_t ldx;
  exstar_bdd *S;
  int32_t *fail;
  int64_t c0, c1, w;
  int exact_only;
  unsigned long long *rep;
  __device__ double &x(int64_t i, int64_t j) const { return X[(i - c0) + (j - c0) * ldx]; }
  __device__ exstar_bdd &s(int64_t i, int64_t j) const { return S[(i - c0) + (j - c0) * w]; }
  __device__ double exact(exstar_i64 *wacc, int64_t i, int64_t j, int64_t kend) const
  {
    return exact_rows(wacc, g, x(i, j), i, j, kend, c0, !exact_only, rep);
  }
};

// l(j, j) by the first warp: RN(sqrt(a(j, j) − Σ_{k<j} l(j, k)²)) from the state (every term left
// of the group in it) plus the group's own terms when the bound proves the root's rounding
// (core/checked_round.h), else from the exact value of all its terms (core/sqrt.h). Every lane
// computes the same state, so the choice is the warp's.
__device__ double diag_root(const diag_ctx &c, exstar_i64 *acc, int64_t j, int64_t g0)
{
  exstar_bdd d = c.s(j, j);
  int ok = !c.exact_only;
  for (int64_t k = g0; k < j; ++k) ok &= exstar_bdd_add_product(&d, -c.x(j, k), c.x(j, k));
  double root = 0.0;
  if (ok && exstar_bdd_sqrt_ok(&d, &root)) return root;
  const dgrid &g = c.g;
  exact_acc_warp(acc, nullptr, true, c.x(j, j), [&](auto &sink, int t, int step) {
    return row_terms(sink, g, j, j, j, c.c0, t, step);
  });
  if (threadIdx.x == 0) {
    exstar_i64 work[EXSTAR_ACC_WORDS];
    root = exstar_acc_round_sqrt_private(acc, work);
  }
  return __shfl_sync(0xffffffffu, root, 0);
}

// The columns [g0, g1) of the diagonal tile, one after another, by one block: the root, then
// each entry below it from its state (every term left of the group in it) plus the group's own
// terms, rounded when the bound proves it, else exactly; divided by the root.
__global__ void __launch_bounds__(kDiagThreads) diag_group_kernel(diag_ctx c, int64_t g0, int64_t g1)
{
  __shared__ exstar_i64 wacc[kDiagThreads / 32][EXSTAR_ACC_WORDS];
  __shared__ double sroot;
  const int wp = threadIdx.x / 32;
  for (int64_t j = g0; j < g1; ++j) {
    if (wp == 0) {
      const double root = diag_root(c, wacc[0], j, g0);
      if (threadIdx.x == 0)
        c.fail[j - c.c0] = !(root > 0.0) ? 1 : root > EXSTAR_DBL_MAX ? 2 : 0, c.x(j, j) = root, sroot = root;
    }
    __syncthreads();
    const double root = sroot;
    for (int64_t base = c.c0; base < c.c1; base += blockDim.x) { // the same trips for every thread
      const int64_t i = base + threadIdx.x;
      const bool mine = i > j && i < c.c1;
      double y = 0.0;
      bool want = false;
      if (mine) {
        exstar_bdd d = c.s(i, j);
        int ok = 1;
        for (int64_t k = g0; k < j; ++k) ok &= exstar_bdd_add_product(&d, -c.x(i, k), c.x(j, k));
        want = c.exact_only || !(ok && exstar_bdd_round_ok(&d, &y));
      }
      exact_where(c, wacc[wp], want, i, j, j, y);
      if (mine) c.x(i, j) = y / root;
    }
    __syncthreads(); // column j in memory before the next column reads it
  }
}

// The terms of the group [g0, g1) into the states of the later columns: s(i, q) −= Σ_k x(i, k)·x(q, k)
// for g1 <= q <= i (the fast sums, a split constant from the two rows' largest factors); a thread
// an entry.
__global__ void diag_update_kernel(diag_ctx c, int64_t g0, int64_t g1)
{
  const int64_t m2 = c.c1 - g1;
  const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= m2 * m2) return;
  const int64_t i = g1 + x % m2, q = g1 + x / m2;
  if (i < q) return;
  const int nr = (int)(g1 - g0);
  double li[kGroup], lq[kGroup];
  int ea = EXSTAR_GEMM_EXP_ZERO, eb = EXSTAR_GEMM_EXP_ZERO;
#pragma unroll
  for (int t = 0; t < kGroup; ++t) {
    li[t] = t < nr ? c.x(i, g0 + t) : 0.0, lq[t] = t < nr ? c.x(q, g0 + t) : 0.0;
    ea = exstar_line_exp_step(ea, li[t]), eb = exstar_line_exp_step(eb, lq[t]);
  }
  const double sigma = exstar_gemm_sigma(ea, eb, exstar_gemm_count_exp(nr));
  double S = exstar_gemm_run_begin(0.0, sigma), R = 0.0;
#pragma unroll
  for (int t = 0; t < kGroup; ++t)
    if (t < nr) exstar_gemm_term(li[t], lq[t], &S, &R);
  exstar_gemm_state_add(&c.s(i, q), exstar_gemm_run_end(S, sigma), R, exstar_gemm_bound(nr, sigma), -1.0);
}

int potrf_diag(const exstar_cuda_tiles *v, int64_t K, int32_t *fail, int exact_only, unsigned long long *rep,
               cudaStream_t stream)
{
  const int64_t c0 = K * v->nb, c1 = min64(v->n, c0 + v->nb), w = c1 - c0;
  const int64_t t = K + K * v->mt;
  scratch sc;
  cudaError_t e = sc.make(v, (size_t)(w * w) * sizeof(exstar_bdd), stream);
  if (e != cudaSuccess) return status(e);
  diag_ctx c;
  c.g = sc.g;
  c.X = v->a[t], c.ldx = v->lda[t];
  c.S = (exstar_bdd *)sc.extra;
  c.fail = fail, c.c0 = c0, c.c1 = c1, c.w = w, c.exact_only = exact_only, c.rep = rep;
  e = cudaMemcpy2DAsync(c.S, (size_t)w * sizeof(exstar_bdd), v->st[t], (size_t)v->ldst[t] * sizeof(exstar_bdd),
                        (size_t)w * sizeof(exstar_bdd), (size_t)w, cudaMemcpyDeviceToDevice, stream);
  const unsigned threads = (unsigned)min64(kDiagThreads, (w + 31) / 32 * 32);
  for (int64_t g0 = c0; g0 < c1 && e == cudaSuccess; g0 += kGroup) {
    const int64_t g1 = min64(c1, g0 + kGroup);
    diag_group_kernel<<<1, threads, 0, stream>>>(c, g0, g1);
    if (g1 < c1) diag_update_kernel<<<blocks_for((c1 - g1) * (c1 - g1), 256), 256, 0, stream>>>(c, g0, g1);
    e = cudaGetLastError();
  }
  const cudaError_t f = sc.release(stream);
  return status(e != cudaSuccess ? e : f);
}

int potrf_trsm(const exstar_cuda_tiles *v, int64_t K, int64_t I, int exact_only, unsigned long long *rep,
               cudaStream_t stream)
{
  const int64_t c0 = K * v->nb, c1 = min64(v->n, c0 + v->nb), w = c1 - c0;
  const int64_t j0 = I * v->nb, nv = min64(v->n, j0 + v->nb) - j0;
  if (w <= 0 || nv <= 0) return 0;
  const int64_t tx = I + K * v->mt, tl = K + K * v->mt;
  scratch sc;
  cudaError_t e = sc.make(v, subst_scratch_bytes(w, nv), stream);
  if (e != cudaSuccess) return status(e);
  trsm_ctx c;
  c.g = sc.g;
  c.X = v->a[tx], c.ldx = v->lda[tx];
  c.L = v->a[tl], c.ldl = v->lda[tl];
  c.st = (const exstar_bdd *)v->st[tx], c.ldst = v->ldst[tx];
  c.c0 = c0, c.j0 = j0, c.exact_only = exact_only, c.rep = rep;
  e = subst_launch(c, c.L, c.ldl, w, nv, sc.extra, stream);
  const cudaError_t f = sc.release(stream);
  return status(e != cudaSuccess ? e : f);
}

// Tiles (I, K), I in [I0, I1), to (to_copy) or from the column copy lc[K] (rows from K nb).
cudaError_t copy_tiles(const exstar_cuda_tiles *v, int64_t K, int64_t I0, int64_t I1, bool to_copy, cudaStream_t stream)
{
  const int64_t w = min64(v->nb, v->n - K * v->nb);
  const size_t ldc = (size_t)v->ldlc[K] * sizeof(double);
  cudaError_t e = cudaSuccess;
  for (int64_t I = I0; I < I1 && e == cudaSuccess; ++I) {
    const int64_t t = I + K * v->mt, rows = min64(v->nb, v->n - I * v->nb);
    double *c = v->lc[K] + (I - K) * v->nb;
    const size_t ldt = (size_t)v->lda[t] * sizeof(double), width = (size_t)rows * sizeof(double);
    e = to_copy ? cudaMemcpy2DAsync(c, ldc, v->a[t], ldt, width, (size_t)w, cudaMemcpyDeviceToDevice, stream)
                : cudaMemcpy2DAsync(v->a[t], ldt, c, ldc, width, (size_t)w, cudaMemcpyDeviceToDevice, stream);
  }
  return e;
}

// ---- The rows below the diagonal tile in one pass (the column shape: the view has lc[K]) ----
// Every row below is a substitution with the diagonal tile's L, as trsm_ctx, but on the rows
// gathered in the column copy and chunk by chunk of unknowns: each chunk's substitution
// (kernels_cuda/subst_groups.cuh, its groups' terms by the fast sums) has a chain of 128
// unknowns (below_chunking()), not nb, and the chunk's terms enter the later unknowns' states of every row through
// the Level-3 state product (exstar_cuda_gemm_state_add: the integer path's tensor cores), not
// through the fast sums. A state holds its terms in any grouping, and every rounding is proved or
// the entry takes the exact path: the bits are the tile path's. (One H200, n = 16384, nb 1024:
// the tile path took 2.7 ms a 1024^2 tile, 450 of the 491 ms of the factorization's chain.)
// EXSTAR_CUDA_POTRF_CHUNK (16..1024) and EXSTAR_CUDA_POTRF_THREADS (32, 64 or 128 a row) set
// them, for measurements; no value changes a bit.
inline const subst_chunking &below_chunking()
{
  static const subst_chunking c("EXSTAR_CUDA_POTRF_CHUNK", "EXSTAR_CUDA_POTRF_THREADS");
  return c;
}

// The exact path of row r, unknown i: left of the panel from the column copies, the panel's own
// terms (k in [p0, kend)) from the gathered rows Xr (stride ldx) and the diagonal tile's row Li.
__device__ __noinline__ double exact_gathered(exstar_i64 *wacc, const dgrid &g, double a, int64_t r, int64_t i,
                                              int64_t kend, int64_t p0, const double *Xr, int64_t ldx,
                                              const double *Li, int64_t ldd, bool retry, unsigned long long *rep)
{
  return exact_sum_warp(wacc, a, retry, rep, [&](auto &sink, int t, int step) {
    const int flags = grid_terms<true>(sink, g, r, i, min64(kend, p0), t, step);
    return flags | span_terms(sink, p0, kend, t, step, [&](int64_t k) { return Xr[(k - p0) * ldx]; },
                              [&](int64_t k) { return Li[(k - p0) * ldd]; });
  });
}

// A vector j is a row below the diagonal tile (X: rows from j0, column p0 first), the unknowns
// [c0, c0 + chunk) of the panel; L (subst_fields) the chunk's block of the diagonal tile D.
struct gathered_ctx : subst_fields {
  double *X;
  int64_t ldx;
  const exstar_bdd *SS; // the rows' states, as X
  int64_t ldss;
  const double *D;
  int64_t ldd, p0;
  __device__ double &a(int64_t i, int64_t j) const { return X[(j - j0) + (i - p0) * ldx]; }
  __device__ double finish(int64_t i, double y) const { return y / D[(i - p0) * (1 + ldd)]; }
  __device__ exstar_bdd state(int64_t i, int64_t j) const { return SS[(j - j0) + (i - p0) * ldss]; }
  __device__ double exact(exstar_i64 *wacc, int64_t i, int64_t j, int64_t kend) const
  {
    return exact_gathered(wacc, g, a(i, j), j, i, kend, p0, &a(p0, j), ldx, D + (i - p0), ldd, !exact_only, rep);
  }
};

// The rows [(K+1) nb, n) of block column K: gathered into lc[K], substituted chunk by chunk in
// place (their states, block column K's from row (K+1) nb, are spent on the way), put back in
// their tiles. The diagonal tile is final.
int potrf_below(const exstar_cuda_tiles *v, int64_t K, int exact_only, unsigned long long *rep, cudaStream_t stream)
{
  const int64_t nb = v->nb, p0 = K * nb, c1 = min64(v->n, p0 + nb), j0 = p0 + nb, rows = v->n - j0;
  if (rows <= 0 || c1 <= p0) return 0;
  const int64_t td = K + K * v->mt, t1 = (K + 1) + K * v->mt;
  cudaError_t e = copy_tiles(v, K, K + 1, v->mt, true, stream);
  scratch sc;
  const int64_t chunk = below_chunking().width;
  if (e == cudaSuccess) e = sc.make(v, subst_scratch_bytes(chunk, rows), stream);
  gathered_ctx c;
  c.g = sc.g;
  c.X = v->lc[K] + nb, c.ldx = v->ldlc[K];
  exstar_bdd *SS = (exstar_bdd *)v->st[t1]; // row (K+1) nb of the block column's states
  c.SS = SS, c.ldss = v->ldst[t1];
  c.D = v->a[td], c.ldd = v->lda[td], c.p0 = p0;
  c.j0 = j0, c.exact_only = exact_only, c.rep = rep;
  int s = status(e);
  for (int64_t a = p0; a < c1 && s == 0; a += chunk) {
    const int64_t b = min64(c1, a + chunk);
    c.c0 = a, c.L = c.D + (a - p0) * (1 + c.ldd), c.ldl = c.ldd;
    s = status(subst_launch(c, c.L, c.ldl, b - a, rows, sc.extra, stream, below_chunking().threads));
    if (s == 0 && b < c1) // the chunk's terms into the states of the unknowns after it
      s = exstar_cuda_gemm_state_add('N', 'T', rows, c1 - b, b - a, -1.0, c.X, (a - p0) * c.ldx, c.ldx, c.D,
                                     (b - p0) + (a - p0) * c.ldd, c.ldd, SS, (b - p0) * c.ldss, c.ldss, stream);
  }
  if (s == 0) s = status(copy_tiles(v, K, K + 1, v->mt, false, stream));
  const cudaError_t f = sc.base ? sc.release(stream) : cudaSuccess;
  return s != 0 ? s : status(f);
}

} // namespace

extern "C" int exstar_cuda_potrf_panel(const exstar_cuda_tiles *v, int64_t K, int64_t I0, int64_t I1, int32_t *fail,
                                       int exact_only, unsigned long long *repaired, exstar_cuda_stream s)
{
  cudaStream_t stream = (cudaStream_t)s;
  int e = I0 == K ? potrf_diag(v, K, fail, exact_only, repaired, stream) : 0;
  if (I0 == K && I1 == v->mt && v->lc && v->lc[K]) { // the column shape: every row below at once
    if (e == 0) e = potrf_below(v, K, exact_only, repaired, stream);
    return e == 0 ? status(copy_tiles(v, K, K, K + 1, true, stream)) : e; // the diagonal tile's copy
  }
  for (int64_t I = I0 == K ? K + 1 : I0; I < I1 && e == 0; ++I) e = potrf_trsm(v, K, I, exact_only, repaired, stream);
  return e;
}
