// libexstar_blas (blas/exstar_blas.h), bit for bit, never a tolerance:
// - every wrapper of an exstar operation gives the bits of the exstar call it wraps, on both
//   paths (small calls on the calling thread, every call through StarPU), both CBLAS layouts,
//   negative increments; and the reference BLAS's quick returns;
// - every routine exstar lacks against an MPFR oracle of its definition (one rounding of the
//   exact sum of its terms: tests/support's per-term gemv of one row), on random, wide-exponent
//   (products that overflow or underflow), subnormal and NaN/inf inputs.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/blas/blas_symbols.hpp"
#include "oracle.hpp"
#include "generators.hpp"
#include <exstar/exstar.h>
#include "blas/exstar_blas.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace exstar_test;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Input classes for the oracle tests.
std::vector<double> gen(int kind, int n, Rng &rng)
{
  switch (kind) {
  case 0: return gen_uniform(n, rng);
  case 1: return gen_exp_spread(n, -1074, 1023, rng); // products overflow and underflow
  case 2: return gen_exp_spread(n, -540, -500, rng);  // products deep in the subnormals
  default: return gen_special(n, rng, 0.2);           // NaN, ±inf, ±0
  }
}
const char *kind_name(int kind)
{
  static const char *names[] = {"uniform", "exponents -1074..1023", "tiny", "NaN/inf/±0"};
  return names[kind];
}
const int kKinds = 4;

// RN(Σ_j α·a_j·x_j + β·y): the oracle of one output entry (per-term special values).
double row(double alpha, const std::vector<double> &a, const std::vector<double> &x, double beta = 0.0,
           double y = 0.0)
{
  return ref_gemv('N', 1, (int)a.size(), alpha, a, 1, x, beta, {y}, GemvAlpha::per_term)[0];
}

bool same(const std::vector<double> &a, const std::vector<double> &b)
{
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_bits(a[i], b[i])) return false;
  return true;
}

// Runs body once with small calls on the calling thread and once with every call through StarPU.
template <class F>
void both_paths(F body)
{
  REQUIRE(exstar_blas_init() == 0);
  for (double small : {1e18, 0.0}) {
    exstar_blas_set_small(small);
    INFO("path: " << (small > 0 ? "calling thread" : "StarPU"));
    body();
  }
  exstar_blas_set_small(-1);
}

// Element i of a BLAS vector stored with increment inc (n elements).
double at(const std::vector<double> &v, int n, int inc, int i) { return v[(size_t)((inc < 0 ? (n - 1 - i) * -inc : i * inc))]; }

} // namespace

// ================================ wrappers give exstar's bits =====================================

TEST_CASE("ddot_, dnrm2_, dscal_, daxpy_, dswap_, idamax_: exstar's bits, negative and zero increments", "[blas]")
{
  Rng rng(26);
  both_paths([&] {
    for (int kind = 0; kind < kKinds; ++kind)
      for (int n : {1, 7, 100})
        for (int incx : {1, 3, -1, -2})
          for (int incy : {1, -3}) {
            INFO(kind_name(kind) << " n=" << n << " incx=" << incx << " incy=" << incy);
            const size_t lx = (size_t)(n * std::abs(incx)), ly = (size_t)(n * std::abs(incy));
            std::vector<double> x = gen(kind, (int)lx, rng), y = gen(kind, (int)ly, rng);
            double want, got;
            REQUIRE(exstar_ddot(n, x.data(), incx, y.data(), incy, &want) == EXSTAR_SUCCESS);
            got = ddot_(&n, x.data(), &incx, y.data(), &incy);
            CHECK(same_bits(got, want));
            CHECK(same_bits(cblas_ddot(n, x.data(), incx, y.data(), incy), want));
            REQUIRE(exstar_dnrm2(n, x.data(), incx, &want) == EXSTAR_SUCCESS);
            CHECK(same_bits(dnrm2_(&n, x.data(), &incx), want));
            int64_t idx;
            if (incx > 0) {
              REQUIRE(exstar_idamax(n, x.data(), incx, &idx) == EXSTAR_SUCCESS);
              CHECK(idamax_(&n, x.data(), &incx) == idx + 1);
              const double alpha = -0.75;
              std::vector<double> a = x, b = x;
              REQUIRE(exstar_dscal(n, alpha, a.data(), incx) == EXSTAR_SUCCESS);
              dscal_(&n, &alpha, b.data(), &incx);
              CHECK(same(a, b));
            }
            const double alpha = kind == 1 ? 0x1.8p-3 : 3.0;
            std::vector<double> ya = y, yb = y, xa = x, xb = x;
            REQUIRE(exstar_daxpy(n, alpha, x.data(), incx, ya.data(), incy) == EXSTAR_SUCCESS);
            daxpy_(&n, &alpha, x.data(), &incx, yb.data(), &incy);
            CHECK(same(ya, yb));
            REQUIRE(exstar_dswap(n, xa.data(), incx, ya.data(), incy) == EXSTAR_SUCCESS);
            dswap_(&n, xb.data(), &incx, yb.data(), &incy);
            CHECK(same(xa, xb));
            CHECK(same(ya, yb));
          }
    // increment 0: the reference repeats the element (exstar takes a copy)
    std::vector<double> x = {0.1, 0.2, 0.3}, y = {0.7};
    const fint n = 3, one = 1, zero = 0;
    double want;
    std::vector<double> rep(3, 0.7);
    REQUIRE(exstar_ddot(3, x.data(), 1, rep.data(), 1, &want) == EXSTAR_SUCCESS);
    CHECK(same_bits(ddot_(&n, x.data(), &one, y.data(), &zero), want));
  });
}

