// Level 1 through StarPU on the back ends under test (EXSTAR_TEST_BACKENDS): scal, invscal and
// axpy bit for bit against MPFR (tests/support/oracle.hpp), swap and laswp against plain loops,
// iamax against ref_iamax; under every scheduler, 1 and 2 CPU workers, several task counts.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <exstar/level1.hpp>
#include <cfloat>
#include <cmath>
#include <limits>

using namespace exstar_test;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<int> cpu_counts()
{
  if (test_backends() & EXSTAR_BACKEND_CPU) return {1, 2};
  return {-1};
}

struct input {
  std::string name;
  std::vector<double> x, y;
};

// Input classes: random, huge/tiny exponents, subnormals, near DBL_MAX, special values.
std::vector<input> inputs()
{
  Rng rng(777);
  std::vector<input> in;
  auto add = [&](std::string name, std::vector<double> x, std::vector<double> y) {
    in.push_back({std::move(name), std::move(x), std::move(y)});
  };
  add("uniform n=1", gen_uniform(1, rng), gen_uniform(1, rng));
  add("uniform n=1001", gen_uniform(1001, rng), gen_uniform(1001, rng));
  add("exponents -1074..1023", gen_exp_spread(500, -1074, 1023, rng), gen_exp_spread(500, -1074, 1023, rng));
  add("subnormals", gen_subnormal(300, rng), gen_subnormal(300, rng));
  add("near DBL_MAX", gen_near_max(100, rng), gen_near_max(100, rng));
  add("tiny and huge", gen_exp_spread(300, -1074, -1000, rng), gen_exp_spread(300, 1000, 1023, rng));
  add("specials", gen_special(400, rng), gen_special(400, rng));
  std::vector<double> sp = {0.0, -0.0, kInf, -kInf, kNaN, 1.0, -1.0, DBL_MIN, -DBL_MIN, 0x1p-1074, DBL_MAX, -DBL_MAX};
  std::vector<double> sx, sy;
  for (double a : sp)
    for (double b : sp) sx.push_back(a), sy.push_back(b);
  add("special pairs", sx, sy);
  return in;
}

const std::vector<double> &alphas()
{
  static const std::vector<double> a = {3.0,      -0.1,      0.0,      -0.0,    kInf,  -kInf,
                                        kNaN,     0x1p-1074, 0x1.8p-1070, 1e-300, 1e300, DBL_MAX,
                                        -DBL_MIN, 0x1.fffffffffffffp-1, 7.0};
  return a;
}

enum class op { scal, invscal, axpy };

std::vector<double> expected(op o, double alpha, const input &c)
{
  std::vector<double> r(c.x.size());
  for (size_t i = 0; i < r.size(); ++i)
    r[i] = o == op::scal ? ref_scal(alpha, c.x[i])
         : o == op::invscal ? ref_invscal(alpha, c.x[i])
                            : ref_axpy(alpha, c.x[i], c.y[i]);
  return r;
}

// Runs op o with the blocking call on copies (strided by inc) and compares bit for bit.
bool run_and_check(op o, double alpha, const input &c, int inc, std::string &why)
{
  int64_t n = (int64_t)c.x.size();
  int a = inc < 0 ? -inc : inc;
  std::vector<double> bx(n ? (n - 1) * a + 1 : 0, -7.0), by(bx.size(), -7.0);
  if (n) scatter(c.x, bx.data(), inc), scatter(c.y, by.data(), inc);
  int s = o == op::scal      ? exstar_dscal(n, alpha, bx.data(), inc)
        : o == op::invscal ? exstar_dinvscal(n, alpha, bx.data(), inc)
                           : exstar_daxpy(n, alpha, bx.data(), inc, by.data(), inc);
  if (s != EXSTAR_SUCCESS) return why = exstar_last_error(), false;
  std::vector<double> got = gather((int)n, o == op::axpy ? by.data() : bx.data(), inc), want = expected(o, alpha, c);
  for (int64_t i = 0; i < n; ++i)
    if (!same_bits(got[i], want[i])) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "element %lld: got %a, want %a (x %a, y %a)", (long long)i, got[i], want[i],
                    c.x[i], c.y[i]);
      return why = buf, false;
    }
  // the gaps between strided elements are untouched
  const std::vector<double> &buf = o == op::axpy ? by : bx;
  for (size_t k = 0; k < buf.size(); ++k)
    if (a > 1 && k % a != 0 && buf[k] != -7.0) return why = "a gap element was written", false;
  return true;
}

