// The floating-point semantics exstar's exactness relies on, as compiled by this build:
// no contraction of a*b+c into FMA, no flush of subnormals to zero, no excess precision.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>

namespace {
// Opaque to the optimiser, so the operations happen at run time with the build's flags.
volatile double va = 1.0 + 0x1p-30, vb = 1.0 - 0x1p-30, vc = -1.0, vtiny = DBL_MIN;
double mul_add(double a, double b, double c) { return a * b + c; }
} // namespace

TEST_CASE("a*b+c is two roundings, never a contracted FMA", "[flags]")
{
  double a = va, b = vb, c = vc;
  // exact a*b = 1 - 2^-60: RN gives 1.0, so a*b+c == 0; an FMA would give -2^-60
  CHECK(mul_add(a, b, c) == 0.0);
  CHECK(std::fma(a, b, c) == -0x1p-60);
}

TEST_CASE("subnormals are kept, not flushed to zero", "[flags]")
{
  double t = vtiny;
  CHECK(t / 4 == 0x1p-1024);
  CHECK(t / 0x1p52 == 0x1p-1074);
}

TEST_CASE("double expressions are evaluated in double", "[flags]")
{
  CHECK(FLT_EVAL_METHOD == 0);
}
