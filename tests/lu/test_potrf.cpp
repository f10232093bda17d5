// The exact Cholesky (exstar_dpotrf, exstar_dpotrf_tiled, exstar_dpotrs, exstar_dposv) against the
// MPFR oracle of its definition (ref_potrf, ref_trsv): every entry of the factor and info bit for
// bit, for both triangles, every tile edge, scheduler and worker count, the fast and exact paths;
// matrices random SPD, exactly ill-conditioned (cond beyond 1e40), exactly singular and barely
// indefinite (the exact test must decide them), wide exponent ranges, subnormals, NaN and inf.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/chol_cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <exstar/exstar.hpp>
#include <exstar/lapack.hpp>
#include <cmath>
#include <string>

using namespace exstar_test;

namespace {

// A symmetric matrix given by its full column-major n x n contents, stored with lda = n + 3 and
// NaN in the padding (never read).
struct problem {
  std::string name;
  int n, lda;
  std::vector<double> A;
};

problem make(std::string name, int n, const std::vector<double> &full)
{
  const int lda = n + 3;
  problem p{std::move(name), n, lda, std::vector<double>((size_t)lda * std::max(n, 1), std::nan(""))};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) p.A[i + (size_t)j * lda] = full[i + (size_t)j * n];
  return p;
}

std::vector<problem> problems()
{
  Rng rng(20261127);
  std::vector<problem> ps;
  ps.push_back(make("random SPD 40", 40, random_spd(40, rng)));
  ps.push_back(make("exact factor, cond ~1e12", 30, from_factor(30, 3, rng)));
  ps.push_back(make("exact factor, cond > 1e40", 33, from_factor(33, 60, rng)));
  ps.push_back(make("exactly singular at 17", 30, from_factor(30, 2, rng, 17, -1.0)));
  // the last pivot: a shift of an earlier one would also change the Schur complement after it
  ps.push_back(make("barely indefinite at 24", 25, from_factor(25, 2, rng, 24, -1.0 - 0x1p-30)));
  ps.push_back(make("barely definite at 24", 25, from_factor(25, 2, rng, 24, -1.0 + 0x1p-30)));
  ps.push_back(make("wide exponents 31", 31, scaled(31, random_spd(31, rng), -250, 250, rng)));
  ps.push_back(make("subnormal range 20", 20, scaled(20, random_spd(20, rng), -545, -520, rng)));
  ps.push_back(make("huge, squares overflow 20", 20, scaled(20, random_spd(20, rng), 480, 500, rng)));
  {
    std::vector<double> A = random_spd(24, rng);
    A[5 + 11 * 24] = A[11 + 5 * 24] = std::nan("");
    ps.push_back(make("NaN 24", 24, A));
  }
  {
    std::vector<double> A = random_spd(24, rng);
    A[14 + 14 * 24] = INFINITY;
    ps.push_back(make("inf on the diagonal 24", 24, A));
  }
  {
    std::vector<double> A = random_spd(16, rng);
    A[3 + 3 * 16] = -1.0;
    ps.push_back(make("negative diagonal 16", 16, A));
  }
  return ps;
}

const std::vector<problem> &all()
{
  static const std::vector<problem> ps = problems();
  return ps;
}

struct factor {
  std::vector<double> A;
  int64_t info = -1;
  int status = 0;
};

factor reference(const problem &p)
{
  factor f{p.A};
  f.info = ref_potrf(p.n, f.A, p.lda);
  return f;
}

