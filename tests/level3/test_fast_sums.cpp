// The fast path's sums (core/gemm.h) against MPFR: the fold keeps S + R exactly and leaves R
// below 2^-52 sigma, and a folding loop's S + R lies within exstar_gemm_bound of the exact sum
// of the products (an unfolded loop within exstar_gemm_bound_unfolded), for every input class
// and term counts around the fold period.
#include <catch2/catch.hpp>
#include "tests/level3/level3_cases.hpp"
#include "tests/support/mpfr_value.hpp"
#include "core/accumulator.h"
#include "core/checked_round.h"
#include "core/gemm.h"
#include <cmath>

using namespace exstar_test;

namespace {

constexpr mpfr_prec_t kPrec = 4400; // every sum of doubles and double products is exact

// |S + R - sum a_l b_l| computed exactly, as a double rounded up (0 when S or R is not finite).
double sum_error(double S, double R, const std::vector<double> &a, const std::vector<double> &b)
{
  MpfrValue err(kPrec, S), t(kPrec);
  mpfr_add_d(err.get(), err.get(), R, MPFR_RNDN);
  for (size_t l = 0; l < a.size(); ++l) {
    mpfr_set_d(t.get(), a[l], MPFR_RNDN);
    mpfr_mul_d(t.get(), t.get(), b[l], MPFR_RNDN);
    mpfr_sub(err.get(), err.get(), t.get(), MPFR_RNDN);
  }
  mpfr_abs(err.get(), err.get(), MPFR_RNDN);
  return mpfr_get_d(err.get(), MPFR_RNDU);
}

int line_exp(const std::vector<double> &x)
{
  int e = EXSTAR_GEMM_EXP_ZERO;
  for (double v : x) e = exstar_line_exp_step(e, v);
  return e;
}

// The entry's fast sums: S exact (run_end), R; folding or not.
void fast_sums(const std::vector<double> &a, const std::vector<double> &b, double sigma, bool fold, double *S, double *R)
{
  double s = exstar_gemm_run_begin(0.0, sigma), r = 0.0;
  for (size_t l = 0; l < a.size(); ++l) {
    exstar_gemm_term(a[l], b[l], &s, &r);
    if (fold && exstar_gemm_folds_after((exstar_i64)l)) exstar_gemm_fold(&s, &r);
  }
  *S = exstar_gemm_run_end(s, sigma);
  *R = r;
}

} // namespace

TEST_CASE("fast sums: a fold keeps S + R exactly and leaves R within 2^-52 sigma", "[gemm][fold]")
{
  Rng rng(20261128);
  const double sigma = 0x1p20;
  for (int x = 0; x < 2000; ++x) {
    // a running sum of the fast path (within [sigma, 2 sigma], a multiple of 2^-52 sigma) and a
    // rests' sum up to 40 ulps of it, of either sign
    const double S0 = sigma * (1.0 + std::ldexp(std::floor(rand_unit(rng) * 0x1p52), -52));
    const double R0 = (rand_unit(rng) - 0.5) * 80.0 * 0x1p-52 * sigma;
    double S = S0, R = R0;
    exstar_gemm_fold(&S, &R);
    MpfrValue before(kPrec, S0), after(kPrec, S);
    mpfr_add_d(before.get(), before.get(), R0, MPFR_RNDN);
    mpfr_add_d(after.get(), after.get(), R, MPFR_RNDN);
    INFO("S0 " << S0 << " R0 " << R0);
    REQUIRE(mpfr_equal_p(before.get(), after.get()));
    REQUIRE(std::fabs(R) <= 0x1p-52 * sigma);
  }
}

TEST_CASE("fast sums: S + R within the bound, folding and not, every input class", "[gemm][fold]")
{
  Rng rng(20261129);
  for (const value_class &vc : level3_classes())
    for (int k : {1, 31, 32, 33, 64, 100, 512, 1500}) {
      const std::vector<double> a = vc.gen(k, rng), b = vc.gen(k, rng);
      const double sigma = exstar_gemm_sigma(line_exp(a), line_exp(b), exstar_gemm_count_exp(k));
      if (!std::isfinite(sigma)) continue; // a NaN or inf factor, or out of range: the entry declines
      for (bool fold : {true, false}) {
        double S, R;
        fast_sums(a, b, sigma, fold, &S, &R);
        const double E = fold ? exstar_gemm_bound(k, sigma) : exstar_gemm_bound_unfolded(k, sigma);
        INFO(vc.name << ", k = " << k << (fold ? ", folding" : ", unfolded") << ": S " << S << " R " << R << " E " << E);
        REQUIRE(std::isfinite(S));
        REQUIRE(std::isfinite(R));
        CHECK(sum_error(S, R, a, b) <= E);
      }
    }
}

TEST_CASE("fast sums: the folded bound is the unfolded one up to the fold period, and far below it beyond", "[gemm][fold]")
{
  const double sigma = 1.0;
  for (exstar_i64 k = 1; k <= EXSTAR_GEMM_FOLD + 2; ++k) REQUIRE(exstar_gemm_bound(k, sigma) == exstar_gemm_bound_unfolded(k, sigma));
  for (exstar_i64 k = EXSTAR_GEMM_FOLD + 3; k <= 4096; ++k) REQUIRE(exstar_gemm_bound(k, sigma) < exstar_gemm_bound_unfolded(k, sigma));
  CHECK(exstar_gemm_bound_unfolded(512, sigma) / exstar_gemm_bound(512, sigma) > 13.0);
}
