// The exact LU driver through StarPU on the back ends under test (EXSTAR_TEST_BACKENDS): every
// entry of L and U and every pivot bit for bit the MPFR oracle ref_getrf (random, ill-
// conditioned, pivoting, singular, rectangular, lda > m, special values), the same bits for
// every scheduler, worker count, block size and run; getrs/gesv bit for bit their definition
// composed from ref_trsv/ref_gemv; a batch equals the matrices one by one.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <cmath>
#include <string>

using namespace exstar_test;

namespace {

// A problem: an m x n matrix stored with leading dimension lda (padding rows hold NaN, never
// read or written).
struct problem {
  std::string name;
  int m, n, lda;
  std::vector<double> A;
};

problem make(std::string name, int m, int n, int lda, const std::vector<double> &dense)
{
  problem p{std::move(name), m, n, lda, std::vector<double>((size_t)lda * (n > 0 ? n : 1), std::nan(""))};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) p.A[i + (size_t)j * lda] = dense[i + (size_t)j * m];
  return p;
}

problem random_problem(int m, int n, int lda, Rng &rng, int emin = -3, int emax = 3)
{
  return make("random " + std::to_string(m) + "x" + std::to_string(n) + " lda=" + std::to_string(lda), m, n, lda,
              gen_exp_spread(m * n, emin, emax, rng));
}

struct factors {
  std::vector<double> A;
  std::vector<int32_t> ipiv;
  int64_t info = -1;
  int status = 0;
};

factors run_getrf(const problem &p)
{
  factors f{p.A, std::vector<int32_t>((size_t)std::max(1, std::min(p.m, p.n)), -1)};
  f.status = exstar_dgetrf(p.m, p.n, f.A.data(), p.lda, f.ipiv.data(), &f.info);
  f.ipiv.resize((size_t)std::min(p.m, p.n));
  return f;
}

// Task form on a handle larger than the matrix, with block size nb.
factors run_insert(const problem &p, int64_t nb)
{
  factors f{p.A, std::vector<int32_t>((size_t)std::max(1, std::min(p.m, p.n)) + 2, -1)};
  starpu_data_handle_t hA, hp;
  starpu_matrix_data_register(&hA, STARPU_MAIN_RAM, (uintptr_t)f.A.data(), p.lda, p.m, p.n, sizeof(double));
  starpu_vector_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)f.ipiv.data(), (uint32_t)f.ipiv.size(),
                              sizeof(int32_t));
  f.status = exstar_dgetrf_insert(p.m, p.n, hA, hp, nb);
  starpu_data_unregister(hp);
  starpu_data_unregister(hA);
  f.ipiv.resize((size_t)std::min(p.m, p.n));
  f.info = 0; // the task form leaves info to the caller: the first zero on U's diagonal
  for (int j = 0; j < std::min(p.m, p.n) && f.info == 0; ++j)
    if (f.A[j + (size_t)j * p.lda] == 0.0) f.info = j + 1;
  return f;
}

factors reference(const problem &p)
{
  factors f{p.A, {}};
  std::vector<int> ip;
  f.info = ref_getrf(p.m, p.n, f.A, p.lda, ip);
  f.ipiv.assign(ip.begin(), ip.end());
  return f;
}

// Bit-for-bit comparison of the m x n factors and the pivots (NaN == NaN).
void require_same(const problem &p, const factors &got, const factors &want)
{
  INFO(p.name);
  REQUIRE(got.ipiv == want.ipiv);
  REQUIRE(got.info == want.info);
  int64_t bad = 0, first = -1;
  for (int j = 0; j < p.n; ++j)
    for (int i = 0; i < p.m; ++i)
      if (!same_bits(got.A[i + (size_t)j * p.lda], want.A[i + (size_t)j * p.lda])) {
        if (first < 0) first = i + (int64_t)j * p.lda;
        ++bad;
      }
  INFO("differing entries " << bad << ", first at element " << first);
  REQUIRE(bad == 0);
}