TEST_CASE("dgemv_, dgemm_ and their CBLAS forms: exstar's bits, both layouts", "[blas]")
{
  Rng rng(2626);
  both_paths([&] {
    for (int kind = 0; kind < kKinds; ++kind)
      for (char ta : {'N', 'T'})
        for (int incx : {1, -2})
          for (double beta : {0.0, 1.0, -0.5}) {
            const int m = 9, n = 6, lda = 11, lenx = ta == 'N' ? n : m, leny = ta == 'N' ? m : n, incy = -1;
            INFO(kind_name(kind) << " trans=" << ta << " incx=" << incx << " beta=" << beta);
            std::vector<double> A = gen(kind, lda * n, rng), x = gen(kind, lenx * 2, rng), y = gen(kind, leny, rng);
            const double alpha = 0.3;
            std::vector<double> ya = y, yb = y;
            REQUIRE(exstar_dgemv(ta, m, n, alpha, A.data(), lda, x.data(), incx, beta, ya.data(), incy) ==
                    EXSTAR_SUCCESS);
            dgemv_(&ta, &m, &n, &alpha, A.data(), &lda, x.data(), &incx, &beta, yb.data(), &incy, 1);
            CHECK(same(ya, yb));
            // row-major: A as stored is the row-major n x lda... i.e. op flipped on the same memory
            std::vector<double> yc = y;
            cblas_dgemv(CblasRowMajor, ta == 'N' ? CblasTrans : CblasNoTrans, n, m, alpha, A.data(), lda, x.data(),
                        incx, beta, yc.data(), incy);
            CHECK(same(ya, yc));
          }
    for (int kind = 0; kind < kKinds; ++kind)
      for (char ta : {'N', 'T'})
        for (char tb : {'N', 'T'}) {
          const int m = 7, n = 5, k = 9, lda = 10, ldb = 10, ldc = 8;
          INFO(kind_name(kind) << " " << ta << tb);
          std::vector<double> A = gen(kind, lda * 10, rng), B = gen(kind, ldb * 10, rng), C = gen(kind, ldc * n, rng);
          const double alpha = -1.25, beta = 0.5;
          std::vector<double> ca = C, cb = C;
          REQUIRE(exstar_dgemm(ta, tb, m, n, k, alpha, A.data(), lda, B.data(), ldb, beta, ca.data(), ldc) ==
                  EXSTAR_SUCCESS);
          dgemm_(&ta, &tb, &m, &n, &k, &alpha, A.data(), &lda, B.data(), &ldb, &beta, cb.data(), &ldc, 1, 1);
          CHECK(same(ca, cb));
          // row-major: the same memory read as row-major is the transposed problem
          std::vector<double> cc = C;
          cblas_dgemm(CblasRowMajor, tb == 'N' ? CblasNoTrans : CblasTrans, ta == 'N' ? CblasNoTrans : CblasTrans, n,
                      m, k, alpha, B.data(), ldb, A.data(), lda, beta, cc.data(), ldc);
          CHECK(same(ca, cc));
          std::vector<double> cd = C;
          cblas_dgemm(CblasColMajor, ta == 'N' ? CblasNoTrans : CblasTrans, tb == 'N' ? CblasNoTrans : CblasTrans, m, n,
                      k, alpha, A.data(), lda, B.data(), ldb, beta, cd.data(), ldc);
          CHECK(same(ca, cd));
        }
  });
}

TEST_CASE("dtrsv_, dtrsm_: exstar's bits; a zero diagonal is divided by, as the reference", "[blas]")
{
  Rng rng(262626);
  both_paths([&] {
    const int n = 8, ld = 9, nrhs = 3;
    for (char uplo : {'L', 'U'})
      for (char trans : {'N', 'T'})
        for (char diag : {'N', 'U'})
          for (int incx : {1, -2}) {
            INFO(uplo << trans << diag << " incx=" << incx);
            std::vector<double> T = gen(0, ld * n, rng);
            for (int i = 0; i < n; ++i) T[(size_t)(i + i * ld)] += 4.0;
            std::vector<double> x = gen(0, n * 2, rng), xa = x, xb = x;
            int64_t info;
            REQUIRE(exstar_dtrsv(uplo, trans, diag, n, T.data(), ld, xa.data(), incx, &info) == EXSTAR_SUCCESS);
            dtrsv_(&uplo, &trans, &diag, &n, T.data(), &ld, xb.data(), &incx, 1, 1, 1);
            CHECK(same(xa, xb));
            for (char side : {'L', 'R'}) {
              const int m = side == 'L' ? n : nrhs, nn = side == 'L' ? nrhs : n, ldb = 10;
              std::vector<double> B = gen(0, ldb * nn, rng), ba = B, bb = B;
              const double alpha = 0.375;
              REQUIRE(exstar_dtrsm(side, uplo, trans, diag, m, nn, alpha, T.data(), ld, ba.data(), ldb) ==
                      EXSTAR_SUCCESS);
              dtrsm_(&side, &uplo, &trans, &diag, &m, &nn, &alpha, T.data(), &ld, bb.data(), &ldb, 1, 1, 1, 1);
              CHECK(same(ba, bb));
              std::vector<double> bc = B; // row-major: side and uplo flipped on the same memory
              cblas_dtrsm(CblasRowMajor, side == 'L' ? CblasRight : CblasLeft, uplo == 'L' ? CblasUpper : CblasLower,
                          trans == 'N' ? CblasNoTrans : CblasTrans, diag == 'N' ? CblasNonUnit : CblasUnit, nn, m,
                          alpha, T.data(), ld, bc.data(), ldb);
              CHECK(same(ba, bc));
            }
          }
    // a zero diagonal: exstar refuses, the reference (and this library) divides: the oracle's bits
    std::vector<double> T = {2.0, 1.0, 0.5, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0}; // lower 3x3, t22 = 0
    std::vector<double> x = {1.0, 2.0, 3.0};
    const int n3 = 3, one = 1;
    std::vector<double> want = ref_trsv('L', 'N', 'N', 3, T, 3, x);
    dtrsv_("L", "N", "N", &n3, T.data(), &n3, x.data(), &one, 1, 1, 1);
    CHECK(same(x, want));
    CHECK(std::isinf(x[1]));
  });
}

