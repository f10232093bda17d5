// The bound the fuzzer and its replay pass to the MatrixMarket reader: at most this many
// elements (rows x cols) and coordinate entries. The tool's own bound (16 GiB of doubles) is a
// legitimate request for a 40-byte file, which the fuzzer would report as running out of memory;
// this one keeps every input cheap and still exercises every path of the reader.
#ifndef EXSTAR_FUZZ_LIMITS_HPP
#define EXSTAR_FUZZ_LIMITS_HPP
#include <cstdint>

namespace exstar_fuzz {
const int64_t max_elements = int64_t(1) << 16;
}

#endif
