// What 'exstar sum', 'nrm2' and 'dot' share: their options, and the run of a subcommand that
// reads one vector and prints one scalar.
#ifndef EXSTAR_TOOL_VECTOR_SCALAR_HPP
#define EXSTAR_TOOL_VECTOR_SCALAR_HPP

#include "cli.hpp"
#include <cstdint>
#include <vector>

namespace cli {

// The runtime options, --plain and --hex.
std::vector<OptSpec> scalar_options();

// Reads the one vector file (its memory checked from its size line first), then prints
// exact(n, x, 1, &r)'s r in a Session, or with --plain plain(x) without StarPU (noted on
// stderr as `name`'s baseline).
int run_vector_scalar(const Args &args, const char *name, double (*plain)(const std::vector<double> &),
                      int (*exact)(int64_t n, const double *x, int64_t incx, double *result));

} // namespace cli

#endif