TEST_CASE("dgetrf_, dgetrs_, dgesv_, dlaswp_, LAPACKE: exstar's bits", "[blas]")
{
  both_paths([&] {
  const int n = 12, nrhs = 2, ld = 13;
  std::vector<double> A = gen_matrix_cond(n, 1e8, 7), Ap((size_t)(ld * n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) Ap[(size_t)(i + j * ld)] = A[(size_t)(i + j * n)];
  Rng rng(9);
  std::vector<double> B = gen_uniform(ld * nrhs, rng);
  // getrf
  std::vector<double> fa = Ap, fb = Ap;
  std::vector<int32_t> pa(n), pb(n);
  int64_t info64;
  fint info;
  REQUIRE(exstar_dgetrf(n, n, fa.data(), ld, pa.data(), &info64) == EXSTAR_SUCCESS);
  dgetrf_(&n, &n, fb.data(), &ld, pb.data(), &info);
  CHECK(info == 0);
  CHECK(same(fa, fb));
  CHECK(pa == pb);
  // getrs, both transposes
  for (char t : {'N', 'T'}) {
    std::vector<double> ba = B, bb = B;
    REQUIRE(exstar_dgetrs(t, n, nrhs, fa.data(), ld, pa.data(), ba.data(), ld) == EXSTAR_SUCCESS);
    dgetrs_(&t, &n, &nrhs, fb.data(), &ld, pb.data(), bb.data(), &ld, &info, 1);
    CHECK(info == 0);
    CHECK(same(ba, bb));
  }
  // gesv (no refinement, as LAPACK)
  std::vector<double> ga = Ap, gb = Ap, ba = B, bb = B;
  REQUIRE(exstar_dgesv(n, nrhs, ga.data(), ld, pa.data(), ba.data(), ld, 0, &info64) == EXSTAR_SUCCESS);
  dgesv_(&n, &nrhs, gb.data(), &ld, pb.data(), bb.data(), &ld, &info);
  CHECK(same(ga, gb));
  CHECK(same(ba, bb));
  // LAPACKE row-major: the transposed copy in, the same factors and solution out
  std::vector<double> Ar((size_t)(n * n)), Br((size_t)(n * nrhs));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) Ar[(size_t)(i * n + j)] = Ap[(size_t)(i + j * ld)];
    for (int j = 0; j < nrhs; ++j) Br[(size_t)(i * nrhs + j)] = B[(size_t)(i + j * ld)];
  }
  std::vector<int32_t> pr(n);
  CHECK(LAPACKE_dgesv(CblasRowMajor, n, nrhs, Ar.data(), n, pr.data(), Br.data(), nrhs) == 0);
  CHECK(pr == pa);
  bool all = true;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) all &= same_bits(Ar[(size_t)(i * n + j)], ga[(size_t)(i + j * ld)]);
    for (int j = 0; j < nrhs; ++j) all &= same_bits(Br[(size_t)(i * nrhs + j)], ba[(size_t)(i + j * ld)]);
  }
  CHECK(all);
  // laswp, forward and backward
  for (int inc : {1, -1}) {
    std::vector<double> la = B, lb = B;
    const int k1 = 1, k2 = n;
    REQUIRE(exstar_dlaswp(nrhs, la.data(), ld, k1, k2, pa.data(), inc) == EXSTAR_SUCCESS);
    dlaswp_(&nrhs, lb.data(), &ld, &k1, &k2, pb.data(), &inc);
    CHECK(same(la, lb));
  }
  // singular: info as LAPACK, B untouched
  std::vector<double> S((size_t)(n * n), 1.0), Bs = B, Bs0 = B;
  dgesv_(&n, &nrhs, S.data(), &n, pb.data(), Bs.data(), &ld, &info);
  CHECK(info == 2);
  CHECK(same(Bs, Bs0));
  // rectangular and non-finite factorizations
  for (int mm : {5, 12}) {
    const int nn = 17 - mm;
    std::vector<double> R = gen_special(mm * nn, rng, 0.1), Ra = R, Rb = R;
    std::vector<int32_t> qa(std::min(mm, nn)), qb(std::min(mm, nn));
    exstar_dgetrf(mm, nn, Ra.data(), mm, qa.data(), &info64);
    dgetrf_(&mm, &nn, Rb.data(), &mm, qb.data(), &info);
    CHECK(info == info64);
    CHECK(same(Ra, Rb));
    CHECK(qa == qb);
  }
  });
}