void check_ops(const std::vector<input> &cases, const std::vector<double> &as, const std::vector<int> &incs,
               const std::vector<int> &nparts)
{
  for (int np : nparts) {
    exstar_set_default_nparts(np);
    for (const input &c : cases)
      for (double alpha : as)
        for (op o : {op::scal, op::invscal, op::axpy})
          for (int inc : incs) {
            std::string why;
            bool ok = run_and_check(o, alpha, c, inc, why);
            INFO(c.name << ", op " << (int)o << ", alpha " << alpha << ", inc " << inc << ", " << np
                        << " tasks: " << why);
            CHECK(ok);
          }
  }
  exstar_set_default_nparts(0);
}

// LAPACK dlaswp, as written in LAPACK (1-based k1, k2, ipiv).
void plain_laswp(int n, std::vector<double> &A, int lda, int k1, int k2, const std::vector<int32_t> &ipiv, int incx)
{
  int ix0, i1, i2, inc;
  if (incx > 0) ix0 = k1, i1 = k1, i2 = k2, inc = 1;
  else ix0 = k1 + (k1 - k2) * incx, i1 = k2, i2 = k1, inc = -1;
  if (k2 < k1) return;
  for (int c = 0; c < n; ++c) {
    int ix = ix0;
    for (int i = i1; inc > 0 ? i <= i2 : i >= i2; i += inc, ix += incx) {
      int ip = ipiv[ix - 1];
      std::swap(A[(i - 1) + c * lda], A[(ip - 1) + c * lda]);
    }
  }
}

bool same_vectors(const std::vector<double> &a, const std::vector<double> &b)
{
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_bits(a[i], b[i])) return false;
  return true;
}

// iamax inputs: every class, ties of +-max, NaN and inf at several places, zeros.
std::vector<std::vector<double>> iamax_inputs()
{
  Rng rng(15);
  std::vector<std::vector<double>> xs = {gen_uniform(1, rng), gen_uniform(1000, rng), gen_special(500, rng),
                                          gen_exp_spread(700, -1074, 1023, rng), gen_subnormal(300, rng),
                                          std::vector<double>(50, 0.0)};
  std::vector<double> ties(301, 1.0);
  for (size_t i = 0; i < ties.size(); ++i) ties[i] = (i % 7 == 3) ? -5.0 : (i % 11 == 2 ? 5.0 : 1.0);
  xs.push_back(ties);
  std::vector<double> nans = gen_uniform(400, rng);
  nans[150] = kInf, nans[210] = kNaN, nans[399] = -kNaN, nans[100] = -kInf;
  xs.push_back(nans);
  xs.push_back({-0.0, 0.0, -0.0});
  return xs;
}

void check_iamax(const std::vector<int> &nparts, const std::vector<int> &incs)
{
  static const std::vector<std::vector<double>> xs = iamax_inputs();
  for (int np : nparts)
    for (int inc : incs) {
      exstar_set_default_nparts(np);
      for (const auto &x : xs) {
        int n = (int)x.size(), a = std::abs(inc);
        std::vector<double> b((n - 1) * a + 1, 1e300);
        scatter(x, b.data(), inc);
        int64_t idx = -5;
        REQUIRE(exstar_idamax(n, b.data(), inc, &idx) == EXSTAR_SUCCESS);
        INFO("nparts " << np << " inc " << inc << " n " << n);
        CHECK(idx == ref_iamax(x));
      }
    }
  exstar_set_default_nparts(0);
}


} // namespace

