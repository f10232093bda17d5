// MPFR reference implementations ("oracles") of exstar's operation contracts (DESIGN.md,
// "Operation contracts"). Every function evaluates the contract's exact real value with MPFR at a
// precision that holds it exactly, then rounds once to double: round to nearest, ties to even,
// correct subnormal results, overflow to +-inf.
//
// Special values follow IEEE 754 (MPFR's own rules for add/mul/div are the IEEE ones):
//   any NaN -> NaN; +inf and -inf together -> NaN; 0*inf -> NaN; +-inf * finite nonzero -> +-inf;
//   a finite product never overflows (x*y is an exact term even when |x*y| > DBL_MAX);
//   an exact zero result is +0 unless every term is -0 (a term x*y is -0 when the IEEE product
//   is -0: (-0)*(+5), (+0)*(-5), (-0)*(+0)); an empty sum is +0; a nonzero exact value that
//   rounds to zero keeps its sign.
// A returned NaN carries no meaningful sign or payload: compare NaNs with std::isnan.
//
// Functions throw std::invalid_argument on inconsistent sizes/arguments and std::logic_error if
// an internal MPFR step that must be exact was not (a bug in this file, never expected).
#pragma once

#include <vector>

namespace exstar_test {

// ---- strided access, BLAS convention --------------------------------------------------------
// Element i of a strided vector is x[i*incx] for incx > 0 and x[(n-1-i)*|incx|] for incx < 0;
// incx == 0 means every element is x[0].
std::vector<double> gather(int n, const double* x, int incx);
void scatter(const std::vector<double>& v, double* x, int incx); // inverse of gather (incx != 0)

// ---- level 1 ----------------------------------------------------------------------------------
double ref_sum(const std::vector<double>& x);                                // RN(sum x_i)
double ref_dot(const std::vector<double>& x, const std::vector<double>& y);  // RN(sum x_i*y_i)
double ref_nrm2(const std::vector<double>& x);                               // RN(sqrt(sum x_i^2))
double ref_scal(double a, double x);           // RN(a*x)
double ref_invscal(double a, double x);        // RN(x/a), one rounding
double ref_axpy(double a, double x, double y); // RN(a*x + y), one rounding

// 0-based smallest index of the largest |x_i|; a NaN counts as larger than everything, so the
// first NaN wins; -1 for an empty vector. (LAPACK's idamax instead ignores NaNs unless x_1 is
// NaN: this oracle deliberately implements exstar's rule, not idamax's.)
int ref_iamax(const std::vector<double>& x);

// Condition numbers of the exact problems (computed from correctly rounded values; +inf when
// the exact result is zero): cond_sum = sum|x_i| / |sum x_i|,
// cond_dot = 2 * sum|x_i*y_i| / |sum x_i*y_i| (the Ogita-Rump-Oishi definition).
double cond_sum(const std::vector<double>& x);
double cond_dot(const std::vector<double>& x, const std::vector<double>& y);

// ---- level 2 ----------------------------------------------------------------------------------
// How alpha enters gemv when special values are involved (identical for finite inputs):
//   scale_sum: y_i = RN(alpha * S_i + beta*y_i), S_i = exact sum_j a_ij*x_j (the table's formula
//              read literally; S_i is NaN/+-inf/signed zero by the rules above, then alpha*S_i by
//              IEEE multiplication). alpha = inf with S_i = 0 gives NaN; alpha = 0 with finite
//              S_i gives a zero term.
//   per_term:  y_i = RN(sum_j alpha*a_ij*x_j + beta*y_i), each alpha*a_ij*x_j an IEEE-rule term.
// They differ only on zero signs (e.g. alpha < 0 with a mix of +0/-0 products) and on inf*0
// inside a row (alpha = inf with one zero product: per_term NaN, scale_sum +-inf).
enum class GemvAlpha { scale_sum, per_term };

// Column-major A (lda >= max(1,m)). trans 'N': y (length m) := alpha*A*x + beta*y, x length n;
// trans 'T': y (length n) := alpha*A^T*x + beta*y, x length m. One rounding per y_i of the exact
// value. beta == 0: y is not read (may be empty or hold NaN), the beta*y term is absent.
// A and x are always read, also when alpha == 0 (unlike the reference BLAS quick return), so
// alpha == 0 with an inf/NaN in the row gives NaN. m == 0 or n == 0: the sum S_i is +0.
std::vector<double> ref_gemv(char trans, int m, int n, double alpha, const std::vector<double>& A,
                             int lda, const std::vector<double>& x, double beta,
                             const std::vector<double>& y,
                             GemvAlpha mode = GemvAlpha::scale_sum);

// Solves op(T) x = b by substitution (op(T) = T for 'N', T^T for 'T'; uplo 'L'/'U' names the
// stored triangle of T, column-major, ldt >= max(1,n)). In substitution order,
// x_i := RN(RN(b_i - sum_j op(T)_ij x_j) / op(T)_ii), the sum over the already computed x_j;
// diag 'U': op(T)_ii = 1 is not read and x_i := RN(b_i - sum_j ...). Returns x.
std::vector<double> ref_trsv(char uplo, char trans, char diag, int n, const std::vector<double>& T,
                             int ldt, std::vector<double> b);
// The same with the first term alpha*b_i (one exact product; alpha == 1: b_i itself), the
// definition of trsm's columns (level3.h).
std::vector<double> ref_trsv_alpha(char uplo, char trans, char diag, int n, const std::vector<double>& T,
                                   int ldt, double alpha, std::vector<double> b);

// Left-looking LU with partial pivoting, DESIGN.md row "getrf", in place on the column-major
// m x n matrix A (lda >= max(1,m)); afterwards A holds L (unit, below the diagonal) and U.
// For column j = 0..n-1 (row interchanges of earlier columns are already applied to whole rows):
//   u(i,j) := RN(a(i,j) - sum_{k<i} l(i,k) u(k,j))  for i < min(j,m), increasing i;
//   if j < m:
//     v(i)  := RN(a(i,j) - sum_{k<j} l(i,k) u(k,j))  for i >= j;
//     p     := first i >= j with the largest |v(i)|, NaN larger than everything (first NaN wins);
//     swap whole rows p and j of A (all n columns, LAPACK dlaswp style), ipiv[j] := p + 1;
//     u(j,j) := v(p); l(i,j) := RN(v(i) / u(j,j)) for i > j,
//     unless u(j,j) == 0: then l(i,j) := v(i) unchanged and info := j+1 if info is still 0.
// ipiv is resized to min(m,n) (1-based, as LAPACK). Returns info (0 = success).
int ref_getrf(int m, int n, std::vector<double>& A, int lda, std::vector<int>& ipiv);

// Cholesky A = L·Lᵀ, lapack.h row "potrf", in place on the lower triangle of the column-major
// n x n matrix A (lda >= max(1,n)); the strictly upper triangle is neither read nor written.
// For column j = 0..n-1:
//   l(j,j) := RN(sqrt(a(j,j) - sum_{k<j} l(j,k)^2))     (the exact value's root, one rounding)
//   l(i,j) := RN(RN(a(i,j) - sum_{k<j} l(i,k) l(j,k)) / l(j,j))   for i > j.
// Returns info: the first j+1 whose l(j,j) is not > 0 (NaN, a zero, the root of a negative), 0
// if none; the columns after it are still computed by the same formulas (NaN, inf).
int ref_potrf(int n, std::vector<double>& A, int lda);

} // namespace exstar_test
