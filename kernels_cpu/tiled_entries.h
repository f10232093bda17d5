// How the tiled factorizations' CPU kernels compute one entry (kernels_cpu/lu_tiled.cpp,
// kernels_cpu/potrf_tiled.cpp): from its GEMM-accumulate state plus the panel's own terms when
// the state's bound proves the rounding, else exactly from all its terms; and the Level-3 fast
// update of a block of states. C++ only, internal to kernels_cpu.
#ifndef EXSTAR_KERNELS_CPU_TILED_ENTRIES_H
#define EXSTAR_KERNELS_CPU_TILED_ENTRIES_H
#include "kernels_cpu/gemm_sums.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/checked_round.h"
#include "core/gemm.h"

namespace exstar_tiled {

using exstar_gemm::view;

// acc := the exact value a − Σ_{k<kend} l(k)·u(k), a and every −l·u an exact term (acc zeroed
// by the caller).
template <class L, class U>
void exact_value(exstar_i64 acc[EXSTAR_ACC_WORDS], double a, int64_t kend, const L &l, const U &u)
{
  double fpe[EXSTAR_FPE_N];
  exstar_fpe_zero(fpe);
  int flags = exstar_sum_step_cpu(acc, fpe, a);
  for (int64_t k = 0; k < kend; ++k) flags |= exstar_dot_step_cpu(acc, fpe, -l(k), u(k));
  exstar_acc_flush_fpe_cpu(acc, fpe);
  exstar_acc_add_flags_cpu(acc, flags);
}

// The definition's exact value RN(a − Σ_{k<kend} l(k)·u(k)).
template <class L, class U>
double exact_sum(double a, int64_t kend, const L &l, const U &u)
{
  exstar_i64 acc[EXSTAR_ACC_WORDS] = {};
  exact_value(acc, a, kend, l, u);
  return exstar_acc_round_private(acc);
}

// d (the state with the terms k < k0) plus the terms k in [k0, kend), rounded when the bound
// proves it; 0 when it declines.
template <class L, class U>
int checked_sum(exstar_bdd d, int64_t k0, int64_t kend, const L &l, const U &u, double *y)
{
  int ok = 1;
  for (int64_t k = k0; k < kend; ++k) ok &= exstar_bdd_add_product(&d, -l(k), u(k));
  return ok & exstar_bdd_round_ok(&d, y);
}

// st(i, j) −= Σ_l A(i, l)·B(l, j) through the fast sums, for an m x n block of states (a view's
// element (i, j) is st[i*srs + j*scs]).
inline void state_update(int64_t m, int64_t n, int64_t k, const view &A, const view &B, exstar_bdd *st,
                         int64_t srs, int64_t scs)
{
  if (m <= 0 || n <= 0 || k <= 0) return;
  static thread_local exstar_gemm::sums kept; // reused by the many small updates of a panel
  exstar_gemm::sums once;
  exstar_gemm::sums &f = m * n <= ((int64_t)1 << 16) ? kept : once;
  exstar_gemm::fast_sums(m, n, k, A, B, f);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const size_t x = (size_t)(i + j * m);
      exstar_gemm_state_add(&st[i * srs + j * scs], f.S[x], f.R[x], exstar_gemm_bound(k, f.sigma[x]), -1.0); // f.bound(i, j)
    }
}

} // namespace exstar_tiled
#endif