TEST_CASE("scal, invscal, axpy: MPFR bits on every input class, alpha and task count", "[level1][exact]")
{
  static const std::vector<input> cases = inputs();
  session s("eager");
  check_ops(cases, alphas(), {1}, {1, 3, 8});
}

TEST_CASE("scal, invscal, axpy, iamax: every scheduler and worker count", "[level1][sched]")
{
  std::vector<input> all = inputs(), cases = {all[1], all[2], all[7]};
  for (const std::string &sched : schedulers())
    for (int ncpus : cpu_counts()) {
      INFO("scheduler " << sched << ", ncpus " << ncpus << ", back ends " << backends_name(test_backends()));
      session s(sched.c_str(), ncpus);
      check_ops(cases, {-0.1, 0x1p-1074, kInf}, {1}, {1, 5});
      check_iamax({1, 5}, {1, -3});
    }
}

TEST_CASE("scal, invscal, axpy: negative and non-unit strides", "[level1][strides]")
{
  std::vector<input> all = inputs(), cases = {all[0], all[2], all[7]};
  session s("dmda");
  check_ops(cases, {3.0, -0.1, 0x1.8p-1070}, {2, -1, -3}, {1, 4});
}

TEST_CASE("invscal is one division, not a product by the rounded reciprocal", "[level1][invscal]")
{
  session s;
  double x[1] = {3.0};
  double y[1] = {0.3};
  REQUIRE(exstar_dinvscal(1, 3.0, x, 1) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dinvscal(1, 0.1, y, 1) == EXSTAR_SUCCESS);
  CHECK(x[0] == 1.0);
  CHECK(bits_of(y[0]) == bits_of(ref_invscal(0.1, 0.3)));
  CHECK(bits_of(y[0]) != bits_of(0.3 * (1.0 / 0.1))); // the two differ here: 2.9999999999999996 vs 3
  double z[2] = {0x1.3p-1000, 0x1.5p-1014}; // results in the subnormal range, rounded
  REQUIRE(exstar_dinvscal(2, 0x1.8p+60, z, 1) == EXSTAR_SUCCESS);
  CHECK(bits_of(z[0]) == bits_of(ref_invscal(0x1.8p+60, 0x1.3p-1000)));
  CHECK(bits_of(z[1]) == bits_of(ref_invscal(0x1.8p+60, 0x1.5p-1014)));
  CHECK(z[1] > 0.0);
  CHECK(z[1] < DBL_MIN);
  double w[1] = {DBL_MAX};
  REQUIRE(exstar_dinvscal(1, 0.5, w, 1) == EXSTAR_SUCCESS);
  CHECK(w[0] == kInf);
}

TEST_CASE("n = 0 touches nothing; insertion with offsets into the user's handles", "[level1][insert]")
{
  session s;
  CHECK(exstar_dscal(0, 2.0, nullptr, 1) == EXSTAR_SUCCESS);
  CHECK(exstar_daxpy(0, 2.0, nullptr, 1, nullptr, 1) == EXSTAR_SUCCESS);
  Rng rng(11);
  std::vector<double> x = gen_exp_spread(100, -300, 300, rng), y = gen_exp_spread(100, -300, 300, rng);
  std::vector<double> x0 = x, y0 = y;
  starpu_data_handle_t hx, hy;
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x.data(), 100, sizeof(double));
  starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y.data(), 100, sizeof(double));
  // x[10..40) by 3 (stride 1), y[5 + 2i] += 0.7 x[10 + i], i < 30, then y[1..] backwards /= -0.3
  REQUIRE(exstar_dscal_insert(30, 3.0, hx, 10, 1) == EXSTAR_SUCCESS);
  REQUIRE(exstar_daxpy_insert(30, 0.7, hx, 10, 1, hy, 5, 2) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dinvscal_insert(33, -0.3, hy, 1, -3) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dswap_insert(20, hx, 60, 2, hy, 0, -1) == EXSTAR_SUCCESS);
  starpu_data_unregister(hx);
  starpu_data_unregister(hy);
  for (int i = 10; i < 40; ++i) x0[i] = ref_scal(3.0, x0[i]);
  for (int i = 0; i < 30; ++i) y0[5 + 2 * i] = ref_axpy(0.7, x0[10 + i], y0[5 + 2 * i]);
  for (int i = 0; i < 33; ++i) y0[1 + 3 * i] = ref_invscal(-0.3, y0[1 + 3 * i]);
  for (int i = 0; i < 20; ++i) std::swap(x0[60 + 2 * i], y0[19 - i]);
  CHECK(same_vectors(x, x0));
  CHECK(same_vectors(y, y0));
}

