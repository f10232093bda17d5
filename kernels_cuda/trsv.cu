// trsv on a CUDA device: diagonal-block solve (a wave over the whole GPU), residual of
// refinement (one thread per row), refinement update (one thread per element).
//
// Solve: rows are owned by threads (a bounded double-double of core/checked_round.h each,
// holding acc_r + b_r minus the terms added so far), blocks of 128 rows by blocks of threads
// that wait for each other through flags, tiles of 32 rows by one warp with a short serial
// chain whose checks run at the tile's end (see wave_kernel). The exact slow path (slow_row)
// takes over for a row whenever a check declines. Every path gives RN of the same exact
// value: the same bits as the CPU, for any block or tile size.
#ifndef EXSTAR_FPE_N
#define EXSTAR_FPE_N 4
#endif
#include "kernels_cuda/trsv.h"
#include "kernels_cuda/acc_cuda.cuh"
#include "core/checked_round.h"

// volatile: the solve's exact path reads x values other blocks of threads (other SMs) wrote,
// through L2, never through a stale L1 line
#define EXSTAR_TRSV_ACC_PTR exstar_i64 *
#define EXSTAR_TRSV_OPS_SFX _atomic
#define EXSTAR_TRSV_MEM volatile
#define EXSTAR_TRSV_SFX _cuda_atomic
#include "core/trsv.inc"

#define EXSTAR_TRSV_ACC_PTR exstar_i64 *
#define EXSTAR_TRSV_OPS_SFX _private
#define EXSTAR_TRSV_MEM
#define EXSTAR_TRSV_SFX _cuda_private
#include "core/trsv.inc"

namespace {

constexpr unsigned kFull = 0xffffffffu;

// The two signed carry-save passes of the rounding (core/accumulator.h) by one warp, every
// lane its digits: the lane that rounds then only scans and reads a four-digit window.
__device__ __forceinline__ void warp_carry_save_passes(exstar_i64 *sacc, int lane)
{
  constexpr int kRounds = (EXSTAR_ACC_NDIGITS + 31) / 32;
  for (int pass = 0; pass < 2; ++pass) {
    exstar_i64 nd[kRounds];
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const int i = lane + r * 32;
      if (i < EXSTAR_ACC_NDIGITS) nd[r] = exstar_digit_after_pass(sacc[i], i > 0 ? sacc[i - 1] : 0, i);
    }
    __syncwarp();
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const int i = lane + r * 32;
      if (i < EXSTAR_ACC_NDIGITS) sacc[i] = nd[r];
    }
    __syncwarp();
  }
}

struct slow_scratch {
  exstar_i64 acc[EXSTAR_ACC_WORDS];
  int flags, top, low;
};

// RN(acc_r + b_r - Σ in-block terms) the exact way, by one warp (all its lanes call it): a
// shared copy of the accumulator, the terms with atomics, the carry-save passes and the digit
// scans on all lanes, one rounding by lane 0; every lane gets the result.
__device__ __noinline__ double slow_row(slow_scratch &w, const exstar_trsv_shape &s, const double *__restrict__ t,
                                        const exstar_i64 *__restrict__ acc, const double *y, long long fy,
                                        long long incy, long long r, int lane)
{
  for (int k = lane; k < EXSTAR_ACC_WORDS; k += 32) w.acc[k] = acc[k];
  if (lane == 0) w.flags = 0, w.top = -1, w.low = -1;
  __syncwarp();
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = exstar_trsv_row_terms_cuda_atomic(w.acc, fpe, s.forward, s.trans, s.unit, 0, s.nb, r, t, s.t0,
                                                s.ldt, y, fy, incy, lane, 32);
  if (lane == 0) flags |= exstar_sum_step_atomic(w.acc, fpe, ((const volatile double *)y)[fy + r * incy]);
  // Merge the warp's expansions by shuffles first: one flush instead of one per lane keeps the
  // shared atomics (all on the same few digits) from serialising.
  exstar_cuda_warp_merge_fpe(w.acc, fpe);
  if (lane == 0) exstar_acc_flush_fpe_atomic(w.acc, fpe);
  flags = (int)__reduce_or_sync(kFull, (unsigned)flags);
  __syncwarp();
  warp_carry_save_passes(w.acc, lane);
  // the rounding's two scans: topmost nonzero digit, then topmost nonzero one below its window
  for (int i = lane; i < EXSTAR_ACC_NDIGITS; i += 32)
    if (w.acc[i] != 0) atomicMax(&w.top, i);
  __syncwarp();
  const int below = w.top >= 0 ? exstar_round_window_low(w.top) : 0;
  for (int i = lane; i < below; i += 32)
    if (w.acc[i] != 0) atomicMax(&w.low, i);
  __syncwarp();
  double v = 0.0;
  if (lane == 0) {
    exstar_acc_add_flags_private(w.acc, flags);
    v = exstar_acc_round_at(w.acc, w.top, w.low);
  }
  return __shfl_sync(kFull, v, 0);
}