TEST_CASE("dpotrf_, dpotrs_, dposv_, LAPACKE: exstar's bits, both triangles", "[blas]")
{
  both_paths([&] {
    const int n = 14, nrhs = 3, ld = 15;
    Rng rng(12);
    const std::vector<double> G = gen_uniform(n * n, rng);
    std::vector<double> Ap((size_t)(ld * n), kNaN); // B·Bᵀ + n·I, NaN in the padding
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n; ++i) {
        double t = i == j ? n : 0.0;
        for (int q = 0; q < n; ++q) t += G[(size_t)(i + q * n)] * G[(size_t)(j + q * n)];
        Ap[(size_t)(i + j * ld)] = Ap[(size_t)(j + i * ld)] = t;
      }
    const std::vector<double> B = gen_uniform(ld * nrhs, rng);
    for (char u : {'L', 'U'}) {
      INFO("uplo " << u);
      std::vector<double> fa = Ap, fb = Ap;
      int64_t info64;
      fint info;
      REQUIRE(exstar_dpotrf(u, n, fa.data(), ld, &info64) == EXSTAR_SUCCESS);
      dpotrf_(&u, &n, fb.data(), &ld, &info, 1);
      CHECK(info == 0);
      CHECK(same(fa, fb));
      std::vector<double> ba = B, bb = B;
      REQUIRE(exstar_dpotrs(u, n, nrhs, fa.data(), ld, ba.data(), ld) == EXSTAR_SUCCESS);
      dpotrs_(&u, &n, &nrhs, fb.data(), &ld, bb.data(), &ld, &info, 1);
      CHECK(same(ba, bb));
      std::vector<double> pa = Ap, xa = B;
      dposv_(&u, &n, &nrhs, pa.data(), &ld, xa.data(), &ld, &info, 1);
      CHECK(info == 0);
      CHECK(same(pa, fa));
      CHECK(same(xa, ba));
      // LAPACKE row-major: the transposed copy (the same symmetric matrix) in, the transposed
      // factor and the same solution out
      std::vector<double> Ar((size_t)(n * n)), Br((size_t)(n * nrhs));
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) Ar[(size_t)(i * n + j)] = Ap[(size_t)(i + j * ld)];
        for (int j = 0; j < nrhs; ++j) Br[(size_t)(i * nrhs + j)] = B[(size_t)(i + j * ld)];
      }
      CHECK(LAPACKE_dposv(CblasRowMajor, u, n, nrhs, Ar.data(), n, Br.data(), nrhs) == 0);
      bool all = true;
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) all &= same_bits(Ar[(size_t)(i * n + j)], fa[(size_t)(i + j * ld)]);
        for (int j = 0; j < nrhs; ++j) all &= same_bits(Br[(size_t)(i * nrhs + j)], ba[(size_t)(i + j * ld)]);
      }
      CHECK(all);
    }
    // not positive definite: LAPACK's info, B untouched
    std::vector<double> S = Ap, Bs = B;
    S[(size_t)(5 + 5 * ld)] = -1.0;
    fint info;
    const char L = 'L';
    dposv_(&L, &n, &nrhs, S.data(), &ld, Bs.data(), &ld, &info, 1);
    CHECK(info == 6);
    CHECK(same(Bs, B));
  });
}

TEST_CASE("reference quick returns: nothing read or written that the reference BLAS leaves alone", "[blas]")
{
  REQUIRE(exstar_blas_init() == 0);
  const int n = 3, zero = 0, one = 1;
  std::vector<double> A(9, kNaN), C(9, kNaN), x(3, kInf), y = {1.0, -0.0, kNaN};
  const double a0 = 0.0, b1 = 1.0, b0 = 0.0, b2 = 2.0;
  // dgemm: α == 0, β == 1 returns without touching C; α == 0, β == 0 writes +0 without reading
  dgemm_("N", "N", &n, &n, &n, &a0, A.data(), &n, A.data(), &n, &b1, C.data(), &n, 1, 1);
  CHECK(std::all_of(C.begin(), C.end(), [](double c) { return std::isnan(c); }));
  dgemm_("N", "N", &n, &n, &n, &a0, A.data(), &n, A.data(), &n, &b0, C.data(), &n, 1, 1);
  CHECK(std::all_of(C.begin(), C.end(), [](double c) { return c == 0.0 && !std::signbit(c); }));
  // α == 0: C := β·C, A and B (NaN) not read
  std::vector<double> D = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0};
  dgemm_("T", "N", &n, &n, &n, &a0, A.data(), &n, A.data(), &n, &b2, D.data(), &n, 1, 1);
  CHECK(D[8] == 18.0);
  // dgemv: m == 0 leaves y alone even with β == 0 (y holds NaN)
  std::vector<double> yy = y;
  dgemv_("N", &zero, &n, &b1, A.data(), &n, x.data(), &one, &b0, yy.data(), &one, 1);
  CHECK(std::isnan(yy[2]));
  // dgemv α == 0: y := β·y without reading A or x
  dgemv_("N", &n, &n, &a0, A.data(), &n, x.data(), &one, &b2, yy.data(), &one, 1);
  CHECK(yy[0] == 2.0);
  // daxpy α == 0: y unchanged although x is inf; dscal with incx < 0: nothing
  std::vector<double> z = {1.0, 2.0, 3.0};
  daxpy_(&n, &a0, x.data(), &one, z.data(), &one);
  CHECK(z[0] == 1.0);
  const int m1 = -1;
  dscal_(&n, &b2, z.data(), &m1);
  CHECK(z[1] == 2.0);
  CHECK(idamax_(&n, z.data(), &m1) == 0);
  CHECK(idamax_(&zero, z.data(), &one) == 0);
  // dtrsm α == 0: B := +0, the NaN triangle not read
  std::vector<double> B = {kNaN, 1.0, 2.0};
  dtrsm_("L", "U", "N", "N", &n, &one, &a0, A.data(), &n, B.data(), &n, 1, 1, 1, 1);
  CHECK((B[0] == 0.0 && B[1] == 0.0 && B[2] == 0.0));
  // dsyrk α == 0, β == 1: nothing; dger α == 0: nothing
  dsyrk_("U", "N", &n, &n, &a0, A.data(), &n, &b1, C.data(), &n, 1, 1);
  dger_(&n, &n, &a0, x.data(), &one, x.data(), &one, D.data(), &n);
  CHECK(D[0] == 2.0);
}