// nb < 0: exstar_dpotrf (the default tile edge); uplo 'U' reads and writes the upper triangle,
// compared after transposing back.
factor run(const problem &p, int64_t nb, char uplo = 'L')
{
  factor f{p.A};
  if (uplo == 'U') // the same matrix, its upper triangle: the strictly lower one holds junk
    for (int j = 0; j < p.n; ++j)
      for (int i = j + 1; i < p.n; ++i) f.A[i + (size_t)j * p.lda] = -7.25;
  f.status = nb < 0 ? exstar_dpotrf(uplo, p.n, f.A.data(), p.lda, &f.info)
                    : exstar_dpotrf_tiled(uplo, p.n, f.A.data(), p.lda, &f.info, nb);
  for (int j = 0; j < p.n; ++j)
    for (int i = j + 1; i < p.n; ++i) {
      double &lower = f.A[i + (size_t)j * p.lda], &upper = f.A[j + (size_t)i * p.lda];
      if (uplo == 'U') { // the other triangle untouched; then the factor transposed into it
        REQUIRE(lower == -7.25);
        lower = upper;
      } else {
        REQUIRE(same_bits(upper, p.A[j + (size_t)i * p.lda]));
      }
    }
  return f;
}

int expected_status(const factor &want)
{
  if (want.info > 0) return EXSTAR_ERR_NOT_POSDEF;
  return EXSTAR_SUCCESS; // overridden below where L holds NaN or inf
}

void require_same(const problem &p, const factor &got, const factor &want, const std::string &what)
{
  INFO(p.name << ", " << what << ": " << exstar_last_error());
  REQUIRE(got.info == want.info);
  bool nonfinite = false;
  int64_t bad = 0, first = -1;
  for (int j = 0; j < p.n; ++j)
    for (int i = j; i < p.n; ++i) {
      const double w = want.A[i + (size_t)j * p.lda];
      nonfinite = nonfinite || !std::isfinite(w);
      if (!same_bits(got.A[i + (size_t)j * p.lda], w)) {
        if (first < 0) first = i + (int64_t)j * p.n;
        ++bad;
      }
    }
  INFO("differing entries " << bad << ", first at (" << first % std::max(p.n, 1) << ", " << first / std::max(p.n, 1) << ")");
  REQUIRE(bad == 0);
  const int status = want.info == 0 && nonfinite ? EXSTAR_ERR_NONFINITE : expected_status(want);
  REQUIRE(got.status == status);
}

} // namespace

TEST_CASE("potrf: every entry and info is the MPFR definition's, for every tile edge", "[potrf]")
{
  session s("prio");
  for (const problem &p : all()) {
    const factor want = reference(p);
    for (int64_t nb : {1, 7, 16, 32, 64, 1000}) {
      if (nb == 1 && p.n > 30) continue; // one tile per entry: thousands of tasks
      require_same(p, run(p, nb), want, "nb " + std::to_string(nb));
    }
    require_same(p, run(p, -1), want, "exstar_dpotrf");
  }
}

TEST_CASE("potrf: the exact test decides definiteness on the exact pivots", "[potrf]")
{
  session s("prio");
  CHECK(reference(all()[3]).info == 18); // s = 0 exactly at column 17
  CHECK(reference(all()[4]).info == 25); // s = −2^-30 at column 24
  CHECK(reference(all()[5]).info == 0);  // s = +2^-30 at column 24: l(24,24) = 2^-15
  for (int k : {3, 4, 5}) REQUIRE(run(all()[k], 8).info == reference(all()[k]).info);
  // an exactly known factor comes back exactly: L's entries are small integers, A = L·Lᵀ
  const problem &p = all()[2];
  const factor got = run(p, 8);
  REQUIRE(got.info == 0);
  for (int j = 0; j < p.n; ++j) REQUIRE(got.A[j + (size_t)j * p.lda] == 1.0);
}

TEST_CASE("potrf uplo 'U' is the transpose of uplo 'L', the other triangle untouched", "[potrf]")
{
  session s("eager");
  for (const problem &p : all()) {
    const factor want = reference(p);
    for (int64_t nb : {5, 32}) require_same(p, run(p, nb, 'U'), want, "uplo U, nb " + std::to_string(nb));
  }
}

TEST_CASE("potrf under every scheduler and worker count, fast and exact paths", "[potrf][sched]")
{
  const problem &p = all()[0];
  const factor want = reference(p);
  const std::vector<int> counts = (test_backends() & EXSTAR_BACKEND_CPU) ? std::vector<int>{1, 2} : std::vector<int>{-1};
  for (size_t si = 0; si < schedulers().size(); ++si) {
    session s(schedulers()[si].c_str(), counts[si % counts.size()]);
    for (int exact : {0, 1}) {
      exstar_set_exact_only(exact);
      require_same(p, run(p, 7 + 4 * exact), want, "scheduler " + schedulers()[si] + (exact ? ", exact only" : ""));
    }
    exstar_set_exact_only(0);
  }
}