__device__ __forceinline__ long long row_of(const exstar_trsv_shape &s, long long step)
{
  return s.forward ? step : s.nb - 1 - step;
}

// Row r's elements in substitution order: t(r, row_of(step)) = p[step * stride].
struct row_walk {
  const double *p;
  long long stride;
};
__device__ __forceinline__ row_walk walk_of(const exstar_trsv_shape &s, const double *t, long long r)
{
  const long long along = s.trans ? 1 : s.ldt; // from column k to column k + 1 of op(T)
  row_walk w;
  w.p = t + s.t0 + (s.trans ? r * s.ldt : r) + (s.forward ? 0 : (s.nb - 1) * along);
  w.stride = s.forward ? along : -along;
  return w;
}

// The solve as a wave over the whole GPU. The diagonal block's rows, in substitution order, go
// to blocks of threads of kWaveRows rows each, taken in order (a ticket; a block only waits for
// blocks that hold earlier tickets, so the wave cannot deadlock however many are resident).
// Block B, its rows [B·kWaveRows, ...):
//  A. the off-diagonal terms, tile of 32 columns after tile C of the blocks before: its
//     elements loaded, the flag of C awaited, its x read, the terms added (kParts threads a row);
//  B. its own rows (their tile of T in shared memory), tile by tile of 32 (one warp): a lane a
//     row, x_j computed by lane j with the double-double value of its row
//     (exstar_bdd_last_parts) and a division through the reciprocal of its diagonal element as
//     a double-double (one FMA on the chain), handed on by a shuffle; the
//     checks (exstar_bdd_last_ok and the IEEE division) run for the whole tile at its end, off
//     the serial chain; a row they decline is redone the exact way (slow_row), and the rows
//     after it in its tile too. The tile's warp then fences its x and sets the tile's flag,
//     while the later tiles add its terms (all kParts threads of a row).
// Every accepted value is RN of the exact value and the IEEE quotient: the same bits as the CPU.
constexpr int kWaveRows = 128;
constexpr int kTiles = kWaveRows / 32;
constexpr int kParts = 2;
constexpr int kWaveThreads = kWaveRows * kParts;
constexpr int kSpan = 32 / kParts;        // columns of a tile per thread (its terms for a row)
constexpr int kLd = kWaveRows + 1;        // the block's diagonal tile in shared memory, padded
constexpr size_t kTileBytes = sizeof(double) * kLd * kWaveRows;

__device__ __forceinline__ exstar_bdd bdd_zero()
{
  exstar_bdd d = {0.0, 0.0, 0.0, 0.0};
  return d;
}

__device__ __forceinline__ void wait_flag(const unsigned *flag)
{
  while (*(const volatile unsigned *)flag == 0) {
  }
  __threadfence();
}

// d, d2 += the terms -t(row, step k0 + k)·xs[k], k < n, alternately (two chains).
template <int N>
__device__ __forceinline__ int add_terms(exstar_bdd &d, exstar_bdd &d2, const double (&a)[N], const double *xs)
{
  int ok = 1;
#pragma unroll
  for (int k = 0; k < N; k += 2) {
    ok &= exstar_bdd_add_product(&d, -a[k], xs[k]);
    ok &= exstar_bdd_add_product(&d2, -a[k + 1], xs[k + 1]);
  }
  return ok;
}

template <int N>
__device__ __forceinline__ void load_row(double (&a)[N], const row_walk &w, long long k0, bool mine)
{
#pragma unroll
  for (int k = 0; k < N; ++k) a[k] = mine ? w.p[(k0 + k) * w.stride] : 0.0;
}