// ============================ routines exstar lacks, against MPFR ===================================

TEST_CASE("dasum, dsdot, drot, drotm against MPFR", "[blas]")
{
  Rng rng(31);
  for (int kind = 0; kind < kKinds; ++kind)
    for (int n : {1, 5, 40})
      for (int incx : {1, -2}) {
        INFO(kind_name(kind) << " n=" << n << " incx=" << incx);
        const int incy = -1, lx = n * std::abs(incx);
        std::vector<double> x = gen(kind, lx, rng), y = gen(kind, n, rng);
        std::vector<double> ax;
        for (int i = 0; i < n; ++i) ax.push_back(std::fabs(x[(size_t)(i * std::abs(incx))]));
        const int ai = std::abs(incx);
        CHECK(same_bits(dasum_(&n, x.data(), &ai), ref_sum(ax)));
        std::vector<float> fx(lx), fy(n);
        for (int i = 0; i < lx; ++i) fx[(size_t)i] = (float)x[(size_t)i];
        for (int i = 0; i < n; ++i) fy[(size_t)i] = (float)y[(size_t)i];
        std::vector<double> dx, dy;
        for (int i = 0; i < n; ++i) {
          dx.push_back((double)fx[(size_t)((incx < 0 ? (n - 1 - i) * 2 : i))]);
          dy.push_back((double)fy[(size_t)(n - 1 - i)]);
        }
        CHECK(same_bits(dsdot_(&n, fx.data(), &incx, fy.data(), &incy), ref_dot(dx, dy)));
        for (double c : {0.6, -1e300, 0x1p-1060}) {
          const double s = kind == 3 ? kInf : 0.8;
          std::vector<double> xr = x, yr = y;
          drot_(&n, xr.data(), &incx, yr.data(), &incy, &c, &s);
          bool ok = true;
          for (int i = 0; i < n; ++i) {
            const double w = at(x, n, incx, i), z = at(y, n, incy, i);
            ok &= same_bits(at(xr, n, incx, i), row(1.0, {c, s}, {w, z}));
            ok &= same_bits(at(yr, n, incy, i), row(1.0, {c, -s}, {z, w}));
          }
          CHECK(ok);
        }
        for (double flag : {-1.0, 0.0, 1.0}) {
          const double p[5] = {flag, 0.25, -3.0, 1e-300, 7.0}; // flag, h11, h21, h12, h22
          std::vector<double> xr = x, yr = y;
          drotm_(&n, xr.data(), &incx, yr.data(), &incy, p);
          bool ok = true;
          for (int i = 0; i < n; ++i) {
            const double w = at(x, n, incx, i), z = at(y, n, incy, i);
            double h11 = p[1], h21 = p[2], h12 = p[3], h22 = p[4];
            if (flag == 0.0) h11 = 1.0, h22 = 1.0;
            if (flag == 1.0) h12 = 1.0, h21 = -1.0;
            ok &= same_bits(at(xr, n, incx, i), row(1.0, {h11, h12}, {w, z}));
            ok &= same_bits(at(yr, n, incy, i), row(1.0, {h21, h22}, {w, z}));
          }
          CHECK(ok);
        }
      }
}

namespace {
// Full-storage accessors of the test matrices (column-major, ld).
struct mat {
  std::vector<double> v;
  int ld;
  double operator()(int i, int j) const { return v[(size_t)(i + j * ld)]; }
};
int packed_index(bool up, int n, int i, int j) { return up ? i + j * (j + 1) / 2 : (i - j) + j * (2 * n - j + 1) / 2; }
} // namespace

