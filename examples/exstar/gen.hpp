// exstar gen: test data with a chosen condition number (the generators behind cmd_gen.cpp).
#ifndef EXSTAR_TOOL_GEN_HPP
#define EXSTAR_TOOL_GEN_HPP

#include "cli.hpp"
#include <cstdint>
#include <random>
#include <vector>

namespace cli {

// Uniform doubles from a seeded 64-bit Mersenne Twister, converted by hand (53 random bits) so
// that a seed gives the same data with every C++ library.
class Rng {
public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  double unit() { return (double)(engine_() >> 11) * 0x1p-53; }  // [0, 1)
  double symmetric() { return 2.0 * unit() - 1.0; }              // [-1, 1)
  double nonzero_symmetric()
  {
    double v;
    while ((v = symmetric()) == 0.0) {}
    return v;
  }
  uint64_t below(uint64_t n) { return engine_() % n; }  // slight bias is irrelevant here

private:
  std::mt19937_64 engine_;
};

// The parameters common to every generator.
struct GenParams {
  int64_t n;
  double cond;
  uint64_t seed;
};

// gen vector: an ill-conditioned dot pair; runs the library (args give the back ends).
int gen_vector(const Args &args, const GenParams &p);
// gen matrix / gen triangular: plain double arithmetic in the tool, no library call.
int gen_matrix(const Args &args, const GenParams &p);
int gen_triangular(const Args &args, const GenParams &p);

} // namespace cli

#endif