// The block's diagonal tile into shared memory at the start, so that its serial part never
// waits on memory (by then the other blocks stream their off-diagonal tiles): op(T)(row i,
// step base + k) at dblk[k * kLd + i]. Consecutive threads read consecutive addresses of T.
__device__ void load_diagonal_tile(double *dblk, const exstar_trsv_shape &s, const double *__restrict__ t,
                                   long long base, int len, int me)
{
#pragma unroll 8
  for (int e = me; e < kWaveRows * kWaveRows; e += kWaveThreads) {
    const int i = s.trans ? e / kWaveRows : e % kWaveRows, k = s.trans ? e % kWaveRows : e / kWaveRows;
    double v = 0.0;
    if (i < len && k < len) v = walk_of(s, t, row_of(s, base + i)).p[(base + k) * walk_of(s, t, 0).stride];
    dblk[k * kLd + i] = v;
  }
}

struct wave_shared {
  slow_scratch scratch;
  unsigned block;
  double xs[kWaveRows];                       // x of the tile being added, then the block's own
  exstar_bdd parts[kParts - 1][kWaveRows];    // partial sums of parts 1.. handed to part 0
  int parts_ok[kParts - 1][kWaveRows];
};


// Tile g of the block by its warp (part 0): x of its rows into xs and y. d: each lane's row
// without the tile's terms; a[j * kLd] = t(row, step k0 + j) for j < lane (shared memory);
// 1/diag = rh + rl to about 2^-105 (rh = RN(1/diag)).
__device__ void solve_tile(wave_shared &sh, const exstar_trsv_shape &s, const double *__restrict__ t,
                           const exstar_i64 *__restrict__ accs, double *y, long long fy, long long incy,
                           long long k0, int g, int glen, exstar_bdd d, int ok, const double *a, double diag,
                           double rh, double rl, long long r, int lane)
{
  // One basic block, no branch: each lane computes "its" value and quotient at every step (lane
  // j's is x_j, taken by the next step's shuffle straight from its register), then the later
  // lanes' term as selects, which the compiler overlaps with the next steps' serial chain.
  // x_j = RN(v / diag) for v = RN(s + t) as RN(v·rh + RN(s·rl)): within about 2^-103 of v / diag,
  // so RN of it, but within that of a midpoint (the IEEE division checks it at the end).
  // Unit diagonal: diag = rh = 1, rl = 0 and the quotient is v itself (v == 0 is declined).
  double xj = 0.0, x = 0.0, la = 0.0; // x and la on lane j: x_j and -t(j, j - 1)
#pragma unroll
  for (int j = 0; j < 32; ++j) {
    const double aj = j > 0 ? -a[(j - 1) * kLd] : 0.0;
    const double xp = j > 0 ? __shfl_sync(kFull, xj, j - 1) : 0.0;
    double sj, tj;
    exstar_bdd_last_parts(&d, aj, xp, &sj, &tj);
    xj = fma(sj + tj, rh, sj * rl);
    x = lane == j ? xj : x;
    la = lane == j ? aj : la;
    if (j > 0) { // d stays each row's state before its last term
      exstar_bdd e = d;
      const int ok_e = exstar_bdd_add_product(&e, aj, xp);
      const bool later = lane > j;
      d.hi = later ? e.hi : d.hi;
      d.lo = later ? e.lo : d.lo;
      d.mag = later ? e.mag : d.mag;
      ok &= later ? ok_e : 1;
    }
  }
  // the checks, every lane its own row at once
  const double up = __shfl_up_sync(kFull, x, 1);
  const double xl = lane > 0 ? up : 0.0;
  const double v = exstar_bdd_last_value(&d, la, xl);
  const int good = ok & exstar_bdd_last_ok(&d, la, xl, v) & (__double_as_longlong(v / diag) == __double_as_longlong(x));
  const unsigned bad = __ballot_sync(kFull, !good && lane < glen);
  const int first = bad ? __ffs(bad) - 1 : glen;
  if (lane < first) {
    y[fy + r * incy] = x;
    sh.xs[g * 32 + lane] = x;
  }
  __syncwarp();
  for (int j = first; j < glen; ++j) { // rare: the exact way, row after row
    const long long rj = row_of(s, k0 + j);
    const double vj = slow_row(sh.scratch, s, t, accs + rj * EXSTAR_ACC_WORDS, y, fy, incy, rj, lane);
    const double xj = s.unit ? vj : vj / __shfl_sync(kFull, diag, j);
    if (lane == j) {
      y[fy + r * incy] = xj;
      sh.xs[g * 32 + lane] = xj;
    }
    __syncwarp();
  }
}