TEST_CASE("potrf on a larger matrix: the same bits for every tile edge", "[potrf][large]")
{
  session s("prio");
  Rng rng(99);
  const problem p = make("random SPD 300, wide", 300, scaled(300, random_spd(300, rng), -40, 40, rng));
  const factor want = run(p, 300); // one tile: the panel kernel alone
  REQUIRE(want.info == 0);
  for (int64_t nb : {32, 64, 128}) require_same(p, run(p, nb), want, "nb " + std::to_string(nb));
  require_same(p, want, reference(p), "oracle");
}

// Tile edges whose triangle's states fill a block's default shared memory on the GPU (1536 x 32
// bytes = 48 KB, beside what the substitution kernel declares itself: the CUDA tile shape's trsm
// failed to launch with 1536 before 2026-11-29). A diagonally dominant matrix (built in O(n^2)).
TEST_CASE("potrf with tile edges of 1408 and 1536: the same bits as one tile", "[potrf][large]")
{
  session s("prio");
  Rng rng(101);
  const int n = 1600;
  const std::vector<double> u = gen_uniform(n * n, rng);
  std::vector<double> A((size_t)n * n);
  for (int j = 0; j < n; ++j) {
    A[j + (size_t)j * n] = (double)n;
    for (int i = j + 1; i < n; ++i) A[i + (size_t)j * n] = A[j + (size_t)i * n] = u[i + (size_t)j * n];
  }
  const problem p = make("diagonally dominant 1600", n, A);
  const factor want = run(p, n); // one tile
  REQUIRE(want.info == 0);
  for (int64_t nb : {1408, 1536}) require_same(p, run(p, nb), want, "nb " + std::to_string(nb));
}

TEST_CASE("potrs and posv: each column is the two exact triangular solves", "[potrf][solve]")
{
  session s("prio");
  Rng rng(7);
  const int nrhs = 3;
  for (int which : {0, 2}) { // random SPD, cond > 1e40
    const problem &p = all()[(size_t)which];
    const int m = p.n;
    const std::vector<double> B = gen_uniform(m * nrhs, rng);
    factor f = run(p, 16);
    REQUIRE(f.info == 0);
    for (char uplo : {'L', 'U'}) {
      std::vector<double> F = f.A; // uplo 'U': U = Lᵀ above the diagonal, NaN below (not read)
      if (uplo == 'U')
        for (int j = 0; j < m; ++j)
          for (int i = j + 1; i < m; ++i)
            F[j + (size_t)i * p.lda] = f.A[i + (size_t)j * p.lda], F[i + (size_t)j * p.lda] = std::nan("");
      std::vector<double> X = B;
      REQUIRE(exstar_dpotrs(uplo, m, nrhs, F.data(), p.lda, X.data(), m) == EXSTAR_SUCCESS);
      std::vector<double> want = B;
      for (int c = 0; c < nrhs; ++c) {
        std::vector<double> b(B.begin() + c * m, B.begin() + (c + 1) * m);
        b = ref_trsv('L', 'N', 'N', m, f.A, p.lda, b);
        b = ref_trsv('L', 'T', 'N', m, f.A, p.lda, b);
        std::copy(b.begin(), b.end(), want.begin() + c * m);
      }
      for (size_t q = 0; q < want.size(); ++q) REQUIRE(same_bits(X[q], want[q]));
      // posv without refinement: potrf then potrs
      std::vector<double> A2 = p.A, X2 = B; // the full symmetric matrix: either triangle
      int64_t info = -1;
      REQUIRE(exstar_dposv(uplo, m, nrhs, A2.data(), p.lda, X2.data(), m, 0, &info) == EXSTAR_SUCCESS);
      REQUIRE(info == 0);
      for (size_t q = 0; q < want.size(); ++q) REQUIRE(same_bits(X2[q], want[q]));
    }
  }
}

