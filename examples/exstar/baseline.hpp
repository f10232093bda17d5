// The plain-double baselines of --plain (sum excepted) and of 'exstar bench': naive loops in
// this tool, every product and addition rounded. NOT reproducible in general, NOT correctly
// rounded; they exist only to be compared with the exact library calls.
#ifndef EXSTAR_TOOL_BASELINE_HPP
#define EXSTAR_TOOL_BASELINE_HPP

#include "mmio.hpp"
#include <vector>

namespace cli {

// A left-to-right loop: s += x_i * y_i.
double plain_dot(const std::vector<double> &x, const std::vector<double> &y);
// As the reference BLAS: y := beta y, then y += (alpha x_j) a_j (or the transposed loop).
void plain_gemv(bool trans, const Matrix &a, double alpha, const std::vector<double> &x, double beta,
                std::vector<double> &y);
// Substitution in double: op(T) x = b, x holding b on entry; op(T) is lower when (uplo 'L')
// xor trans.
void plain_trsv(char uplo, bool trans, bool unit, const Matrix &t, std::vector<double> &x);

// C := alpha op(A) op(B) + beta C by the reference BLAS loops (C is m x n, k terms).
void plain_gemm(bool ta, bool tb, const Matrix &a, const Matrix &b, double alpha, double beta, int64_t m, int64_t n,
                int64_t k, std::vector<double> &c);
// Double substitution of every column (side 'L') or row (side 'R') of X = alpha B (m x n).
void plain_trsm(char side, char uplo, bool trans, bool unit, double alpha, const Matrix &t, int64_t m, int64_t n,
                std::vector<double> &x);

} // namespace cli

#endif