void check_oracle(const problem &p)
{
  factors got = run_getrf(p);
  INFO(p.name << ": " << exstar_last_error());
  const factors want = reference(p);
  require_same(p, got, want);
  bool finite = true;
  for (int j = 0; j < p.n; ++j)
    for (int i = 0; i < p.m; ++i) finite = finite && std::isfinite(want.A[i + (size_t)j * p.lda]);
  const int expect = !finite ? EXSTAR_ERR_NONFINITE : want.info > 0 ? EXSTAR_ERR_SINGULAR : EXSTAR_SUCCESS;
  REQUIRE(got.status == expect);
}

bool cpu_only() { return test_backends() == EXSTAR_BACKEND_CPU; }

std::vector<double> to_vec(const double *x, int n) { return std::vector<double>(x, x + n); }

// The definition of getrs composed from oracles, on the reference factors.
std::vector<double> ref_getrs(char trans, int n, const factors &f, int lda, std::vector<double> b)
{
  if (trans == 'N') {
    for (int k = 0; k < n; ++k) std::swap(b[k], b[f.ipiv[k] - 1]);
    b = ref_trsv('L', 'N', 'U', n, f.A, lda, b);
    return ref_trsv('U', 'N', 'N', n, f.A, lda, b);
  }
  b = ref_trsv('U', 'T', 'N', n, f.A, lda, b);
  b = ref_trsv('L', 'T', 'U', n, f.A, lda, b);
  for (int k = n - 1; k >= 0; --k) std::swap(b[k], b[f.ipiv[k] - 1]);
  return b;
}

} // namespace

TEST_CASE("getrf equals ref_getrf bit for bit: random square matrices", "[lu]")
{
  session s("eager");
  Rng rng(101);
  std::vector<int> sizes = {1, 2, 3, 5, 8, 17, 33, 64};
  if (cpu_only()) sizes.push_back(150);
  for (int n : sizes) check_oracle(random_problem(n, n, n, rng));
  check_oracle(random_problem(40, 40, 40, rng, -300, 300)); // wide exponent range
  check_oracle(make("uniform 48", 48, 48, 48, gen_uniform(48 * 48, rng)));
}

TEST_CASE("getrf equals ref_getrf: ill-conditioned matrices (gen_matrix_cond 1e2..1e16)", "[lu][cond]")
{
  session s("eager");
  const int n = cpu_only() ? 64 : 40;
  for (double cond : {1e2, 1e8, 1e12, 1e16})
    check_oracle(make("gen_matrix_cond " + std::to_string(cond), n, n, n, gen_matrix_cond(n, cond, 7)));
}

TEST_CASE("getrf equals ref_getrf: pivoting, ties, singular matrices", "[lu][pivot]")
{
  session s("eager");
  Rng rng(202);
  const int n = 24;
  // Growing magnitudes down each column: every column pivots on its last row.
  std::vector<double> grow((size_t)n * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) grow[i + (size_t)j * n] = (1.0 + i) * (1.0 + rand_unit(rng)) * ((i + j) % 2 ? -1 : 1);
  check_oracle(make("growing rows", n, n, n, grow));
  // Entries in {-1, +1}: many ties, the first row of the largest |v| must win everywhere.
  std::vector<double> pm((size_t)n * n);
  for (double &d : pm) d = rand_below(rng, 2) ? 1.0 : -1.0;
  check_oracle(make("+-1 ties", n, n, n, pm));
  // Small integers: exact cancellation to zero pivots, info = first one.
  std::vector<double> ints((size_t)n * n);
  for (double &d : ints) d = (double)rand_below(rng, 3) - 1.0;
  check_oracle(make("integers in {-1,0,1}", n, n, n, ints));
  // A zero column, and a column equal to another: exactly singular.
  std::vector<double> sing = gen_uniform(n * n, rng);
  for (int i = 0; i < n; ++i) sing[i + 5 * n] = 0.0, sing[i + 9 * n] = sing[i + 2 * n];
  const problem ps = make("zero column 5, column 9 == column 2", n, n, n, sing);
  check_oracle(ps);
  REQUIRE(run_getrf(ps).info == 6);
  check_oracle(make("all zeros", 7, 7, 7, std::vector<double>(49, 0.0)));
  check_oracle(make("all -0", 5, 5, 5, std::vector<double>(25, -0.0)));
}

