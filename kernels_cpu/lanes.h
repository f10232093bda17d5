// SIMD lanes of independent FPEs for the CPU kernels (dot, gemv): component k of lane l at
// fpe[k][l], so that the lane loops below are branch-free (TwoProd, then exstar_fpe_add_full)
// and the compiler vectorises them. Products outside the exact TwoProd window and the rare
// spills of an FPE are reported per lane and handled afterwards by the scalar core steps, so
// every input takes an exact path. Lane l adds into the accumulator acc + l*astride: astride 0
// for one accumulator (dot, gemv 'T'), EXSTAR_ACC_WORDS for one per lane (gemv 'N', a row per
// lane). No new arithmetic: only core/accumulator.h and core/acc_ops.inc steps.
//
// Include after defining EXSTAR_FPE_N (speed only: the result never depends on it).
#ifndef EXSTAR_KERNELS_CPU_LANES_H
#define EXSTAR_KERNELS_CPU_LANES_H
#include <stdint.h>
#include "kernels_cpu/acc_cpu.h"

#define EXSTAR_LANES_INLINE __attribute__((always_inline)) inline

// Internal linkage (the inner anonymous namespace): the AVX-512 copies of the kernels
// (wide_*.cpp) compile these helpers for another target, and no copy may stand in for another.
namespace exstar_lanes {
namespace {

constexpr int L = EXSTAR_CPU_LANES;
constexpr int kNonzero = EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY; // flags of a fast term

struct lanes {
  double fpe[EXSTAR_FPE_N][L] = {};  // the products p = RN(x*y)
  double err[EXSTAR_FPE_N][L] = {};  // their errors e = x*y - p: a separate chain, for ILP
};

// What one batch left to the scalar code: per-lane remainders, and whether any lane was slow
// (a product outside the TwoProd window: it added nothing, see lane_fast) or spilled.
struct batch {
  double rp[L], re[L];
  long long any_slow, any_spill;
};

// Whether lane l's product took the fast path (the same test as add_products), for the rare
// batches with slow lanes: recomputing it is cheaper than keeping a mask per lane.
inline bool lane_fast(double x, double y)
{
  double p, e;
  return exstar_two_prod_fast(x, y, &p, &e);
}

// Adds x[l]*y_l for the L lanes (y_l = y[0] when kBroadcast, else y[l]). Slow lanes add
// nothing here; the caller takes them (lane_fast(x[l], y_l) false), and pads a short batch
// with x[l] == 0 (never fast). Spills are left in b. The masks are 64-bit wide, like the
// doubles, so that the loops vectorise without shuffles.
template <bool kBroadcast>
EXSTAR_LANES_INLINE void add_products(lanes &F, const double *x, const double *y, batch &b)
{
  double p[L], e[L];
  long long any_slow = 0, any_spill = 0;
  for (int l = 0; l < L; ++l) {
    const long long fast = exstar_two_prod_fast(x[l], kBroadcast ? y[0] : y[l], &p[l], &e[l]);
    any_slow |= !fast;
    p[l] = fast ? p[l] : 0.0;
    e[l] = fast ? e[l] : 0.0;
  }
  for (int l = 0; l < L; ++l) {
    b.rp[l] = exstar_fpe_add_full(&F.fpe[0][l], L, p[l]);
    b.re[l] = exstar_fpe_add_full(&F.err[0][l], L, e[l]);
    any_spill |= (long long)((b.rp[l] != 0.0) | (b.re[l] != 0.0) | !(fabs(F.fpe[0][l]) < EXSTAR_FPE_HEAD_MAX));
  }
  b.any_slow = any_slow;
  b.any_spill = any_spill;
}

// Deposits the spills of a batch (what did not fit, and heads grown too large), exactly.
inline void spill(lanes &F, const batch &b, exstar_i64 *acc, int64_t astride, int count)
{
  for (int l = 0; l < count; ++l) {
    exstar_i64 *a = acc + l * astride;
    if (b.rp[l] != 0.0) exstar_acc_add_double_cpu(a, b.rp[l]);
    if (b.re[l] != 0.0) exstar_acc_add_double_cpu(a, b.re[l]);
    if (!(fabs(F.fpe[0][l]) < EXSTAR_FPE_HEAD_MAX)) exstar_acc_add_double_cpu(a, F.fpe[0][l]), F.fpe[0][l] = 0.0;
  }
}

// add_products, then the spills: the whole fast part of a batch.
template <bool kBroadcast>
EXSTAR_LANES_INLINE void add_batch(lanes &F, const double *x, const double *y, int count, exstar_i64 *acc,
                                   int64_t astride, batch &b)
{
  add_products<kBroadcast>(F, x, y, b);
  if (b.any_spill) spill(F, b, acc, astride, count);
}

// Empties the lanes l < count into their accumulators (and zeroes them).
inline void flush(lanes &F, exstar_i64 *acc, int64_t astride, int count)
{
  for (int k = 0; k < EXSTAR_FPE_N; ++k)
    for (int l = 0; l < count; ++l) {
      exstar_i64 *a = acc + l * astride;
      if (F.fpe[k][l] != 0.0) exstar_acc_add_double_cpu(a, F.fpe[k][l]);
      if (F.err[k][l] != 0.0) exstar_acc_add_double_cpu(a, F.err[k][l]);
      F.fpe[k][l] = F.err[k][l] = 0.0;
    }
}

} // namespace
} // namespace exstar_lanes

#endif