TEST_CASE("dger, dsyr, dsyr2, dspr, dspr2 against MPFR", "[blas]")
{
  Rng rng(32);
  both_paths([&] {
  for (int kind = 0; kind < kKinds; ++kind)
    for (double alpha : {0.7, -1e300, 0x1p-600})
      for (int incx : {1, -2}) {
        INFO(kind_name(kind) << " alpha=" << alpha << " incx=" << incx);
        const int m = 6, n = 5, ld = 7, incy = -1;
        std::vector<double> x = gen(kind, 2 * ld, rng), y = gen(kind, ld, rng), A = gen(kind, ld * ld, rng);
        // dger
        std::vector<double> G = A;
        dger_(&m, &n, &alpha, x.data(), &incx, y.data(), &incy, G.data(), &ld);
        bool ok = true;
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < m; ++i)
            ok &= same_bits(G[(size_t)(i + j * ld)],
                            row(alpha, {at(x, m, incx, i)}, {at(y, n, incy, j)}, 1.0, A[(size_t)(i + j * ld)]));
        CHECK(ok);
        for (char uplo : {'U', 'L'}) {
          const bool up = uplo == 'U';
          std::vector<double> S = A, S2 = A, P((size_t)(n * (n + 1) / 2)), P2;
          for (int j = 0; j < n; ++j)
            for (int i = up ? 0 : j; i < (up ? j + 1 : n); ++i) P[(size_t)packed_index(up, n, i, j)] = A[(size_t)(i + j * ld)];
          P2 = P;
          std::vector<double> Q = P, Q2 = P;
          dsyr_(&uplo, &n, &alpha, x.data(), &incx, S.data(), &ld, 1);
          dsyr2_(&uplo, &n, &alpha, x.data(), &incx, y.data(), &incy, S2.data(), &ld, 1);
          dspr_(&uplo, &n, &alpha, x.data(), &incx, Q.data(), 1);
          dspr2_(&uplo, &n, &alpha, x.data(), &incx, y.data(), &incy, Q2.data(), 1);
          bool ok1 = true, ok2 = true, untouched = true;
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
              const size_t e = (size_t)(i + j * ld);
              if (up ? i > j : i < j) {
                untouched &= same_bits(S[e], A[e]) && same_bits(S2[e], A[e]);
                continue;
              }
              const double xi = at(x, n, incx, i), xj = at(x, n, incx, j), yi = at(y, n, incy, i),
                           yj = at(y, n, incy, j);
              const double w1 = row(alpha, {xi}, {xj}, 1.0, A[e]), w2 = row(alpha, {xi, yi}, {yj, xj}, 1.0, A[e]);
              const size_t pe = (size_t)packed_index(up, n, i, j);
              ok1 &= same_bits(S[e], w1) && same_bits(Q[pe], w1);
              ok2 &= same_bits(S2[e], w2) && same_bits(Q2[pe], w2);
            }
          CHECK(ok1);
          CHECK(ok2);
          CHECK(untouched);
        }
      }
  });
}

TEST_CASE("dsymv, dspmv, dsbmv, dgbmv against MPFR", "[blas]")
{
  Rng rng(33);
  both_paths([&] {
  for (int kind = 0; kind < kKinds; ++kind)
    for (double alpha : {0.7, -1e300})
      for (double beta : {0.0, 1.0, 0x1p-700})
        for (int incx : {1, -2}) {
          INFO(kind_name(kind) << " alpha=" << alpha << " beta=" << beta << " incx=" << incx);
          const int n = 6, ld = 8, incy = -1;
          std::vector<double> x = gen(kind, 2 * ld, rng), y = gen(kind, ld, rng), A = gen(kind, ld * ld, rng);
          for (char uplo : {'U', 'L'}) {
            const bool up = uplo == 'U';
            auto sym = [&](int i, int j) { return (up ? i <= j : i >= j) ? A[(size_t)(i + j * ld)] : A[(size_t)(j + i * ld)]; };
            std::vector<double> P((size_t)(n * (n + 1) / 2));
            for (int j = 0; j < n; ++j)
              for (int i = up ? 0 : j; i < (up ? j + 1 : n); ++i) P[(size_t)packed_index(up, n, i, j)] = sym(i, j);
            std::vector<double> ys = y, yp = y;
            dsymv_(&uplo, &n, &alpha, A.data(), &ld, x.data(), &incx, &beta, ys.data(), &incy, 1);
            dspmv_(&uplo, &n, &alpha, P.data(), x.data(), &incx, &beta, yp.data(), &incy, 1);
            bool ok = true;
            for (int i = 0; i < n; ++i) {
              std::vector<double> a, xs;
              for (int j = 0; j < n; ++j) a.push_back(sym(i, j)), xs.push_back(at(x, n, incx, j));
              const double w = row(alpha, a, xs, beta, at(y, n, incy, i));
              ok &= same_bits(at(ys, n, incy, i), w) && same_bits(at(yp, n, incy, i), w);
            }
            CHECK(ok);
            // dsbmv: band of half-width k, stored (k+1) x n
            const int k = 2, lb = k + 1;
            std::vector<double> Bd((size_t)(lb * n), kNaN);
            for (int j = 0; j < n; ++j)
              for (int i = std::max(0, j - k); i <= std::min(n - 1, j + k); ++i)
                if (up && i <= j) Bd[(size_t)(k + i - j + j * lb)] = sym(i, j);
                else if (!up && i >= j) Bd[(size_t)(i - j + j * lb)] = sym(i, j);
            std::vector<double> yb = y;
            dsbmv_(&uplo, &n, &k, &alpha, Bd.data(), &lb, x.data(), &incx, &beta, yb.data(), &incy, 1);
            ok = true;
            for (int i = 0; i < n; ++i) {
              std::vector<double> a, xs;
              for (int j = std::max(0, i - k); j <= std::min(n - 1, i + k); ++j) a.push_back(sym(i, j)), xs.push_back(at(x, n, incx, j));
              ok &= same_bits(at(yb, n, incy, i), row(alpha, a, xs, beta, at(y, n, incy, i)));
            }
            CHECK(ok);
          }
          // dgbmv: m x n, kl = 1, ku = 2; entries outside the band are NaN in storage, never read
          const int m = 7, kl = 1, ku = 2, lg = kl + ku + 2;
          std::vector<double> Gb = gen(kind, lg * n, rng);
          for (char t : {'N', 'T'}) {
            const int leny = t == 'N' ? m : n, lenx = t == 'N' ? n : m;
            std::vector<double> yg = gen(kind, leny, rng), y0 = yg;
            dgbmv_(&t, &m, &n, &kl, &ku, &alpha, Gb.data(), &lg, x.data(), &incx, &beta, yg.data(), &incy, 1);
            bool ok = true;
            for (int r = 0; r < leny; ++r) {
              std::vector<double> a, xs;
              for (int c = 0; c < lenx; ++c) {
                const int i = t == 'N' ? r : c, j = t == 'N' ? c : r;
                if (i - j > kl || j - i > ku) continue;
                a.push_back(Gb[(size_t)(ku + i - j + j * lg)]), xs.push_back(at(x, lenx, incx, c));
              }
              ok &= same_bits(at(yg, leny, incy, r), row(alpha, a, xs, beta, at(y0, leny, incy, r)));
            }
            CHECK(ok);
          }
        }
  });
}