TEST_CASE("getrf equals ref_getrf: rectangular matrices and lda > m", "[lu][shape]")
{
  session s("eager");
  Rng rng(303);
  for (auto mn : std::vector<std::pair<int, int>>{{1, 5}, {5, 1}, {20, 7}, {7, 20}, {33, 16}, {16, 33}, {40, 40}})
    for (int pad : {0, 3}) check_oracle(random_problem(mn.first, mn.second, mn.first + pad, rng));
}

TEST_CASE("getrf factors special values as IEEE says and reports them", "[lu][special]")
{
  session s("eager");
  Rng rng(404);
  for (double p : {0.01, 0.05, 0.3}) {
    problem q = make("gen_special p=" + std::to_string(p), 12, 12, 12, gen_special(144, rng, p));
    check_oracle(q);
  }
  std::vector<double> sub = gen_subnormal(100, rng);
  check_oracle(make("subnormal", 10, 10, 10, sub));
  check_oracle(make("near max", 9, 9, 9, gen_near_max(81, rng)));
  check_oracle(make("exponents -1074..1023", 16, 16, 16, gen_exp_spread(256, -1074, 1023, rng)));
}

TEST_CASE("getrf gives the same bits under every scheduler, worker count, block size and run", "[lu][sched]")
{
  Rng rng(505);
  const int n = cpu_only() ? 48 : 24;
  const problem p = random_problem(n + 3, n, n + 5, rng);
  const factors want = reference(p);
  std::vector<int> counts = (test_backends() & EXSTAR_BACKEND_CPU) ? std::vector<int>{1, 2} : std::vector<int>{-1};
  for (const std::string &sched : schedulers())
    for (int ncpus : counts) {
      session s(sched.c_str(), ncpus);
      INFO(sched << " ncpus=" << ncpus);
      for (int64_t nb : {1, 7}) require_same(p, run_insert(p, nb), want);
      require_same(p, run_getrf(p), want); // a repeated run: every session runs it again
    }
}

TEST_CASE("getrs and gesv equal their definitions composed from oracles", "[lu][solve]")
{
  session s("dmda");
  Rng rng(606);
  const int n = cpu_only() ? 40 : 20, nrhs = 3, ldb = n + 2;
  const problem p = make("gen_matrix_cond 1e10", n, n, n + 1, gen_matrix_cond(n, 1e10, 11));
  const factors f = reference(p);
  std::vector<double> B((size_t)ldb * nrhs, -5.0);
  for (int c = 0; c < nrhs; ++c)
    for (int i = 0; i < n; ++i) B[i + (size_t)c * ldb] = rand_sym(rng);
  for (char trans : {'N', 'T'}) {
    std::vector<double> X = B;
    REQUIRE(exstar_dgetrs(trans, n, nrhs, f.A.data(), p.lda, f.ipiv.data(), X.data(), ldb) == EXSTAR_SUCCESS);
    for (int c = 0; c < nrhs; ++c) {
      INFO("trans " << trans << " column " << c);
      const std::vector<double> want = ref_getrs(trans, n, f, p.lda, to_vec(&B[(size_t)c * ldb], n));
      for (int i = 0; i < n; ++i) REQUIRE(same_bits(X[i + (size_t)c * ldb], want[i]));
    }
  }
  for (int steps : {0, 2}) {
    std::vector<double> A = p.A, X = B;
    std::vector<int32_t> ipiv(n);
    int64_t info = -1;
    REQUIRE(exstar_dgesv(n, nrhs, A.data(), p.lda, ipiv.data(), X.data(), ldb, steps, &info) == EXSTAR_SUCCESS);
    REQUIRE(info == 0);
    std::vector<double> A0((size_t)n * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) A0[i + (size_t)j * n] = p.A[i + (size_t)j * p.lda];
    for (int c = 0; c < nrhs; ++c) {
      INFO("gesv steps " << steps << " column " << c);
      const std::vector<double> b = to_vec(&B[(size_t)c * ldb], n);
      std::vector<double> x = ref_getrs('N', n, f, p.lda, b);
      for (int k = 0; k < steps; ++k) {
        const std::vector<double> r = ref_gemv('N', n, n, -1.0, A0, n, x, 1.0, b);
        const std::vector<double> d = ref_getrs('N', n, f, p.lda, r);
        for (int i = 0; i < n; ++i) x[i] = ref_axpy(1.0, d[i], x[i]);
      }
      for (int i = 0; i < n; ++i) REQUIRE(same_bits(X[i + (size_t)c * ldb], x[i]));
    }
  }
}