__global__ void __launch_bounds__(kWaveThreads, 1) wave_kernel(exstar_trsv_shape s, const double *__restrict__ t,
                                                            const exstar_i64 *__restrict__ accs, double *y,
                                                            long long fy, long long incy, unsigned *sync)
{
  __shared__ wave_shared sh;
  extern __shared__ double dblk[]; // op(T)(row i, step base + k) at dblk[k * kLd + i]
  const int me = threadIdx.x, lane = me & 31, warp = me >> 5;
  const int tile = warp % kTiles, part = warp / kTiles, i = tile * 32 + lane;
  if (me == 0) sh.block = atomicAdd(sync, 1u);
  __syncthreads();
  const long long blk = sh.block, base = blk * kWaveRows;
  const int len = (int)(s.nb - base < kWaveRows ? s.nb - base : kWaveRows);
  const bool mine = i < len;
  const long long r = mine ? row_of(s, base + i) : 0;
  const row_walk w = walk_of(s, t, r);
  load_diagonal_tile(dblk, s, t, base, len, me);
  exstar_bdd d = bdd_zero(), d2 = bdd_zero();
  int ok = 1;
  if (mine && part == 0)
    ok = exstar_bdd_init_acc(accs + r * EXSTAR_ACC_WORDS, &d) && exstar_bdd_add(&d, __ldcg(y + fy + r * incy));
  // A: the tiles of 32 rows before this block, as their flags come up (the last one's terms
  // are all that is left once the block before is solved)
  for (long long c = 0; c < blk * kTiles; ++c) {
    double a[kSpan];
    load_row(a, w, c * 32 + part * kSpan, mine); // before the wait: T does not depend on x
    if (me == 0) wait_flag(sync + 1 + c);
    __syncthreads();
    if (me < 32) sh.xs[me] = __ldcg(y + fy + row_of(s, c * 32 + me) * incy);
    __syncthreads();
    ok &= add_terms(d, d2, a, sh.xs + part * kSpan);
  }
  exstar_bdd_merge(&d, &d2);
  // B: the block's own tiles
  const double diag = mine && !s.unit ? dblk[i * kLd + i] : 1.0;
  const double rh = 1.0 / diag, rl = fma(-rh, diag, 1.0) * rh; // 1/diag as a double-double
  for (int g = 0; g < kTiles && g * 32 < len; ++g) {
    if (tile == g && part > 0) {
      sh.parts[part - 1][i] = d;
      sh.parts_ok[part - 1][i] = ok;
      d = bdd_zero();
      ok = 1;
    }
    __syncthreads();
    if (tile == g && part == 0) {
#pragma unroll
      for (int q = 0; q < kParts - 1; ++q) {
        exstar_bdd_merge(&d, &sh.parts[q][i]);
        ok &= sh.parts_ok[q][i];
      }
      const int glen = len - g * 32 < 32 ? len - g * 32 : 32;
      solve_tile(sh, s, t, accs, y, fy, incy, base + g * 32, g, glen, d, ok, dblk + g * 32 * kLd + i, diag, rh, rl, r,
                 lane);
    }
    __syncthreads();
    if (warp == g) { // tile g published (its stores fenced) while the next tile goes on
      __threadfence();
      if (lane == 0) atomicExch(sync + 1 + blk * kTiles + g, 1u);
    }
    if (tile > g) {
      double c[kSpan];
#pragma unroll
      for (int k = 0; k < kSpan; ++k) c[k] = dblk[(g * 32 + part * kSpan + k) * kLd + i];
      d2 = bdd_zero();
      ok &= add_terms(d, d2, c, sh.xs + g * 32 + part * kSpan);
      exstar_bdd_merge(&d, &d2);
    }
  }
}

