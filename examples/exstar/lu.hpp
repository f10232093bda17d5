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
// How many entries of the rows x cols column-major values are NaN or ±inf.
int64_t count_nonfinite(const std::vector<double> &values);
// The warning of a result that overflowed (exit code EXIT_OVERFLOW): "exstar: warning: WHAT
// overflowed: K entries are inf or NaN (the exact values lie beyond the double range); DONE".
void warn_overflow(const std::string &what, int64_t count, const std::string &done);
// lda for the library: max(1, rows).
inline int64_t leading_dim(const Matrix &a) { return a.rows > 0 ? a.rows : 1; }
// Applies --nb NB / --unblocked (exstar_set_lu_tile) for this run; call inside the Session.
class Args;
void lu_shape(const Args &args);
// The help lines of those two options.
extern const char *const lu_shape_help;
// Writes the pivots as an n x 1 MatrixMarket array of integers (1-based, as LAPACK's ipiv).
void write_pivots(OutputFile &out, const std::vector<int32_t> &ipiv);

} // namespace cli

#endif
