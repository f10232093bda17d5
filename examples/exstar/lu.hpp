// What 'exstar getrf' and 'exstar gesv' share: input checks and the pivot file.
#ifndef EXSTAR_TOOL_LU_HPP
#define EXSTAR_TOOL_LU_HPP

#include "mmio.hpp"
#include <cstdint>
#include <string>
#include <vector>

namespace cli {

// Throws Failure("FILE:LINE: expected a square matrix, got MxN").
void require_square(const Matrix &a);
// Throws Failure naming the first NaN or infinite entry (1-based row and column): the LU of such
// input is NaN/inf throughout, so the tool refuses it before factorizing.
void require_finite(const Matrix &a, const std::string &what);
// lda for the library: max(1, rows).
inline int64_t leading_dim(const Matrix &a) { return a.rows > 0 ? a.rows : 1; }
// Writes the pivots as an n x 1 MatrixMarket array of integers (1-based, as LAPACK's ipiv).
void write_pivots(OutputFile &out, const std::vector<int32_t> &ipiv);

} // namespace cli

#endif
