// The exstar tool's two kinds of error, apart from cli.hpp so that the MatrixMarket reader
// (mmio.hpp) builds without the library or StarPU: the fuzzer and its replay test use it alone.
#ifndef EXSTAR_TOOL_ERRORS_HPP
#define EXSTAR_TOOL_ERRORS_HPP

#include <stdexcept>

namespace cli {

// A mistake on the command line; main prints it with the subcommand's name and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Anything else that stops a run (a malformed file, a library error); main prints it, exits 1.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

} // namespace cli

#endif