TEST_CASE("gesv on a singular matrix reports info and leaves B unchanged", "[lu][solve]")
{
  session s("eager");
  // Column 1 is twice column 0 and every quotient is exact: u(1,1) is an exact zero.
  std::vector<double> A = {1, 2, 4, 2, 4, 8, 0, 1, 1}, B = {1, 2, 3};
  std::vector<int32_t> ipiv(3);
  int64_t info = -1;
  REQUIRE(exstar_dgesv(3, 1, A.data(), 3, ipiv.data(), B.data(), 3, 1, &info) == EXSTAR_ERR_SINGULAR);
  REQUIRE(info == 2);
  REQUIRE(B == std::vector<double>{1, 2, 3});
}

TEST_CASE("a batch gives the bits of the matrices one by one", "[lu][batch]")
{
  session s("ws");
  Rng rng(707);
  const int count = 5, m = 20, n = 18, lda = 21;
  std::vector<problem> ps;
  for (int b = 0; b < count; ++b) ps.push_back(random_problem(m, n, lda, rng));
  for (int i = 0; i < m; ++i) ps[2].A[i + 4 * lda] = 0.0; // one singular member
  std::vector<std::vector<double>> As;
  std::vector<std::vector<int32_t>> ips(count, std::vector<int32_t>(n));
  std::vector<double *> Ap;
  std::vector<int32_t *> ipp;
  std::vector<int64_t> info(count, -1);
  for (int b = 0; b < count; ++b) As.push_back(ps[b].A);
  for (int b = 0; b < count; ++b) Ap.push_back(As[b].data()), ipp.push_back(ips[b].data());
  REQUIRE(exstar_dgetrf_batch(count, m, n, Ap.data(), lda, ipp.data(), info.data()) == EXSTAR_ERR_SINGULAR);
  for (int b = 0; b < count; ++b) {
    const factors one = run_getrf(ps[b]);
    factors got{As[b], ips[b], info[b], 0};
    require_same(ps[b], got, one);
  }
}

TEST_CASE("getrf rejects bad arguments before any task", "[lu][args]")
{
  session s("eager");
  std::vector<double> A(16, 1.0);
  std::vector<int32_t> ipiv(4);
  int64_t info = 0;
  REQUIRE(exstar_dgetrf(-1, 4, A.data(), 4, ipiv.data(), &info) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_dgetrf(4, -1, A.data(), 4, ipiv.data(), &info) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_dgetrf(4, 4, A.data(), 3, ipiv.data(), &info) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_dgetrf(4, 4, nullptr, 4, ipiv.data(), &info) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_dgetrf(4, 4, A.data(), 4, nullptr, &info) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_dgetrf(4, 4, A.data(), 4, ipiv.data(), nullptr) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_dgetrf_insert(4, 4, nullptr, nullptr, 0) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_dgetrs('X', 4, 1, A.data(), 4, ipiv.data(), A.data(), 4) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_dgesv(4, 1, A.data(), 4, ipiv.data(), A.data(), 3, 0, &info) == EXSTAR_ERR_ARG);
  REQUIRE(A == std::vector<double>(16, 1.0));
  REQUIRE(exstar_dgetrf(0, 4, A.data(), 1, ipiv.data(), &info) == EXSTAR_SUCCESS);
  REQUIRE(info == 0);
}

TEST_CASE("the plain-double baseline factors and solves (not exact)", "[lu][plain]")
{
  session s("eager");
  Rng rng(808);
  const int n = 30;
  const problem p = random_problem(n, n, n, rng);
  factors f{p.A, std::vector<int32_t>(n)};
  REQUIRE(exstar_dgetrf_plain(n, n, f.A.data(), n, f.ipiv.data(), &f.info) == EXSTAR_SUCCESS);
  const factors want = reference(p);
  // Pivots of a well-conditioned random matrix agree; entries agree to a few ulps only.
  REQUIRE(f.ipiv == want.ipiv);
  for (int k = 0; k < n * n; ++k) REQUIRE(f.A[k] == Approx(want.A[k]).epsilon(1e-10).margin(1e-12));
  std::vector<double> A = p.A, b = gen_uniform(n, rng), x = b;
  std::vector<int32_t> ipiv(n);
  int64_t info = -1;
  REQUIRE(exstar_dgesv_plain(n, 1, A.data(), n, ipiv.data(), x.data(), n, &info) == EXSTAR_SUCCESS);
  const std::vector<double> r = ref_gemv('N', n, n, -1.0, p.A, n, x, 1.0, b);
  for (double ri : r) REQUIRE(std::fabs(ri) < 1e-10);
}