TEST_CASE("dtrmv, dtpmv, dtbmv, dtbsv, dtpsv against MPFR", "[blas]")
{
  Rng rng(34);
  for (int kind = 0; kind < kKinds; ++kind)
    for (char uplo : {'U', 'L'})
      for (char trans : {'N', 'T'})
        for (char diag : {'N', 'U'})
          for (int incx : {1, -2}) {
            INFO(kind_name(kind) << " " << uplo << trans << diag << " incx=" << incx);
            const int n = 6, ld = 7, k = 2, lb = k + 1;
            const bool up = uplo == 'U', unit = diag == 'U';
            std::vector<double> T = gen(kind, ld * n, rng), x = gen(kind, 2 * n, rng);
            if (kind == 0)
              for (int i = 0; i < n; ++i) T[(size_t)(i + i * ld)] += 3.0; // solvable
            auto stored = [&](int i, int j) { return up ? i <= j : i >= j; };
            auto op = [&](int i, int j) { return trans == 'N' ? T[(size_t)(i + j * ld)] : T[(size_t)(j + i * ld)]; };
            auto in_op = [&](int i, int j) { return trans == 'N' ? stored(i, j) : stored(j, i); };
            std::vector<double> P((size_t)(n * (n + 1) / 2)), Bd((size_t)(lb * n), kNaN);
            for (int j = 0; j < n; ++j)
              for (int i = 0; i < n; ++i)
                if (stored(i, j)) {
                  P[(size_t)packed_index(up, n, i, j)] = T[(size_t)(i + j * ld)];
                  if (std::abs(i - j) <= k) Bd[(size_t)((up ? k + i - j : i - j) + j * lb)] = T[(size_t)(i + j * ld)];
                }
            // products: x_i := RN(Σ_j op(T)_ij·x_j), the diagonal's term x_i itself when unit
            auto mv_want = [&](int band) {
              std::vector<double> w = x;
              for (int i = 0; i < n; ++i) {
                std::vector<double> a, xs;
                for (int j = 0; j < n; ++j) {
                  if (!in_op(i, j) || (band >= 0 && std::abs(i - j) > band)) continue;
                  a.push_back(i == j && unit ? 1.0 : op(i, j)), xs.push_back(at(x, n, incx, j));
                }
                w[(size_t)(incx < 0 ? (n - 1 - i) * -incx : i * incx)] = row(1.0, a, xs);
              }
              return w;
            };
            std::vector<double> xt = x, xp = x, xb = x;
            dtrmv_(&uplo, &trans, &diag, &n, T.data(), &ld, xt.data(), &incx, 1, 1, 1);
            dtpmv_(&uplo, &trans, &diag, &n, P.data(), xp.data(), &incx, 1, 1, 1);
            dtbmv_(&uplo, &trans, &diag, &n, &k, Bd.data(), &lb, xb.data(), &incx, 1, 1, 1);
            const std::vector<double> full = mv_want(-1);
            CHECK(same(xt, full));
            CHECK(same(xp, full));
            CHECK(same(xb, mv_want(k)));
            // solves: x_i := RN(RN(b_i − Σ_j op(T)_ij·x_j) / op(T)_ii) in substitution order
            const bool lower = (uplo == 'L') == (trans == 'N');
            auto sv_want = [&](int band) {
              std::vector<double> s(n);
              for (int q = 0; q < n; ++q) {
                const int i = lower ? q : n - 1 - q;
                std::vector<double> a, xs;
                for (int j = 0; j < n; ++j) {
                  if (j == i || !in_op(i, j) || (band >= 0 && std::abs(i - j) > band)) continue;
                  a.push_back(op(i, j)), xs.push_back(s[(size_t)j]);
                }
                const double r = row(-1.0, a, xs, 1.0, at(x, n, incx, i));
                s[(size_t)i] = unit ? r : r / op(i, i);
              }
              std::vector<double> w = x;
              for (int i = 0; i < n; ++i) w[(size_t)(incx < 0 ? (n - 1 - i) * -incx : i * incx)] = s[(size_t)i];
              return w;
            };
            xp = x, xb = x;
            dtpsv_(&uplo, &trans, &diag, &n, P.data(), xp.data(), &incx, 1, 1, 1);
            dtbsv_(&uplo, &trans, &diag, &n, &k, Bd.data(), &lb, xb.data(), &incx, 1, 1, 1);
            CHECK(same(xp, sv_want(-1)));
            CHECK(same(xb, sv_want(k)));
          }
}

