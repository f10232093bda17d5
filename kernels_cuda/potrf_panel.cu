// The tiled exact Cholesky's panel on the GPU (exstar_cuda_potrf_panel): the diagonal tile (its
// roots and the entries below them) and a tile below it. Definitions and bits:
// kernels_cpu/potrf_tiled.cpp (every accepted rounding is the correct one, so the GPU's
// right-looking order inside the tile gives the CPU kernel's bits).
//  - A tile below the diagonal: each of its rows is a substitution with the diagonal tile's L
//    (kernels_cuda/subst_groups.cuh, as the LU's block rows of U), each unknown divided by its
//    diagonal entry once its sum is rounded.
//  - The diagonal tile: chunk after chunk of columns (diag_chunk(), 128 by default). In a chunk,
//    group after group of kGroup columns, one block walks the group's columns over the chunk's
//    rows (the root: its state plus the group's own terms when the bound proves the root's
//    rounding, else the exact value of all its terms, by a warp, rounded by core/sqrt.h; the
//    column below it: each entry its state plus the group's own terms, checked or exact,
//    divided), and the group's terms enter the chunk's later columns' states (the diagonal's too)
//    by the fast sums. The tile's rows below the chunk are then a substitution with the chunk's
//    triangle, as the tiles below (subst_groups.cuh), and the chunk's terms enter the later
//    columns' states through the Level-3 state product. One block walking all nb rows of every
//    column took ~5.5 us a column (90 ms of the 329 ms chain at n = 16384 on one H200).
//  - The column shape (a task a block column, potrf_column): the diagonal tile and the rows below
//    it are two chains on two streams (panel_streams), the rows below following each chunk of
//    the diagonal tile: the panel takes about the longer chain, not their sum.
#include "kernels_cuda/subst_groups.cuh"
#include "kernels_cuda/potrf_tiled.h"
#include "kernels_cuda/gemm.h"
#include "core/sqrt.h"
#include <cstdio>
#include <vector>

