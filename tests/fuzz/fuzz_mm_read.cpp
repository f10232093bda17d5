// libFuzzer target of the MatrixMarket reader (scripts/fuzz.sh builds and runs it). The reader's
// contract: any input either gives a matrix or throws cli::Failure. Any other exception escapes
// and, like a crash, a sanitizer report or a hang, is a finding.
#include "examples/exstar/mmio.hpp"
#include "tests/fuzz/fuzz_limits.hpp"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
  try {
    cli::Matrix m = cli::read_matrix(in, "fuzz.mtx", exstar_fuzz::max_elements);
    // What the tool relies on: the array holds exactly rows x cols values.
    if (m.rows < 0 || m.cols < 0 || m.values.size() != (size_t)(m.rows * m.cols)) std::abort();
  } catch (const cli::Failure &) {
    // a refused file: the expected outcome for most inputs
  }
  return 0;
}