TEST_CASE("swap matches a plain loop, any stride", "[level1][swap]")
{
  session s("ws");
  Rng rng(12);
  for (int np : {1, 3, 7}) {
    exstar_set_default_nparts(np);
    for (int incx : {1, 2, -1})
      for (int incy : {1, -3}) {
        int n = 257;
        std::vector<double> x = gen_special(n * std::abs(incx), rng), y = gen_special(n * std::abs(incy), rng);
        std::vector<double> x0 = x, y0 = y;
        std::vector<double> gx = gather(n, x0.data(), incx), gy = gather(n, y0.data(), incy);
        scatter(gy, x0.data(), incx);
        scatter(gx, y0.data(), incy);
        REQUIRE(exstar_dswap(n, x.data(), incx, y.data(), incy) == EXSTAR_SUCCESS);
        INFO("incx " << incx << " incy " << incy << " nparts " << np);
        CHECK(same_vectors(x, x0));
        CHECK(same_vectors(y, y0));
      }
  }
  exstar_set_default_nparts(0);
}

TEST_CASE("laswp matches LAPACK's loop: lda > m, incx = +-1, +-2, k1 > 1", "[level1][laswp]")
{
  Rng rng(13);
  for (const char *sched : {"eager", "dmda"}) {
    session s(sched);
    for (int np : {1, 2, 5})
      for (int incx : {1, -1, 2, -2})
        for (int k1 : {1, 3}) {
          exstar_set_default_nparts(np);
          const int m = 17, lda = 20, n = 9, k2 = 12;
          std::vector<double> A = gen_uniform(lda * n, rng);
          std::vector<int32_t> ipiv(k1 + (k2 - k1) * std::abs(incx));
          for (auto &p : ipiv) p = 1 + (int32_t)rand_below(rng, m);
          std::vector<double> A0 = A;
          plain_laswp(n, A0, lda, k1, k2, ipiv, incx);
          REQUIRE(exstar_dlaswp(n, A.data(), lda, k1, k2, ipiv.data(), incx) == EXSTAR_SUCCESS);
          INFO(sched << " nparts " << np << " incx " << incx << " k1 " << k1);
          CHECK(same_vectors(A, A0));
        }
  }
  exstar_set_default_nparts(0);
}