// max |P·A0 − L·U| over the entries, for plain double factors LU of the n x n A0 (pivots checked).
static double plain_residual(int n, const std::vector<double> &A0, const std::vector<double> &A,
                             const std::vector<int32_t> &ipiv)
{
  std::vector<double> PA = A0;
  for (int k = 0; k < n; ++k) {
    REQUIRE(ipiv[k] >= k + 1);
    REQUIRE(ipiv[k] <= n);
    for (int j = 0; j < n; ++j) std::swap(PA[k + j * n], PA[ipiv[k] - 1 + j * n]);
  }
  double worst = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double lu = 0.0;
      for (int k = 0; k <= std::min(i, j); ++k) lu += (k == i ? 1.0 : A[i + k * n]) * A[k + j * n];
      worst = std::max(worst, std::fabs(PA[i + j * n] - lu));
    }
  return worst;
}

// A panel of 512 columns (on a CUDA worker: cuSOLVER on the whole panel; a last panel of 88):
// P·A = L·U to rounding.
TEST_CASE("the plain-double baseline's wide panels factor to a small residual (not exact)", "[lu][plain]")
{
  session s("eager");
  Rng rng(809);
  const int n = 600;
  const std::vector<double> A0 = gen_uniform(n * n, rng);
  std::vector<double> A = A0;
  std::vector<int32_t> ipiv(n);
  int64_t info = -1;
  REQUIRE(exstar_dgetrf_plain_tiled(n, n, A.data(), n, ipiv.data(), &info, 512) == EXSTAR_SUCCESS);
  REQUIRE(info == 0);
  REQUIRE(plain_residual(n, A0, A, ipiv) < 1e-9);
}

// The benchmarks' plain graph on tiles that stay where they are: over the caller's array, the
// pivots in the caller's ipiv and the pivot handle, LAPACK's info from exstar_dgetrf_desc_info.
TEST_CASE("the plain-double baseline on a descriptor factors to a small residual (not exact)", "[lu][plain][desc]")
{
  session s("eager");
  Rng rng(810);
  const int n = 300;
  const std::vector<double> A0 = gen_uniform(n * n, rng);
  std::vector<double> A = A0;
  std::vector<int32_t> ipiv(n, 0);
  exstar_desc d = nullptr;
  REQUIRE(exstar_desc_create(&d, n, n, 64, A.data(), n) == EXSTAR_SUCCESS);
  const int st = exstar_dgetrf_plain_desc_insert(d, ipiv.data());
  if (starpu_cpu_worker_get_count() == 0 && starpu_cuda_worker_get_count() == 0) {
    // the vendor kernels run on CPU and CUDA workers only (OpenCL alone: a clear error)
    REQUIRE(st == EXSTAR_ERR_NO_WORKER);
    REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
    return;
  }
  REQUIRE(st == EXSTAR_SUCCESS);
  int64_t info = -1;
  REQUIRE(exstar_dgetrf_desc_info(d, &info) == EXSTAR_SUCCESS);
  REQUIRE(info == 0);
  REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
  REQUIRE(plain_residual(n, A0, A, ipiv) < 1e-9);
  // a zero column: LAPACK's info
  A = A0;
  for (int i = 0; i < n; ++i) A[i + 7 * n] = 0.0;
  REQUIRE(exstar_desc_create(&d, n, n, 64, A.data(), n) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrf_plain_desc_insert(d, nullptr) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrf_desc_info(d, &info) == EXSTAR_ERR_SINGULAR);
  REQUIRE(info == 8);
  REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrf_plain_desc_insert(nullptr, nullptr) == EXSTAR_ERR_ARG);
}
