// The fast sums of core/gemm.h over a block of entries, shared by the CPU gemm, the
// GEMM-accumulate state and trsm (C++ only, internal to kernels_cpu).
#ifndef EXSTAR_KERNELS_CPU_GEMM_SUMS_H
#define EXSTAR_KERNELS_CPU_GEMM_SUMS_H
#include <stdint.h>
#include <vector>

namespace exstar_gemm {

// A strided view of a matrix: element (i, l) is p[off + i*rs + l*cs].
struct view {
  const double *p;
  int64_t off, rs, cs;
  double at(int64_t i, int64_t l) const { return p[off + i * rs + l * cs]; }
};

// op(X) of a column-major X for BLAS's trans argument.
inline view op_view(char trans, const double *p, int64_t off, int64_t ld)
{
  const bool t = trans == 'T' || trans == 't' || trans == 'C' || trans == 'c';
  return t ? view{p, off, ld, 1} : view{p, off, 1, ld};
}

// The fast sums of the m x n entries of op(A)·op(B) over k terms: S (exact), R and sigma,
// each m x n column-major (index i + j*m). Non-finite factors or sigma out of range leave
// non-finite S or R. lower: only the entries i >= j are needed; the register tiles that hold
// none of them are skipped (S and R of the entries i < j are then meaningless). Every entry
// computed gets the same S and R either way.
struct sums {
  int64_t m = 0, n = 0, k = 0;
  std::vector<double> S, R, sigma;
  double bound(int64_t i, int64_t j) const;
};

// sigma, when given (m x n, as out.sigma), replaces the split constants of the rows' and
// columns' codes: product_sigmas's, for the second pass of wide exponent ranges.
void fast_sums(int64_t m, int64_t n, int64_t k, const view &A, const view &B, sums &out, bool lower = false,
               const std::vector<double> *sigma = nullptr);
// The AVX-512 copy (kernels_cpu/wide_gemm_sums.cpp; fast_sums hands over to it at run time).
void fast_sums_wide(int64_t m, int64_t n, int64_t k, const view &A, const view &B, sums &out, bool lower = false,
                    const std::vector<double> *sigma = nullptr);

// Each entry's split constant from its own largest product: exstar_gemm_sigma(e, 0, ep) with
// e = max_l exp_above(a_il) + exp_above(b_lj), as core/gemm.inc's retry pass takes it, for all
// m x n entries at once (a max-plus product on 16-bit codes). With it, fast_sums IS the retry
// pass of every entry: the same terms, the same order, the same S and R.
void product_sigmas(int64_t m, int64_t n, int64_t k, const view &A, const view &B, std::vector<double> &sigma);
void product_sigmas_wide(int64_t m, int64_t n, int64_t k, const view &A, const view &B, std::vector<double> &sigma);

} // namespace exstar_gemm
#endif