TEST_CASE("posv with refinement: the exact residual, the solve, the exact update", "[potrf][solve]")
{
  session s("prio");
  Rng rng(8);
  const problem &p = all()[2]; // cond > 1e40: refinement changes the bits
  const int m = p.n, nrhs = 2;
  const std::vector<double> B = gen_uniform(m * nrhs, rng);
  std::vector<double> A = p.A, X = B;
  int64_t info = -1;
  REQUIRE(exstar_dposv('L', m, nrhs, A.data(), p.lda, X.data(), m, 2, &info) == EXSTAR_SUCCESS);
  const factor f = reference(p);
  std::vector<double> full((size_t)m * m);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) full[i + (size_t)j * m] = p.A[(i >= j ? i + (size_t)j * p.lda : j + (size_t)i * p.lda)];
  auto solve = [&](std::vector<double> b) {
    b = ref_trsv('L', 'N', 'N', m, f.A, p.lda, b);
    return ref_trsv('L', 'T', 'N', m, f.A, p.lda, b);
  };
  for (int c = 0; c < nrhs; ++c) {
    const std::vector<double> b(B.begin() + c * m, B.begin() + (c + 1) * m);
    std::vector<double> x = solve(b);
    for (int step = 0; step < 2; ++step) {
      const std::vector<double> r = ref_gemv('N', m, m, -1.0, full, m, x, 1.0, b, GemvAlpha::per_term);
      const std::vector<double> d = solve(r);
      for (int i = 0; i < m; ++i) x[(size_t)i] = ref_axpy(1.0, d[(size_t)i], x[(size_t)i]);
    }
    for (int i = 0; i < m; ++i) REQUIRE(same_bits(X[(size_t)(i + c * m)], x[(size_t)i]));
  }
}

TEST_CASE("potrf, potrs, posv: bad arguments are errors before any work", "[potrf][errors]")
{
  session s("eager");
  std::vector<double> A(16, 1.0), B(4, 1.0);
  int64_t info = 0;
  CHECK(exstar_dpotrf('X', 4, A.data(), 4, &info) == EXSTAR_ERR_ARG);
  CHECK(exstar_dpotrf('L', -1, A.data(), 4, &info) == EXSTAR_ERR_ARG);
  CHECK(exstar_dpotrf('L', 4, A.data(), 3, &info) == EXSTAR_ERR_ARG);
  CHECK(exstar_dpotrf('L', 4, nullptr, 4, &info) == EXSTAR_ERR_ARG);
  CHECK(exstar_dpotrf('L', 4, A.data(), 4, nullptr) == EXSTAR_ERR_ARG);
  CHECK(exstar_dpotrf_tiled('L', 4, A.data(), 4, &info, -2) == EXSTAR_ERR_ARG);
  CHECK(exstar_dpotrs('L', 4, 1, A.data(), 4, B.data(), 3) == EXSTAR_ERR_ARG);
  CHECK(exstar_dposv('L', 4, 1, A.data(), 4, B.data(), 4, -1, &info) == EXSTAR_ERR_ARG);
  CHECK(std::string(exstar_last_error()).find("refine_steps") != std::string::npos);
  info = 5;
  CHECK(exstar_dpotrf('L', 0, nullptr, 1, &info) == EXSTAR_SUCCESS);
  CHECK(info == 0);
  // posv on a matrix that is not positive definite: B unchanged, LAPACK's info
  const problem &p = all()[3];
  std::vector<double> A2 = p.A, X(p.n, 2.0);
  CHECK(exstar_dposv('L', p.n, 1, A2.data(), p.lda, X.data(), p.n, 0, &info) == EXSTAR_ERR_NOT_POSDEF);
  CHECK(info == 18);
  for (double x : X) CHECK(x == 2.0);
  CHECK(std::string(exstar_status_name(EXSTAR_ERR_NOT_POSDEF)) == "not positive definite");
}