TEST_CASE("dtrmm, dsymm, dsyrk, dsyr2k against MPFR", "[blas]")
{
  Rng rng(35);
  both_paths([&] {
  for (int kind = 0; kind < kKinds; ++kind)
    for (double alpha : {0.7, -0x1p-900})
      for (char uplo : {'U', 'L'})
        for (char trans : {'N', 'T'}) {
          INFO(kind_name(kind) << " alpha=" << alpha << " " << uplo << trans);
          const bool up = uplo == 'U';
          const int m = 5, n = 4, ld = 8;
          std::vector<double> A = gen(kind, ld * ld, rng), B = gen(kind, ld * ld, rng), C = gen(kind, ld * ld, rng);
          auto a = [&](int i, int j) { return A[(size_t)(i + j * ld)]; };
          auto b = [&](int i, int j) { return B[(size_t)(i + j * ld)]; };
          auto stored = [&](int i, int j) { return up ? i <= j : i >= j; };
          // dtrmm
          for (char side : {'L', 'R'})
            for (char diag : {'N', 'U'}) {
              std::vector<double> X = B;
              dtrmm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, A.data(), &ld, X.data(), &ld, 1, 1, 1, 1);
              auto op = [&](int i, int j) { return trans == 'N' ? a(i, j) : a(j, i); };
              auto in_op = [&](int i, int j) { return trans == 'N' ? stored(i, j) : stored(j, i); };
              bool ok = true;
              for (int j = 0; j < n; ++j)
                for (int i = 0; i < m; ++i) {
                  std::vector<double> f, g;
                  const int kk = side == 'L' ? m : n;
                  for (int l = 0; l < kk; ++l) {
                    const int r = side == 'L' ? i : l, c = side == 'L' ? l : j;
                    if (!in_op(r, c)) continue;
                    const double t = (r == c && diag == 'U') ? 1.0 : op(r, c);
                    f.push_back(t), g.push_back(side == 'L' ? b(l, j) : b(i, l));
                  }
                  ok &= same_bits(X[(size_t)(i + j * ld)], row(alpha, f, g));
                }
              INFO("dtrmm side=" << side << " diag=" << diag);
              CHECK(ok);
            }
          // dsymm (trans unused)
          for (char side : {'L', 'R'}) {
            const double beta = 1.5;
            std::vector<double> Y = C;
            dsymm_(&side, &uplo, &m, &n, &alpha, A.data(), &ld, B.data(), &ld, &beta, Y.data(), &ld, 1, 1);
            auto sym = [&](int i, int j) { return stored(i, j) ? a(i, j) : a(j, i); };
            bool ok = true;
            for (int j = 0; j < n; ++j)
              for (int i = 0; i < m; ++i) {
                std::vector<double> f, g;
                const int kk = side == 'L' ? m : n;
                for (int l = 0; l < kk; ++l)
                  if (side == 'L') f.push_back(sym(i, l)), g.push_back(b(l, j));
                  else f.push_back(b(i, l)), g.push_back(sym(l, j));
                ok &= same_bits(Y[(size_t)(i + j * ld)], row(alpha, f, g, beta, C[(size_t)(i + j * ld)]));
              }
            INFO("dsymm side=" << side);
            CHECK(ok);
          }
          // dsyrk, dsyr2k: the stored triangle of C, the other untouched
          const int k = 3;
          auto opa = [&](int i, int l) { return trans == 'N' ? a(i, l) : a(l, i); };
          auto opb = [&](int i, int l) { return trans == 'N' ? b(i, l) : b(l, i); };
          for (double beta : {0.0, -2.0}) {
            std::vector<double> K = C, K2 = C;
            dsyrk_(&uplo, &trans, &n, &k, &alpha, A.data(), &ld, &beta, K.data(), &ld, 1, 1);
            dsyr2k_(&uplo, &trans, &n, &k, &alpha, A.data(), &ld, B.data(), &ld, &beta, K2.data(), &ld, 1, 1);
            bool ok1 = true, ok2 = true, untouched = true;
            for (int j = 0; j < n; ++j)
              for (int i = 0; i < n; ++i) {
                const size_t e = (size_t)(i + j * ld);
                if (!stored(i, j)) {
                  untouched &= same_bits(K[e], C[e]) && same_bits(K2[e], C[e]);
                  continue;
                }
                std::vector<double> f, g, f2, g2;
                for (int l = 0; l < k; ++l) {
                  f.push_back(opa(i, l)), g.push_back(opa(j, l));
                  f2.push_back(opa(i, l)), g2.push_back(opb(j, l));
                  f2.push_back(opb(i, l)), g2.push_back(opa(j, l));
                }
                ok1 &= same_bits(K[e], row(alpha, f, g, beta, C[e]));
                ok2 &= same_bits(K2[e], row(alpha, f2, g2, beta, C[e]));
              }
            INFO("beta=" << beta);
            CHECK(ok1);
            CHECK(ok2);
            CHECK(untouched);
          }
        }
  });
}
