// libexstar_blas internals: shared by the families' sources (level1.cpp ... cblas.cpp), never
// installed. The Fortran ABI: every argument by pointer, Fortran INTEGER = 32-bit (LP64),
// CHARACTER arguments with hidden lengths (size_t) after the others, which we accept and ignore.
#ifndef EXSTAR_BLAS_INTERNAL_H
#define EXSTAR_BLAS_INTERNAL_H

#include <exstar/exstar.h>
#include "blas/exstar_blas.h"
#include "core/accumulator.h"
#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" {
// A weak REFERENCE, not a definition: the program's xerbla_ (the reference testers' own, NumPy's
// override) or the system BLAS's is used when there is one, and libexstar_blas never shadows
// it under LD_PRELOAD; with none, error() prints the reference message itself.
__attribute__((weak)) void xerbla_(const char *srname, const int32_t *info, size_t len);
void cblas_xerbla(int32_t info, const char *rout, const char *form, ...);
extern int RowMajorStrg;
extern int CBLAS_CallFromC;
}

namespace exstar_blas {

using fint = int32_t; // Fortran INTEGER (LP64)

// Starts exstar (and StarPU, with the user's STARPU_* environment) on the first call, or
// attaches to a StarPU the program already runs. Returns 0 when exstar can take calls.
int ready();
// Whether a problem of `work` multiply-adds should skip StarPU and run exstar's CPU kernel on
// the calling thread: a StarPU task costs tens of microseconds, more than a small product.
// The kernel is the one StarPU's CPU workers run, so the bits are the same either way.
bool small(double work);

// Reference BLAS's LSAME: case-insensitive comparison of one character.
inline bool lsame(char a, char b) { return (a | 0x20) == (b | 0x20); }
inline char upper(char a) { return (char)(a & ~0x20); }
inline fint imax(fint a, fint b) { return a > b ? a : b; }
// The reference's character arguments that are not one of their letters (any case).
inline bool bad_uplo(char u) { return !lsame(u, 'U') && !lsame(u, 'L'); }
inline bool bad_trans(char t) { return !lsame(t, 'N') && !lsame(t, 'T') && !lsame(t, 'C'); }
inline bool bad_diag(char d) { return !lsame(d, 'U') && !lsame(d, 'N'); }

// Reports an illegal argument as the reference BLAS: from a CBLAS call, cblas_xerbla(info + 1,
// "cblas_<name>") as the reference CBLAS's xerbla does; else the program's or the system's
// xerbla_ (blank-padded name); else the reference message on stderr. Never stops the program.
void error(const char *name, fint info);

// Element i of the BLAS vector (n, x, inc): x[first + i*inc], first = (n-1)*|inc| for inc < 0.
inline int64_t first(int64_t n, int64_t inc) { return inc < 0 ? (n - 1) * (-inc) : 0; }

// A contiguous copy of the BLAS vector (n, x, inc), for calls whose kernel wants inc == 1 or
// whose increment is 0 (which the reference BLAS allows in Level 1 and exstar rejects).
std::vector<double> gather(int64_t n, const double *x, int64_t inc);

// One exact sum on the calling thread: every term (a double, a product of two or of three
// doubles) is exact, with exstar's special-value and zero-sign rules; round() is RN of the
// exact total (an empty sum is +0). The accumulator is exstar's (core/accumulator.h), so the
// value is the one any exstar kernel gives for the same terms.
class exact_sum {
public:
  exact_sum();
  void add(double x);
  void add(double a, double b);
  void add(double a, double b, double c);
  double round();

private:
  void count();
  exstar_i64 acc_[EXSTAR_ACC_WORDS];
  double fpe_[EXSTAR_FPE_N];
  int flags_ = 0;
  int64_t terms_ = 0;
};

// The exact kernels of libexstar (kernels_cpu/), called on the calling thread for small calls.
extern "C" {
int64_t exstar_cpu_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double *A,
                         int64_t offa, int64_t lda, const double *B, int64_t offb, int64_t ldb, double beta, double *C,
                         int64_t offc, int64_t ldc, int exact_only);
int64_t exstar_cpu_dgemv(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t offa, int64_t lda,
                         const double *x, int64_t offx, int64_t incx, double beta, double *y, int64_t offy,
                         int64_t incy, int exact_only);
void exstar_cpu_dot(int64_t n, const double *x, int64_t offx, int64_t incx, const double *y, int64_t offy,
                    int64_t incy, exstar_i64 *acc);
void exstar_cpu_acc_zero(exstar_i64 *acc, int64_t count);
double exstar_cpu_acc_round(const exstar_i64 *acc);
double exstar_cpu_acc_round_sqrt(const exstar_i64 *acc);
}

// gemm and gemv by exstar's definition, on the calling thread when small, else through StarPU.
// Column-major with element offsets, as exstar_cpu_dgemm.
void gemm(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double *A, int64_t lda,
          const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
void gemv(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t lda, const double *x,
          int64_t incx, double beta, double *y, int64_t incy);
// Substitution x := op(T)^-1 (alpha·b) by exstar_dtrsv's definition on the calling thread, T
// given by an accessor t(i, j) of op(T) (0-based) and the range of j that row i sums over.
// Used where exstar's call declines (a zero diagonal: the reference BLAS divides by it) and for
// the banded and packed solves.
template <class T, class R>
void solve(int64_t n, bool lower, bool unit, double alpha, const T &t, const R &range, double *x, int64_t incx)
{
  const int64_t f = first(n, incx);
  auto X = [&](int64_t i) -> double & { return x[f + i * incx]; };
  for (int64_t s = 0; s < n; ++s) {
    const int64_t i = lower ? s : n - 1 - s;
    int64_t j0, j1;
    range(i, &j0, &j1); // j in [j0, j1): the already solved neighbours of row i
    exact_sum sum;
    if (alpha == 1.0) sum.add(X(i));
    else sum.add(alpha, X(i));
    for (int64_t j = j0; j < j1; ++j) sum.add(-t(i, j), X(j));
    const double r = sum.round();
    X(i) = unit ? r : r / t(i, i);
  }
}

// The reference BLAS's β-scaling of an output before (or instead of) its sum: β == 0 writes
// +0 without reading, β == 1 leaves it. Vector (BLAS strides), full matrix, triangle.
void scale_vec(int64_t n, double beta, double *y, int64_t incy);
void scale_mat(int64_t m, int64_t n, double beta, double *C, int64_t ldc);
void scale_tri(bool upper, int64_t n, double beta, double *C, int64_t ldc);
extern "C" int64_t exstar_cpu_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n,
                                    double alpha, const double *T, int64_t offt, int64_t ldt, double *B,
                                    int64_t offb, int64_t ldb, int exact_only);

} // namespace exstar_blas

#endif