TEST_CASE("the C++ potrf and posv: not positive definite is a result, bad arguments throw", "[potrf][cpp]")
{
  session s("eager");
  const problem &p = all()[3]; // exactly singular at column 17
  std::vector<double> A = p.A;
  const exstar::chol_status st = exstar::potrf('L', p.n, A.data(), p.lda);
  CHECK(st.info == 18);
  CHECK(!st.ok());
  std::vector<double> B = p.A, X(p.n, 1.0);
  CHECK(exstar::posv('L', p.n, 1, B.data(), p.lda, X.data(), p.n).info == 18);
  const problem &q = all()[0];
  std::vector<double> C = q.A;
  CHECK(exstar::potrf('U', q.n, C.data(), q.lda).ok());
  CHECK_THROWS_AS(exstar::potrf('Q', q.n, C.data(), q.lda), exstar::error);
}

TEST_CASE("the plain-double baseline on the same graph factors SPD matrices and reports LAPACK's info",
          "[potrf][plain]")
{
  session s("prio");
  const problem &p = all()[0]; // random SPD
  std::vector<double> A = p.A;
  int64_t info = -1;
  const int st = exstar_dpotrf_plain('L', p.n, A.data(), p.lda, &info);
  if (st == EXSTAR_ERR_NO_WORKER) return; // a build without LAPACK
  REQUIRE(st == EXSTAR_SUCCESS);
  REQUIRE(info == 0);
  const factor want = reference(p);
  for (int j = 0; j < p.n; ++j) // not exact: close to the exact factor (a baseline, not a contract)
    for (int i = j; i < p.n; ++i)
      REQUIRE(std::fabs(A[i + (size_t)j * p.lda] - want.A[i + (size_t)j * p.lda]) <=
              1e-12 * std::fabs(want.A[j + (size_t)j * p.lda]));
  std::vector<double> B = all()[11].A; // a negative diagonal entry at column 3
  REQUIRE(exstar_dpotrf_plain('L', all()[11].n, B.data(), all()[11].lda, &info) == EXSTAR_ERR_NOT_POSDEF);
  REQUIRE(info == 4);
}

TEST_CASE("potrf on descriptors: tasks only, exstar_dpotrf's bits, info after", "[potrf][tiles]")
{
  session s("prio");
  // random, cond > 1e40, not positive definite, squares that overflow, NaN, inf on the diagonal
  // (the status from the roots alone: EXSTAR_ERR_NONFINITE without reading the tiles)
  for (size_t k : {size_t(0), size_t(2), size_t(4), size_t(8), size_t(9), size_t(10)}) {
    const problem &p = all()[k];
    const factor want = run(p, 16);
    for (int64_t nb : {7, 16, 64}) {
      std::vector<double> A = p.A;
      exstar_desc d;
      REQUIRE(exstar_desc_create(&d, p.n, p.n, nb, A.data(), p.lda) == EXSTAR_SUCCESS);
      REQUIRE(exstar_dpotrf_desc_insert(d) == EXSTAR_SUCCESS);
      int64_t info = -1;
      CHECK(exstar_dpotrf_desc_info(d, &info) == want.status);
      CHECK(info == want.info);
      REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
      for (int j = 0; j < p.n; ++j)
        for (int i = 0; i < p.n; ++i) {
          INFO(p.name << ", nb " << nb << ", (" << i << ", " << j << ")");
          REQUIRE(same_bits(A[i + (size_t)j * p.lda], (i >= j ? want.A : p.A)[i + (size_t)j * p.lda]));
        }
    }
  }
  exstar_desc d;
  std::vector<double> R(12, 1.0);
  REQUIRE(exstar_desc_create(&d, 4, 3, 2, R.data(), 4) == EXSTAR_SUCCESS);
  CHECK(exstar_dpotrf_desc_insert(d) == EXSTAR_ERR_ARG); // not square
  int64_t info;
  CHECK(exstar_dpotrf_desc_info(d, &info) == EXSTAR_ERR_ARG); // none inserted
  exstar_desc_destroy(d);
}
