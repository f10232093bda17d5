// Deterministic input generators for exstar's tests. Every generator draws from a
// std::mt19937_64 given by the caller (or seeded from `seed`), and builds doubles from raw random
// bits with exactly specified integer/IEEE steps, so the same seed gives the same bits with any
// standard library (no std::*_distribution, no std::shuffle, no libm pow/exp).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace exstar_test {

using Rng = std::mt19937_64;

// ---- scalars and simple vectors ---------------------------------------------------------------
std::uint64_t rand_below(Rng& rng, std::uint64_t bound); // uniform in [0, bound), unbiased; bound > 0
double rand_unit(Rng& rng);                              // uniform in [0,1), multiples of 2^-53
double rand_sym(Rng& rng);                               // uniform in [-1,1), multiples of 2^-52

std::vector<double> gen_uniform(int n, Rng& rng); // entries rand_sym
// +-m * 2^e, m uniform in [1,2) (52 random bits), e uniform in [emin, emax], random sign.
// For e < -1022 the value is rounded into the subnormals by ldexp (RN). Needs -1074 <= emin <= emax <= 1023.
std::vector<double> gen_exp_spread(int n, int emin, int emax, Rng& rng);
std::vector<double> gen_subnormal(int n, Rng& rng); // random nonzero subnormals, random sign
// +-(DBL_MAX - k ulp), k uniform in [0, max_ulps_below].
std::vector<double> gen_near_max(int n, Rng& rng, std::uint64_t max_ulps_below = 1u << 20);
// Each entry is, with probability p_special, one of NaN, +inf, -inf, +0, -0 (equally likely);
// otherwise rand_sym.
std::vector<double> gen_special(int n, Rng& rng, double p_special = 0.25);

// ---- permutations -----------------------------------------------------------------------------
std::vector<int> random_permutation(int n, Rng& rng); // Fisher-Yates with rand_below
template <class T>
std::vector<T> permuted(const std::vector<T>& v, const std::vector<int>& perm)
{
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        out[i] = v[static_cast<std::size_t>(perm[i])];
    return out;
}
template <class T>
void shuffle(std::vector<T>& v, Rng& rng)
{
    v = permuted(v, random_permutation(static_cast<int>(v.size()), rng));
}

// ---- ill-conditioned sums and dot products ----------------------------------------------------
struct DotProblem {
    std::vector<double> x, y;
    double cond; // achieved cond_dot(x, y) = 2 sum|x_i y_i| / |sum x_i y_i| (exact, via MPFR)
};
// Ogita-Rump-Oishi GenDot ("Accurate sum and dot product", SISC 2005, Algorithm 6.1) with the
// running dot products evaluated exactly by MPFR, so it works for cond up to ~1e40 and beyond.
// n >= 6. The achieved condition number is returned; check it rather than assuming it. Measured
// (cond 1e3..1e40, n 6..2000): between cond/1.5 and cond*20 for n <= 50; it grows with n, up to
// cond*500 at n = 2000 (for cond = 1e3: 1.6e5 at n = 500, 2.9e5 at n = 2000), as in the paper.
DotProblem gen_dot_cond(int n, double cond, Rng& rng);

struct SumProblem {
    std::vector<double> x;
    double cond; // achieved cond_sum(x) = sum|x_i| / |sum x_i|
};
// A sum with condition number about cond: GenDot's products split exactly into two doubles each
// (p = x*y, e = fma(x,y,-p)), shuffled. n >= 12 terms (a +0 pads odd n).
SumProblem gen_sum_cond(int n, double cond, Rng& rng);
// (n-1)/2 random terms with exponents in [emin, emax], their exact negations, and `residual`,
// shuffled (a +0 pads even n): the exact sum is exactly `residual`. n >= 1.
std::vector<double> gen_sum_cancel(int n, double residual, int emin, int emax, Rng& rng);

// Hand-computed cases (expected value worked out by hand, not by the oracle). A sum case has
// y = all ones. `expected` may be NaN (compare with std::isnan) or a signed zero (compare signs).
struct DotCase {
    std::string name;
    std::vector<double> x, y;
    double expected;
};
// Products that overflow or underflow in double although the exact result is representable,
// subnormal rounding (ties to even), overflow of the exact sum, ties at 2^53 and at DBL_MAX.
std::vector<DotCase> extreme_dot_cases();
// NaN, +-inf and signed-zero rules of DESIGN.md.
std::vector<DotCase> special_dot_cases();

// ---- matrices (column-major, n x n, leading dimension n) --------------------------------------
// A = Q1 * diag(sigma) * Q2 with sigma_i = cond^(-i/(n-1)) (correctly rounded via MPFR),
// i = 0..n-1, and Q1, Q2 products of n Householder reflectors with random [-1,1) vectors, all in
// double arithmetic. In exact arithmetic cond_2(A) = cond. The stored matrix carries rounding
// errors of about n*eps*||A||, so this holds only approximately: measured cond_1 (n = 10..200,
// long double inverse) is within a factor 1..25 above cond for cond up to 1e16; a request of
// 1e20 gave 1e17..3e19, i.e. beyond ~1e16 the value saturates and is not controlled.
// n >= 2, cond >= 1. Cost O(n^3).
std::vector<double> gen_matrix_cond(int n, double cond, std::uint64_t seed);
// The U factor of a plain double partial-pivoting LU of gen_matrix_cond(n, cond, seed) ('U'), or
// its transpose ('L'); the other triangle is zero, the diagonal is nonzero (not unit). Measured
// cond_1 (n = 10..200): between cond/10 and cond*80 for cond from 1e2 to 1e16 (the factor above
// cond only for small cond with large n); 1e20 requested gave 3e16..6e17 (saturation, as above).
std::vector<double> gen_triangular_cond(char uplo, int n, double cond, std::uint64_t seed);

} // namespace exstar_test