namespace {

constexpr int kDiagThreads = 512; // the block that walks a group's columns

// EXSTAR_CUDA_POTRF_TRACE=1 (measurements only): where one panel's time went, by phase, to stderr
// (CUDA events on the streams of the panel's chains: a phase is the time from the previous mark on
// its stream to its own; `waits` is a chain's time waiting for the other; the report synchronizes).
struct phase_trace {
  enum kind { walk, diag_subst, diag_products, subst, products, copies, waits, nkinds };
  struct mark_t {
    int kind;
    cudaStream_t stream;
    cudaEvent_t event;
  };
  std::vector<mark_t> marks;
  static bool wanted()
  {
    static const bool on = std::getenv("EXSTAR_CUDA_POTRF_TRACE") != nullptr;
    return on;
  }
  void mark(int k, cudaStream_t s)
  {
    cudaEvent_t e;
    if (cudaEventCreate(&e) == cudaSuccess && cudaEventRecord(e, s) == cudaSuccess) marks.push_back({k, s, e});
  }
  void report(int64_t K, int64_t rows, const unsigned long long *rep)
  {
    static const char *const names[nkinds] = {"walk", "diag subst", "diag products", "subst",
                                              "products", "copies", "waits"};
    double ms[nkinds] = {0, 0, 0, 0, 0, 0, 0};
    unsigned long long declined = 0;
    if (cudaDeviceSynchronize() == cudaSuccess && rep) cudaMemcpy(&declined, rep, sizeof declined, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < marks.size(); ++i)
      for (size_t p = i; p-- > 0;) // the previous mark on the same stream
        if (marks[p].stream == marks[i].stream) {
          float t = 0.0f;
          if (cudaEventElapsedTime(&t, marks[p].event, marks[i].event) == cudaSuccess) ms[marks[i].kind] += t;
          break;
        }
    float whole = 0.0f;
    if (!marks.empty()) (void)cudaEventElapsedTime(&whole, marks.front().event, marks.back().event);
    std::fprintf(stderr, "potrf panel K=%lld rows %lld: %.3f ms;", (long long)K, (long long)rows, whole);
    for (int k = 0; k < nkinds; ++k) std::fprintf(stderr, " %s %.3f ms%s", names[k], ms[k], k + 1 < nkinds ? "," : "");
    std::fprintf(stderr, "; exact entries so far %llu\n", declined);
    for (auto &m : marks) cudaEventDestroy(m.event);
    marks.clear();
  }
};

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

// Tile (I, K) below the diagonal, or the diagonal tile's rows below a chunk: an unknown i is a
// column of the panel (from c0), a vector j a row (from j0); the factor is the diagonal tile's
// block at (c0, c0). The exact path splits the terms at the panel's first column p0.
struct trsm_ctx : subst_fields { // L: tile (K, K)'s block; st: the rows' states
  double *X;                      // the rows, at (j0, c0)
  int64_t ldx, p0;
  __device__ double &a(int64_t i, int64_t j) const { return X[(j - j0) + (i - c0) * ldx]; }
  __device__ double finish(int64_t i, double y) const { return y / L[(i - c0) * (1 + ldl)]; }
  __device__ exstar_bdd state(int64_t i, int64_t j) const { return st[(j - j0) + (i - c0) * ldst]; }
  __device__ double exact(exstar_i64 *wacc, int64_t i, int64_t j, int64_t kend) const
  {
    return exact_rows(wacc, g, a(i, j), j, i, kend, p0, !exact_only, rep);
  }
};

// The diagonal tile: columns [c0, c1) (w of them), the tile X in place, its states copied to S
// (w x w, leading dimension w; the diagonal's too: a root's value within its bound). The walk
// covers the rows before r1 (the end of the current chunk).
struct diag_ctx {
  dgrid g;
  double *X;
  int64_t ldx;
  exstar_bdd *S;
  int32_t *fail;
  int64_t c0, c1, w, r1;
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
// each entry below it (rows before r1) from its state (every term left of the group in it) plus
// the group's own terms, rounded when the bound proves it, else exactly; divided by the root.
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
    for (int64_t base = g0; base < c.r1; base += blockDim.x) { // the same trips for every thread
      const int64_t i = base + threadIdx.x;
      const bool mine = i > j && i < c.r1;
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

// The terms of the group [g0, g1) into the states of the chunk's later columns: s(i, q) −=
// Σ_k x(i, k)·x(q, k) for g1 <= q <= i < r1 (the fast sums, a split constant from the two rows'
// largest factors); a thread an entry.
__global__ void diag_update_kernel(diag_ctx c, int64_t g0, int64_t g1)
{
  const int64_t m2 = c.r1 - g1;
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

// The chunk's width: EXSTAR_CUDA_POTRF_DIAG_CHUNK (16..1024, default 128; at least nb: one block
// walks the whole tile, as before the chunks), for measurements; no value changes a bit.
inline int64_t diag_chunk()
{
  static const int64_t w = subst_env("EXSTAR_CUDA_POTRF_DIAG_CHUNK", 16, 1024, 128);
  return w;
}

// The walk of the chunk [a, b) of the diagonal tile (c.r1 = b): group after group.
cudaError_t diag_walk(diag_ctx &c, int64_t a, int64_t b, cudaStream_t stream)
{
  c.r1 = b;
  const unsigned threads = (unsigned)min64(kDiagThreads, (b - a + 31) / 32 * 32);
  for (int64_t g0 = a; g0 < b; g0 += kGroup) {
    const int64_t g1 = min64(b, g0 + kGroup);
    diag_group_kernel<<<1, threads, 0, stream>>>(c, g0, g1);
    if (g1 < b) diag_update_kernel<<<blocks_for((b - g1) * (b - g1), 256), 256, 0, stream>>>(c, g0, g1);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
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
  c.c0 = c0, c.j0 = j0, c.p0 = c0, c.exact_only = exact_only, c.rep = rep;
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
const subst_chunking &below_chunking()
{
  static const subst_chunking c("EXSTAR_CUDA_POTRF_CHUNK", "EXSTAR_CUDA_POTRF_THREADS", 1);
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

// The rows [(K+1) nb, n) of block column K (the column shape), as a chain that follows the
// diagonal tile's on a stream of its own: gathered into lc[K] (begin), substituted chunk by chunk
// in place (their states, block column K's from row (K+1) nb, spent on the way), put back in
// their tiles (end). A chunk's substitution needs the chunk's columns of the diagonal tile walked
// (walked), and its terms enter the later unknowns' states once the diagonal tile's rows below the
// chunk are substituted too (rows_done): the Level-3 state product reads them.
struct below_chain {
  const exstar_cuda_tiles *v;
  int64_t K;
  cudaStream_t stream;
  phase_trace *tr;
  int64_t p0 = 0, c1 = 0, rows = 0;
  exstar_bdd *SS = nullptr;
  scratch sc;
  gathered_ctx c;
  int s = 0; // the chain's first error

  below_chain(const exstar_cuda_tiles *v_, int64_t K_, int exact_only, unsigned long long *rep, cudaStream_t st,
              phase_trace *t)
      : v(v_), K(K_), stream(st), tr(t)
  {
    const int64_t nb = v->nb;
    p0 = K * nb, c1 = min64(v->n, p0 + nb), rows = v->n - (p0 + nb);
    c.exact_only = exact_only, c.rep = rep;
  }
  bool empty() const { return rows <= 0 || c1 <= p0; }
  void begin()
  {
    if (empty()) return;
    const int64_t nb = v->nb, td = K + K * v->mt, t1 = (K + 1) + K * v->mt;
    cudaError_t e = copy_tiles(v, K, K + 1, v->mt, true, stream);
    if (tr) tr->mark(phase_trace::copies, stream);
    if (e == cudaSuccess) e = sc.make(v, subst_scratch_bytes(below_chunking().width, rows), stream);
    c.g = sc.g;
    c.X = v->lc[K] + nb, c.ldx = v->ldlc[K];
    SS = (exstar_bdd *)v->st[t1]; // row (K+1) nb of the block column's states
    c.SS = SS, c.ldss = v->ldst[t1];
    c.D = v->a[td], c.ldd = v->lda[td], c.p0 = p0;
    c.j0 = p0 + nb;
    s = status(e);
  }
  // The chunk [a, b)'s substitution, after what stream `from` has queued (its walk).
  void walked(cudaStream_t from, int64_t a, int64_t b)
  {
    if (empty() || s != 0) return;
    s = status(panel_streams::follow(stream, from));
    if (tr) tr->mark(phase_trace::waits, stream);
    c.c0 = a, c.L = c.D + (a - p0) * (1 + c.ldd), c.ldl = c.ldd;
    if (s == 0) s = status(subst_launch(c, c.L, c.ldl, b - a, rows, sc.extra, stream, below_chunking().threads));
    if (tr) tr->mark(phase_trace::subst, stream);
  }
  // The chunk [a, b)'s terms into the states of the unknowns after it, after what `from` has
  // queued (the diagonal tile's rows below the chunk).
  void rows_done(cudaStream_t from, int64_t a, int64_t b)
  {
    if (empty() || s != 0) return;
    s = status(panel_streams::follow(stream, from));
    if (tr) tr->mark(phase_trace::waits, stream);
    if (s == 0)
      s = exstar_cuda_gemm_state_add('N', 'T', rows, c1 - b, b - a, -1.0, c.X, (a - p0) * c.ldx, c.ldx, c.D,
                                     (b - p0) + (a - p0) * c.ldd, c.ldd, SS, (b - p0) * c.ldss, c.ldss, stream);
    if (tr) tr->mark(phase_trace::products, stream);
  }
  int end()
  {
    if (empty()) return 0;
    if (s == 0) s = status(copy_tiles(v, K, K + 1, v->mt, false, stream));
    if (tr) tr->mark(phase_trace::copies, stream);
    const cudaError_t f = sc.base ? sc.release(stream) : cudaSuccess;
    return s != 0 ? s : status(f);
  }
};

// The diagonal tile's rows [b, c1) after the chunk [a, b) is walked: a substitution with the
// chunk's triangle (their states in S have every term left of the chunk), then (the rows below
// the tile may take the chunk's products from here: bc) the chunk's terms into the states of the
// columns [b, c1) (the whole square; the upper part is never read).
int diag_rows_below(const diag_ctx &d, int64_t a, int64_t b, char *extra, int exact_only, unsigned long long *rep,
                    cudaStream_t stream, phase_trace *tr, below_chain *bc)
{
  const int64_t c0 = d.c0, c1 = d.c1, w = d.w;
  trsm_ctx c;
  c.g = d.g;
  c.L = d.X + (a - c0) * (1 + d.ldx), c.ldl = d.ldx;
  c.X = d.X + (b - c0) + (a - c0) * d.ldx, c.ldx = d.ldx;
  c.st = d.S + (b - c0) + (a - c0) * w, c.ldst = w;
  c.c0 = a, c.j0 = b, c.p0 = c0, c.exact_only = exact_only, c.rep = rep;
  const int s = status(subst_launch(c, c.L, c.ldl, b - a, c1 - b, extra, stream, below_chunking().threads));
  if (s != 0) return s;
  if (tr) tr->mark(phase_trace::diag_subst, stream);
  if (bc) bc->rows_done(stream, a, b);
  const int64_t off = (b - c0) + (a - c0) * d.ldx;
  const int t = exstar_cuda_gemm_state_add('N', 'T', c1 - b, c1 - b, b - a, -1.0, d.X, off, d.ldx, d.X, off, d.ldx,
                                           d.S, (b - c0) + (b - c0) * w, w, stream);
  if (tr) tr->mark(phase_trace::diag_products, stream);
  return t;
}

// The diagonal tile (K, K), chunk after chunk, on `stream`; with bc (the column shape), the rows
// below the tile follow each chunk on bc's stream.
int potrf_diag(const exstar_cuda_tiles *v, int64_t K, int32_t *fail, int exact_only, unsigned long long *rep,
               cudaStream_t stream, phase_trace *tr, below_chain *bc)
{
  const int64_t c0 = K * v->nb, c1 = min64(v->n, c0 + v->nb), w = c1 - c0;
  const int64_t t = K + K * v->mt, cw = diag_chunk();
  const size_t sbytes = ((size_t)(w * w) * sizeof(exstar_bdd) + 255) / 256 * 256;
  scratch sc;
  cudaError_t e = sc.make(v, sbytes + (cw < w ? subst_scratch_bytes(cw, w) : 0), stream);
  if (e != cudaSuccess) return status(e);
  diag_ctx c;
  c.g = sc.g;
  c.X = v->a[t], c.ldx = v->lda[t];
  c.S = (exstar_bdd *)sc.extra;
  c.fail = fail, c.c0 = c0, c.c1 = c1, c.w = w, c.exact_only = exact_only, c.rep = rep;
  e = cudaMemcpy2DAsync(c.S, (size_t)w * sizeof(exstar_bdd), v->st[t], (size_t)v->ldst[t] * sizeof(exstar_bdd),
                        (size_t)w * sizeof(exstar_bdd), (size_t)w, cudaMemcpyDeviceToDevice, stream);
  int s = status(e);
  for (int64_t a = c0; a < c1 && s == 0; a += cw) {
    const int64_t b = min64(c1, a + cw);
    s = status(diag_walk(c, a, b, stream));
    if (tr) tr->mark(phase_trace::walk, stream);
    if (s == 0 && bc) bc->walked(stream, a, b);
    if (s == 0 && b < c1) s = diag_rows_below(c, a, b, sc.extra + sbytes, exact_only, rep, stream, tr, bc);
  }
  const cudaError_t f = sc.release(stream);
  return s != 0 ? s : status(f);
}

// The column shape (the view has lc[K]): the diagonal tile and every row below it, as two chains
// on the panel's streams (panel_streams: the rows below follow each chunk of the diagonal tile, so
// the panel takes about the longer chain rather than their sum), then the diagonal tile's copy.
int potrf_column(const exstar_cuda_tiles *v, int64_t K, int32_t *fail, int exact_only, unsigned long long *rep,
                 cudaStream_t stream, phase_trace *tr)
{
  panel_streams ps;
  int e = status(ps.fork(stream));
  if (e != 0) return e;
  if (tr) tr->mark(phase_trace::walk, ps.side[0]), tr->mark(phase_trace::copies, ps.side[1]);
  below_chain bc(v, K, exact_only, rep, ps.side[1], tr);
  bc.begin();
  e = potrf_diag(v, K, fail, exact_only, rep, ps.side[0], tr, &bc);
  if (e == 0) e = status(copy_tiles(v, K, K, K + 1, true, ps.side[0])); // the diagonal tile's copy
  const int b = bc.end();
  const int j = status(ps.join_all());
  return e != 0 ? e : b != 0 ? b : j;
}

} // namespace

extern "C" int exstar_cuda_potrf_panel(const exstar_cuda_tiles *v, int64_t K, int64_t I0, int64_t I1, int32_t *fail,
                                       int exact_only, unsigned long long *repaired, exstar_cuda_stream s)
{
  cudaStream_t stream = (cudaStream_t)s;
  phase_trace trace, *tr = phase_trace::wanted() ? &trace : nullptr;
  int e = 0;
  if (I0 == K && I1 == v->mt && v->lc && v->lc[K]) { // the column shape: every row below at once
    e = potrf_column(v, K, fail, exact_only, repaired, stream, tr);
  } else {
    if (tr) trace.mark(phase_trace::walk, stream);
    if (I0 == K) e = potrf_diag(v, K, fail, exact_only, repaired, stream, tr, nullptr);
    for (int64_t I = I0 == K ? K + 1 : I0; I < I1 && e == 0; ++I) {
      e = potrf_trsm(v, K, I, exact_only, repaired, stream);
      if (tr) trace.mark(phase_trace::subst, stream);
    }
  }
  if (tr) trace.mark(phase_trace::copies, stream), trace.report(K, v->n - K * v->nb, repaired);
  return e;
}
