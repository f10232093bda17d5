// Exact dot product on the CPU: acc += Σ x_i·y_i.
// Short expansions: with 32 lanes and products and errors in separate chains, two components
// hold almost every partial sum; what does not fit spills to the accumulator, exactly. The
// length changes speed only, never a result (measured: 2 is ~1.7x faster than 4 in cache).
#define EXSTAR_FPE_N 2
#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cpu/acc_cpu.h"

namespace {

// SIMD lanes of independent FPEs, component k of lane l at fpe[k][l]: the lane loops below
// are branch-free (TwoProd, then exstar_fpe_add_full) and the compiler vectorises them.
// Products outside the exact TwoProd window and the rare spills of an FPE are handled per
// lane afterwards by the scalar core steps, so every input takes an exact path.
constexpr int L = EXSTAR_CPU_LANES;

struct lanes {
  double fpe[EXSTAR_FPE_N][L] = {};  // the products p = RN(x*y)
  double err[EXSTAR_FPE_N][L] = {};  // their errors e = x*y - p: a separate chain, for ILP
};

// One batch of L terms x[i]*y[i]; returns the special flags of the batch. Inlined so that the
// lanes stay in registers across batches.
__attribute__((always_inline)) inline int dot_batch(lanes &F, const double *x, const double *y, exstar_i64 *acc)
{
  double p[L], e[L], rp[L], re[L];
  int fast[L], any_slow = 0, any_spill = 0;
  for (int l = 0; l < L; ++l) {
    fast[l] = exstar_two_prod_fast(x[l], y[l], &p[l], &e[l]);
    any_slow |= !fast[l];
    p[l] = fast[l] ? p[l] : 0.0;
    e[l] = fast[l] ? e[l] : 0.0;
  }
  for (int l = 0; l < L; ++l) {
    rp[l] = exstar_fpe_add_full(&F.fpe[0][l], L, p[l]);
    re[l] = exstar_fpe_add_full(&F.err[0][l], L, e[l]);
    any_spill |= (rp[l] != 0.0) | (re[l] != 0.0) | !(fabs(F.fpe[0][l]) < EXSTAR_FPE_HEAD_MAX);
  }
  int flags = EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
  if (any_spill)
    for (int l = 0; l < L; ++l) {
      if (rp[l] != 0.0) exstar_acc_add_double_cpu(acc, rp[l]);
      if (re[l] != 0.0) exstar_acc_add_double_cpu(acc, re[l]);
      if (!(fabs(F.fpe[0][l]) < EXSTAR_FPE_HEAD_MAX)) exstar_acc_add_double_cpu(acc, F.fpe[0][l]), F.fpe[0][l] = 0.0;
    }
  if (any_slow) {
    flags = 0;
    for (int l = 0; l < L; ++l) {
      if (fast[l]) flags |= EXSTAR_FLAG_NOT_NEGZERO | EXSTAR_FLAG_ANY;
      else {
        int deposit;
        flags |= exstar_product_flags(x[l], y[l], &deposit);
        if (deposit) exstar_acc_add_product_cpu(acc, x[l], y[l]);
      }
    }
  }
  return flags;
}

void flush(lanes &F, exstar_i64 *acc)
{
  for (int k = 0; k < EXSTAR_FPE_N; ++k)
    for (int l = 0; l < L; ++l) {
      if (F.fpe[k][l] != 0.0) exstar_acc_add_double_cpu(acc, F.fpe[k][l]);
      if (F.err[k][l] != 0.0) exstar_acc_add_double_cpu(acc, F.err[k][l]);
    }
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
  flush(F, acc);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}

} // namespace

void exstar_cpu_dot(int64_t n, const double *x, int64_t offx, int64_t incx,
                    const double *y, int64_t offy, int64_t incy, exstar_i64 *acc)
{
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
  flush(F, acc);
  exstar_acc_add_flags_cpu(acc, flags);
  exstar_acc_normalize_cpu(acc);
}

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
