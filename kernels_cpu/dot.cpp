// Exact dot product on the CPU: acc += Σ x_i·y_i.
// Short expansions: with 32 lanes and products and errors in separate chains, two components
// hold almost every partial sum; what does not fit spills to the accumulator, exactly. The
// length changes speed only, never a result (measured: 2 is ~1.7x faster than 4 in cache).
#define EXSTAR_FPE_N 2
#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cpu/acc_cpu.h"
#include "kernels_cpu/lanes.h"
#include "kernels_cpu/wide.h"

namespace {

using namespace exstar_lanes; // SIMD lanes of independent FPEs, slow lanes and spills exact

// One batch of L terms x[i]*y[i]; returns the special flags of the batch. Inlined so that the
// lanes stay in registers across batches.
EXSTAR_LANES_INLINE int dot_batch(lanes &F, const double *x, const double *y, exstar_i64 *acc)
{
  batch b;
  add_batch<false>(F, x, y, L, acc, 0, b);
  if (!b.any_slow) return kNonzero;
  int flags = 0;
  for (int l = 0; l < L; ++l) {
    if (lane_fast(x[l], y[l])) { flags |= kNonzero; continue; }
    int deposit;
    flags |= exstar_product_flags(x[l], y[l], &deposit);
    if (deposit) exstar_acc_add_product_cpu(acc, x[l], y[l]);
  }
  return flags;
}

void dot_unit(int64_t n, const double *x, const double *y, exstar_i64 *acc)
{
  lanes F;
  int flags = 0;
  int64_t i = 0;
  for (; i + L <= n; i += L) flags |= dot_batch(F, x + i, y + i, acc);
  double fpe[EXSTAR_FPE_N] = {};
  for (; i < n; ++i) flags |= exstar_dot_step_cpu(acc, fpe, x[i], y[i]);
  exstar_acc_flush_fpe_cpu(acc, fpe);
  flush(F, acc, 0, L);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}

} // namespace

void EXSTAR_CPU_ENTRY(exstar_cpu_dot)(int64_t n, const double *x, int64_t offx, int64_t incx,
                                      const double *y, int64_t offy, int64_t incy, exstar_i64 *acc)
{
  EXSTAR_CPU_TRY_WIDE(exstar_cpu_dot_wide(n, x, offx, incx, y, offy, incy, acc));
  if (incx == 1 && incy == 1) {
    dot_unit(n, x + offx, y + offy, acc);
    return;
  }
  // Strided vectors: gather L elements at a time into the batch layout.
  int64_t fx = exstar_first_index(n, offx, incx), fy = exstar_first_index(n, offy, incy);
  lanes F;
  int flags = 0;
  int64_t i = 0;
  double bx[L], by[L];
  for (; i + L <= n; i += L) {
    for (int l = 0; l < L; ++l) bx[l] = x[fx + (i + l) * incx], by[l] = y[fy + (i + l) * incy];
    flags |= dot_batch(F, bx, by, acc);
  }
  double fpe[EXSTAR_FPE_N] = {};
  for (; i < n; ++i) flags |= exstar_dot_step_cpu(acc, fpe, x[fx + i * incx], y[fy + i * incy]);
  exstar_acc_flush_fpe_cpu(acc, fpe);
  flush(F, acc, 0, L);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}

#ifndef EXSTAR_CPU_WIDE
void exstar_cpu_dot_ref(int64_t n, const double *x, int64_t offx, int64_t incx,
                        const double *y, int64_t offy, int64_t incy, exstar_i64 *acc)
{
  int64_t fx = exstar_first_index(n, offx, incx), fy = exstar_first_index(n, offy, incy);
  double fpe[EXSTAR_FPE_N] = {};
  int flags = 0;
  for (int64_t i = 0; i < n; ++i)
    flags |= exstar_dot_step_cpu(acc, fpe, x[fx + i * incx], y[fy + i * incy]);
  exstar_acc_flush_fpe_cpu(acc, fpe);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}
#endif