TEST_CASE("laswp_insert_h on a matrix handle and on column handles", "[level1][laswp][insert]")
{
  session s;
  Rng rng(14);
  const int m = 12, lda = 15, n = 6;
  std::vector<double> A = gen_uniform(lda * n, rng), A0 = A;
  std::vector<int32_t> ipiv = {5, 2, 12, 4, 9, 7, 8};
  std::vector<int32_t> pstore(ipiv.size() + 3, 0);
  std::copy(ipiv.begin(), ipiv.end(), pstore.begin() + 3);
  starpu_data_handle_t hA, hp, hcol;
  starpu_matrix_data_register(&hA, STARPU_MAIN_RAM, (uintptr_t)A.data(), lda, m, n - 1, sizeof(double));
  starpu_vector_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)pstore.data(), (uint32_t)pstore.size(), sizeof(int32_t));
  starpu_vector_data_register(&hcol, STARPU_MAIN_RAM, (uintptr_t)(A.data() + (n - 1) * lda), m, sizeof(double));
  // columns 1..4 of the first n-1 by the matrix handle, the last column by its vector handle
  REQUIRE(exstar_dlaswp_insert_h(4, hA, 1, 1, 7, hp, 3, 1) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dlaswp_insert_h(1, hcol, 0, 2, 6, hp, 3, -1) == EXSTAR_SUCCESS);
  CHECK(exstar_dlaswp_insert_h(2, hA, 4, 1, 7, hp, 3, 1) == EXSTAR_ERR_ARG);  // columns past the end
  CHECK(exstar_dlaswp_insert_h(1, hA, 0, 1, 13, hp, 3, 1) == EXSTAR_ERR_ARG); // k2 > rows
  CHECK(exstar_dlaswp_insert_h(1, hA, 0, 1, 7, hp, 4, 1) == EXSTAR_ERR_ARG);  // ipiv handle too short
  starpu_data_unregister(hA);
  starpu_data_unregister(hcol);
  starpu_data_unregister(hp);
  std::vector<double> left(A0.begin() + lda, A0.begin() + 5 * lda), last(A0.begin() + 5 * lda, A0.end());
  plain_laswp(4, left, lda, 1, 7, ipiv, 1);
  plain_laswp(1, last, lda, 2, 6, ipiv, -1);
  std::copy(left.begin(), left.end(), A0.begin() + lda);
  std::copy(last.begin(), last.end(), A0.begin() + 5 * lda);
  CHECK(same_vectors(A, A0));
}


TEST_CASE("iamax: ref_iamax's index for every class, stride and task count", "[level1][iamax]")
{
  session s("dmda");
  check_iamax({1, 2, 3, 8, 64}, {1, -1, 3, -2});
  int64_t idx = 7;
  CHECK(exstar_idamax(0, nullptr, 1, &idx) == EXSTAR_SUCCESS);
  CHECK(idx == -1);
}

TEST_CASE("iamax into a variable handle and into an ipiv entry; invscal by a handle's element", "[level1][insert][lu]")
{
  session s("dmda");
  Rng rng(16);
  const int m = 40;
  std::vector<double> col = gen_uniform(m, rng);
  col[27] = -3.0;
  std::vector<double> col0 = col;
  int64_t index = -9, index_empty = -9;
  std::vector<int32_t> ipiv(4, 0);
  starpu_data_handle_t hcol, hidx, hempty, hp;
  starpu_vector_data_register(&hcol, STARPU_MAIN_RAM, (uintptr_t)col.data(), m, sizeof(double));
  starpu_variable_data_register(&hidx, STARPU_MAIN_RAM, (uintptr_t)&index, sizeof index);
  starpu_variable_data_register(&hempty, STARPU_MAIN_RAM, (uintptr_t)&index_empty, sizeof index_empty);
  starpu_vector_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)ipiv.data(), 4, sizeof(int32_t));
  // LU step j = 5: pivot among rows 5..m-1, ipiv[2] := 1-based row; then a21 /= pivot, the
  // pivot read from the same handle at run time (zero pivot: skipped).
  REQUIRE(exstar_idamax_insert(m - 5, hcol, 5, 1, hidx, 4) == EXSTAR_SUCCESS);
  REQUIRE(exstar_idamax_insert(0, hcol, 0, 1, hempty, 0) == EXSTAR_SUCCESS);
  REQUIRE(exstar_idamax_ipiv_insert(m - 5, hcol, 5, 1, hp, 2, 5 + 1, 3) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dinvscal_insert_h(m - 28, hcol, 27, hcol, 28, 1, EXSTAR_INVSCAL_SKIP_ZERO) == EXSTAR_SUCCESS);
  starpu_data_unregister(hidx);
  starpu_data_unregister(hempty);
  starpu_data_unregister(hp);
  starpu_data_unregister(hcol);
  std::vector<double> tail(col0.begin() + 5, col0.end());
  CHECK(index == ref_iamax(tail));
  CHECK(index == 22);
  CHECK(index_empty == -1);
  CHECK(ipiv[2] == 28);
  for (int i = 28; i < m; ++i) CHECK(bits_of(col[i]) == bits_of(ref_invscal(-3.0, col0[i])));
  for (int i = 0; i < 28; ++i) CHECK(bits_of(col[i]) == bits_of(col0[i]));
}

