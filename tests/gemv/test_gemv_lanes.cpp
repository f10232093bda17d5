// The CPU gemv fast path (SIMD lanes, kernels_cpu/lanes.h) against the plain reference path,
// word for word on the normalized accumulators (canonical: same exact value and special terms
// give the same words; the kernels may leave them unnormalized after a short call), on random shapes long enough for several lane batches and row blocks,
// with specials, zeros, huge and tiny entries and every kind of alpha.
// One Catch2 main per program: test_gemv_kernels.cpp, built with CATCH_CONFIG_MAIN, has it.
#undef CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cpu/gemv.h"
#include "kernels_cpu/acc_cpu.h"
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

// kind 0: uniform; 1: exponents -1000..1000; 2: mostly moderate with specials, zeros, edges.
double gen(std::mt19937_64 &rng, int kind)
{
  const double v = std::uniform_real_distribution<double>(-1, 1)(rng);
  if (kind == 0) return v;
  if (kind == 1) return std::ldexp(v, (int)(rng() % 2000) - 1000);
  const int r = (int)(rng() % 100);
  const double inf = std::numeric_limits<double>::infinity();
  if (r < 3) return 0.0;
  if (r < 5) return -0.0;
  if (r < 6) return inf;
  if (r < 7) return -inf;
  if (r < 8) return std::numeric_limits<double>::quiet_NaN();
  if (r < 12) return std::ldexp(v, 1000);
  if (r < 16) return std::ldexp(v, -1060);
  return std::ldexp(v, (int)(rng() % 200) - 100);
}

} // namespace

TEST_CASE("CPU gemv lanes path gives the reference path's accumulators", "[gemv][kernels]")
{
  std::mt19937_64 rng(7);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double alphas[] = {1.0, -1.0, 0.25, 0.1, 3.0, 0.0, -0.0, 0x1p600, 0x1p-600, inf, nan};
  for (int it = 0; it < 400; ++it) {
    int m = (int)(rng() % 1100), n = (int)(rng() % 60);
    if (it % 7 == 0) std::swap(m, n);
    const int lda = m + (int)(rng() % 3) + 1, kind = (int)(rng() % 3);
    const char tr = it % 2 ? 'N' : 'T';
    const double alpha = alphas[rng() % 11];
    int incx = (int)(rng() % 3) + 1;
    if (rng() % 2) incx = -incx;
    const int lx = tr == 'N' ? n : m, ly = tr == 'N' ? m : n;
    std::vector<double> A((size_t)lda * (n > 0 ? n : 1) + 1), x((size_t)(lx > 0 ? (lx - 1) * std::abs(incx) + 1 : 1));
    for (double &v : A) v = gen(rng, kind);
    for (double &v : x) v = gen(rng, rng() % 4 == 0 ? 2 : kind);
    if (rng() % 5 == 0)
      for (double &v : x)
        if (rng() % 3 == 0) v = 0.0;
    std::vector<exstar_i64> fast((size_t)(ly + 2) * EXSTAR_ACC_WORDS), ref(fast.size());
    exstar_cpu_acc_zero(fast.data(), ly + 2);
    exstar_cpu_acc_zero(ref.data(), ly + 2);
    exstar_cpu_gemv_acc(tr, m, n, alpha, A.data(), 1, lda, x.data(), 0, incx, fast.data(), 1);
    exstar_cpu_gemv_acc_ref(tr, m, n, alpha, A.data(), 1, lda, x.data(), 0, incx, ref.data(), 1);
    for (size_t k = 0; k < fast.size(); k += EXSTAR_ACC_WORDS) {
      exstar_acc_normalize_cpu(fast.data() + k);
      exstar_acc_normalize_cpu(ref.data() + k);
    }
    INFO("case " << it << ": trans " << tr << ", m " << m << ", n " << n << ", alpha " << alpha << ", data kind "
                 << kind << ", incx " << incx);
    CHECK(fast == ref);
  }
}
