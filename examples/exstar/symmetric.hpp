// What 'exstar potrf' and 'exstar posv' share: the triangle option, its checks, the memory.
#ifndef EXSTAR_TOOL_SYMMETRIC_HPP
#define EXSTAR_TOOL_SYMMETRIC_HPP

#include "mmio.hpp"
#include <cstdint>
#include <string>

namespace cli {

class Args;
// --uplo L|U (default L), as 'L' or 'U'; UsageError otherwise.
char uplo_option(const Args &args);
// Throws Failure naming the first NaN or infinite entry of the uplo triangle (1-based).
void require_finite_triangle(const Matrix &a, char uplo, const std::string &what);
// Zeros in the strict triangle opposite uplo (the factor alone).
void keep_triangle(Matrix &a, char uplo);
// The memory exstar_dpotrf needs for an n x n matrix beyond the matrix: a state per entry of
// the lower tiles (32 bytes), a copy a second memory node may hold, and the transposed copy of
// uplo 'U'.
int64_t potrf_bytes(int64_t n, char uplo);

} // namespace cli

#endif