TEST_CASE("invscal_insert_h: divisor from a matrix handle; zero divisor skipped or divided", "[level1][insert]")
{
  session s;
  const int lda = 6;
  std::vector<double> A(lda * 3, 0.0);
  A[2 + 1 * lda] = 0.1; // element (2, 1)
  std::vector<double> x = {0.3, 1.0, -0.0, 5e-324}, x1 = x, x2 = x;
  starpu_data_handle_t hA, hx, hx1, hx2;
  starpu_matrix_data_register(&hA, STARPU_MAIN_RAM, (uintptr_t)A.data(), lda, 4, 3, sizeof(double));
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x.data(), 4, sizeof(double));
  starpu_vector_data_register(&hx1, STARPU_MAIN_RAM, (uintptr_t)x1.data(), 4, sizeof(double));
  starpu_vector_data_register(&hx2, STARPU_MAIN_RAM, (uintptr_t)x2.data(), 4, sizeof(double));
  REQUIRE(exstar_dinvscal_insert_h(4, hA, 2 + 1 * lda, hx, 0, 1, 0) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dinvscal_insert_h(4, hA, 0, hx1, 0, 1, EXSTAR_INVSCAL_SKIP_ZERO) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dinvscal_insert_h(4, hA, 0, hx2, 0, 1, 0) == EXSTAR_SUCCESS);
  CHECK(exstar_dinvscal_insert_h(4, hA, 4, hx, 0, 1, 0) == EXSTAR_ERR_ARG); // row 4 of a 4-row matrix
  CHECK(exstar_dinvscal_insert_h(4, hA, 0, hx, 0, 1, 8) == EXSTAR_ERR_ARG); // unknown flag
  starpu_data_unregister(hA);
  starpu_data_unregister(hx);
  starpu_data_unregister(hx1);
  starpu_data_unregister(hx2);
  std::vector<double> want = {0.3, 1.0, -0.0, 5e-324};
  for (int i = 0; i < 4; ++i) {
    CHECK(same_bits(x[i], ref_invscal(0.1, want[i])));
    CHECK(same_bits(x1[i], want[i]));
    CHECK(same_bits(x2[i], ref_invscal(0.0, want[i])));
  }
}

