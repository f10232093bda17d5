// The symmetric matrices the Cholesky tests factor (tests/lu/test_potrf.cpp, the CUDA kernels'
// test): exact factors with a chosen condition or pivot, random SPD, and exact two-sided scaling.
#pragma once
#include "generators.hpp"
#include <algorithm>
#include <cmath>
#include <vector>

namespace exstar_test {

// A = L·Lᵀ for a unit lower L with small integer entries: every entry of A is an integer below
// 2^53, so A is exactly SPD with exactly that factor, and its condition grows like the square of
// L's (beyond 1e40 for large entries). shift is added to a(k, k): −1 makes the k-th exact pivot
// value 0, a bit more negative makes A indefinite, a bit less keeps it definite when k is the
// last column (an earlier pivot shifted so also changes the Schur complement after it).
inline std::vector<double> from_factor(int n, int range, Rng &rng, int k = -1, double shift = 0.0)
{
  std::vector<double> L((size_t)n * n, 0.0), A((size_t)n * n, 0.0);
  for (int j = 0; j < n; ++j) {
    L[j + (size_t)j * n] = 1.0;
    for (int i = j + 1; i < n; ++i) L[i + (size_t)j * n] = (double)(int)rand_below(rng, 2 * range + 1) - range;
  }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double s = 0.0; // integers: every product and partial sum exact
      for (int q = 0; q <= std::min(i, j); ++q) s += L[i + (size_t)q * n] * L[j + (size_t)q * n];
      A[i + (size_t)j * n] = s;
    }
  if (k >= 0) A[k + (size_t)k * n] += shift;
  return A;
}

// B·Bᵀ + n·I in double (symmetric: each entry computed once, mirrored), a random SPD matrix.
inline std::vector<double> random_spd(int n, Rng &rng)
{
  const std::vector<double> B = gen_uniform(n * n, rng);
  std::vector<double> A((size_t)n * n);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      double s = i == j ? (double)n : 0.0;
      for (int q = 0; q < n; ++q) s += B[i + (size_t)q * n] * B[j + (size_t)q * n];
      A[i + (size_t)j * n] = A[j + (size_t)i * n] = s;
    }
  return A;
}

// D·A·D with D = diag(2^e_i), e_i uniform in [emin, emax]: exact scaling while nothing becomes
// subnormal, so definiteness is kept; below that the matrix is whatever the rounding made it.
inline std::vector<double> scaled(int n, std::vector<double> A, int emin, int emax, Rng &rng)
{
  std::vector<int> e((size_t)n);
  for (int &x : e) x = emin + (int)rand_below(rng, (uint64_t)(emax - emin + 1));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) A[i + (size_t)j * n] = std::ldexp(std::ldexp(A[i + (size_t)j * n], e[i]), e[j]);
  return A;
}

} // namespace exstar_test