__global__ void resid_kernel(exstar_trsv_shape s, const double *__restrict__ t,
                             const exstar_i64 *__restrict__ accs, const double *x, long long fx,
                             long long incx, const double *b, long long fb, long long incb, double *r,
                             long long fr, long long incr)
{
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.nb) return;
  exstar_i64 a[EXSTAR_ACC_WORDS];
  for (int w = 0; w < EXSTAR_ACC_WORDS; ++w) a[w] = accs[i * EXSTAR_ACC_WORDS + w];
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = exstar_sum_step_private(a, fpe, b[fb + i * incb]);
  flags |= exstar_trsv_row_terms_cuda_private(a, fpe, s.forward, s.trans, s.unit, 1, s.nb, i, t, s.t0, s.ldt,
                                              x, fx, incx, 0, 1);
  exstar_acc_flush_fpe_private(a, fpe);
  exstar_acc_add_flags_private(a, flags);
  r[fr + i * incr] = exstar_acc_round_private(a);
}

__global__ void update_kernel(long long n, int add, const double *d, long long fd, long long incd, double *x,
                              long long fx, long long incx)
{
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  x[fx + i * incx] = add ? x[fx + i * incx] + d[fd + i * incd] : d[fd + i * incd]; // one IEEE add: RN
}

int blocks_for(long long n, int threads) { return (int)((n + threads - 1) / threads); }

} // namespace

extern "C" int exstar_cuda_trsv_solve(const exstar_trsv_shape *s, const double *t, const long long *accs,
                                      double *y, int64_t offy, int64_t incy, exstar_cuda_stream stream)
{
  if (s->nb <= 0) return 0;
  if (!t || !accs || !y || incy == 0) return -(int)cudaErrorInvalidValue;
  // the wave's tickets and flags: one word each, zeroed, freed once the kernel is done
  const long long blocks = (s->nb + kWaveRows - 1) / kWaveRows;
  const size_t bytes = (size_t)(blocks * kTiles + 1) * sizeof(unsigned);
  unsigned *sync = nullptr;
  cudaStream_t st = (cudaStream_t)stream;
  cudaError_t e = cudaMallocAsync((void **)&sync, bytes, st);
  if (e != cudaSuccess) return -(int)e;
  e = cudaMemsetAsync(sync, 0, bytes, st);
  if (e != cudaSuccess) {
    cudaFreeAsync(sync, st);
    return -(int)e;
  }
  e = cudaFuncSetAttribute(wave_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kTileBytes);
  if (e != cudaSuccess) {
    cudaFreeAsync(sync, st);
    return -(int)e;
  }
  wave_kernel<<<(unsigned)blocks, kWaveThreads, kTileBytes, st>>>(
      *s, t, accs, y, exstar_first_index(s->nb, offy, incy), incy, sync);
  const int launched = exstar_cuda_check_launch();
  e = cudaFreeAsync(sync, st);
  if (launched != 0) return launched;
  return e == cudaSuccess ? 0 : -(int)e;
}

extern "C" int exstar_cuda_trsv_resid(const exstar_trsv_shape *s, const double *t, const long long *accs,
                                      const double *x, int64_t offx, int64_t incx, const double *b,
                                      int64_t offb, int64_t incb, double *r, int64_t offr, int64_t incr,
                                      exstar_cuda_stream stream)
{
  if (s->nb <= 0) return 0;
  if (!t || !accs || !x || !b || !r || incx == 0 || incb == 0 || incr == 0) return -(int)cudaErrorInvalidValue;
  resid_kernel<<<blocks_for(s->nb, 64), 64, 0, (cudaStream_t)stream>>>(
      *s, t, accs, x, exstar_first_index(s->nb, offx, incx), incx, b, exstar_first_index(s->nb, offb, incb), incb,
      r, exstar_first_index(s->nb, offr, incr), incr);
  return exstar_cuda_check_launch();
}

extern "C" int exstar_cuda_trsv_update(int64_t n, int add, const double *d, int64_t offd, int64_t incd,
                                       double *x, int64_t offx, int64_t incx, exstar_cuda_stream stream)
{
  if (n <= 0) return 0;
  if (!d || !x || incd == 0 || incx == 0) return -(int)cudaErrorInvalidValue;
  update_kernel<<<blocks_for(n, 256), 256, 0, (cudaStream_t)stream>>>(
      n, add, d, exstar_first_index(n, offd, incd), incd, x, exstar_first_index(n, offx, incx), incx);
  return exstar_cuda_check_launch();
}