TEST_CASE("bad arguments are rejected before submission with a message", "[level1][errors]")
{
  session s;
  double x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8};
  int32_t ipiv[3] = {1, 2, 9};
  int64_t idx = 42;
  CHECK(exstar_dscal(-1, 2.0, x, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_dscal(4, 2.0, x, 0) == EXSTAR_ERR_ARG);
  CHECK(exstar_dinvscal(4, 2.0, nullptr, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_daxpy(4, 2.0, x, 1, nullptr, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_daxpy(3, 2.0, x, 1, x + 1, 1) == EXSTAR_ERR_ARG); // overlap
  CHECK(std::string(exstar_last_error()).find("overlap") != std::string::npos);
  CHECK(exstar_dswap(4, x, 1, y, 0) == EXSTAR_ERR_ARG);
  CHECK(exstar_idamax(4, x, 1, nullptr) == EXSTAR_ERR_ARG);
  CHECK(exstar_idamax(-2, x, 1, &idx) == EXSTAR_ERR_ARG);
  CHECK(idx == 42);
  CHECK(exstar_dlaswp(1, x, 0, 1, 1, ipiv, 1) == EXSTAR_ERR_ARG);  // lda < 1
  CHECK(exstar_dlaswp(1, x, 4, 0, 1, ipiv, 1) == EXSTAR_ERR_ARG);  // k1 < 1
  CHECK(exstar_dlaswp(1, x, 4, 1, 3, ipiv, 1) == EXSTAR_ERR_ARG);  // ipiv[2] = 9 > lda
  CHECK(std::string(exstar_last_error()).find("ipiv") != std::string::npos);
  CHECK(exstar_dlaswp(1, x, 4, 1, 5, ipiv, 1) == EXSTAR_ERR_ARG);  // k2 > lda
  CHECK(exstar_dlaswp(1, x, 4, 1, 2, ipiv, 0) == EXSTAR_ERR_ARG);  // incx 0
  CHECK(exstar_dlaswp(1, x, 4, 1, 2, nullptr, 1) == EXSTAR_ERR_ARG);
  CHECK((x[0] == 1 && x[3] == 4 && y[0] == 5));
  starpu_data_handle_t hx, hy, hi, hp;
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, 4, sizeof(double));
  starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y, 4, sizeof(double));
  starpu_variable_data_register(&hi, STARPU_MAIN_RAM, (uintptr_t)&idx, sizeof idx);
  starpu_vector_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)ipiv, 3, sizeof(int32_t));
  CHECK(exstar_dscal_insert(3, 2.0, hx, 2, 1) == EXSTAR_ERR_ARG);  // past the end
  CHECK(exstar_dscal_insert(2, 2.0, hx, -1, 1) == EXSTAR_ERR_ARG); // negative offset
  CHECK(exstar_dscal_insert(2, 2.0, nullptr, 0, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_dscal_insert(2, 2.0, hp, 0, 1) == EXSTAR_ERR_ARG);   // int32 elements
  CHECK(exstar_daxpy_insert(2, 2.0, hx, 0, 1, hx, 2, 1) == EXSTAR_ERR_ARG); // same handle
  CHECK(exstar_dswap_insert(3, hx, 0, 2, hy, 0, 1) == EXSTAR_ERR_ARG);      // stride past the end
  CHECK(exstar_dinvscal_insert_h(2, hx, 4, hy, 0, 1, 0) == EXSTAR_ERR_ARG); // divisor past the end
  CHECK(exstar_idamax_insert(4, hx, 0, 1, hy, 1) == EXSTAR_ERR_ARG);        // index not an int64 variable
  CHECK(exstar_idamax_ipiv_insert(0, hx, 0, 1, hp, 0, 1, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_idamax_ipiv_insert(4, hx, 0, 1, hp, 3, 1, 1) == EXSTAR_ERR_ARG);
  CHECK(exstar_idamax_ipiv_insert(4, hx, 0, 1, hx, 0, 1, 1) == EXSTAR_ERR_ARG); // doubles, not int32
  starpu_data_unregister(hx);
  starpu_data_unregister(hy);
  starpu_data_unregister(hi);
  starpu_data_unregister(hp);
  CHECK((x[0] == 1 && x[3] == 4 && y[0] == 5 && idx == 42));
}

TEST_CASE("the C++ Level 1 API", "[level1][cpp]")
{
  session s;
  std::vector<double> x = {1.0, -4.0, 2.0}, y = {0.5, 0.5, 0.5};
  exstar::scal(2.0, x);
  CHECK(x == std::vector<double>({2.0, -8.0, 4.0}));
  exstar::invscal(4.0, x);
  CHECK(x == std::vector<double>({0.5, -2.0, 1.0}));
  exstar::axpy(2.0, x, y);
  CHECK(y == std::vector<double>({1.5, -3.5, 2.5}));
  exstar::swap(x, y);
  CHECK(x == std::vector<double>({1.5, -3.5, 2.5}));
  CHECK(exstar::iamax(x) == 1);
  int32_t ipiv[1] = {3};
  exstar::laswp(1, x.data(), 3, 1, 1, ipiv);
  CHECK(x == std::vector<double>({2.5, -3.5, 1.5}));
  std::vector<double> two(2);
  CHECK_THROWS_AS(exstar::axpy(1.0, x, two), exstar::error);
  CHECK_THROWS_WITH(exstar::scal(-1, 2.0, x.data()), Catch::Contains("n = -1"));
}
