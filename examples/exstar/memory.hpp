// What a subcommand will hold in memory, checked against what this process may use before its
// inputs are allocated (issue 24): a file that declares a 40000 x 40000 matrix in three lines
// is refused with one line, instead of allocating until the kernel's OOM killer ends the run.
#ifndef EXSTAR_TOOL_MEMORY_HPP
#define EXSTAR_TOOL_MEMORY_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace cli {

class Args;

// rows * cols * bytes_each, saturating (declared sizes can be anything).
int64_t entries_bytes(int64_t rows, int64_t cols, int64_t bytes_each = 8);
// Sum, saturating.
int64_t plus(int64_t a, int64_t b);

// Throws Failure("COMMAND of WHAT needs about X of memory; this process may use Y (LIMIT);
// nothing computed") unless `bytes` (the command's arrays and the library's buffers, estimated
// by the caller), plus what starting the library takes when `runtime` (StarPU, its worker
// threads, OpenCL; estimated from the worker count), fit in what this process may still use
// under each of its limits (exstar_memory_room_get: ulimit -v, ulimit -d, the memory cgroup and
// MemAvailable). The runtime's start is checked here because StarPU and PoCL abort the
// process when a thread or a buffer cannot be created.
void check_memory(const Args &args, const std::string &what, int64_t bytes, bool runtime);

// The declared shapes of the command's input files (read_size), in order; false when one of them
// is not a regular file (the check then happens as each is read, through read_matrix's
// SizeCheck).
struct Shape {
  int64_t rows = 0, cols = 0;
};
bool declared_shapes(const Args &args, std::vector<Shape> &shapes);

// "a 40000 x 40000 matrix", "a vector of 12 entries".
std::string matrix_words(int64_t rows, int64_t cols);

// The library's exact LU of an m x n matrix: the array itself, the GEMM-accumulate states
// (32 bytes an entry), L's column copies (8), and the pivots; plain: the array and a copy.
int64_t lu_bytes(int64_t m, int64_t n, bool plain);

} // namespace cli

#endif
