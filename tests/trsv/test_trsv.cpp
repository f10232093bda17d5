// trsv and refined trsv through StarPU on the back ends under test (EXSTAR_TEST_BACKENDS):
// bit for bit the MPFR oracle ref_trsv for every uplo/trans/diag, block size, stride, leading
// dimension, scheduler and worker count; refined trsv bit for bit its composition of oracles,
// and never less accurate than trsv against an MPFR solution.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <mpfr.h>
#include <cmath>
#include <string>

using namespace exstar_test;

namespace {

const char kUplo[] = {'L', 'U'}, kTrans[] = {'N', 'T'}, kDiag[] = {'N', 'U'};

// A problem: T (column-major, ldt), b.
struct problem {
  std::string name;
  int n, ldt;
  std::vector<double> T, b;
};

// Random triangle-agnostic matrix (both triangles filled: only one may be read) with its
// diagonal pushed away from zero, and a random b.
problem random_problem(int n, int ldt, Rng &rng, int emin = -3, int emax = 3)
{
  problem p{"random n=" + std::to_string(n), n, ldt, gen_exp_spread(ldt * (n > 0 ? n : 1), emin, emax, rng),
            gen_uniform(n, rng)};
  for (int i = 0; i < n; ++i) p.T[i + i * ldt] = 1.0 + std::fabs(p.T[i + i * ldt]);
  return p;
}

// Ill-conditioned triangular T of the given uplo (the other triangle holds NaN: never read).
problem cond_problem(char uplo, int n, double cond, std::uint64_t seed, Rng &rng)
{
  problem p{"gen_triangular_cond " + std::string(1, uplo) + " cond=" + std::to_string(cond), n, n,
            gen_triangular_cond(uplo, n, cond, seed), gen_uniform(n, rng)};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if ((uplo == 'L' && i < j) || (uplo == 'U' && i > j)) p.T[i + j * n] = std::nan("");
  return p;
}

std::vector<double> scaled(std::vector<double> v, double s)
{
  for (double &d : v) d *= s;
  return v;
}

// Blocking call: x scattered with stride incx.
std::vector<double> run_blocking(const problem &p, char u, char t, char d, int incx, int steps, int64_t *info)
{
  std::vector<double> xs((size_t)(p.n > 0 ? (p.n - 1) * std::abs(incx) + 1 : 1), -7.0);
  if (p.n > 0) scatter(p.b, xs.data(), incx);
  int s = steps < 0 ? exstar_dtrsv(u, t, d, p.n, p.T.data(), p.ldt, xs.data(), incx, info)
                    : exstar_dtrsv_refined(u, t, d, p.n, p.T.data(), p.ldt, xs.data(), incx, steps, info);
  REQUIRE(s == EXSTAR_SUCCESS);
  return gather(p.n, xs.data(), incx);
}

// Task form: T inside a larger matrix at (2, 1), x at offset 3 of its handle.
std::vector<double> run_insert(const problem &p, char u, char t, char d, int incx, int64_t nb, int steps)
{
  const int n = p.n, ld = p.ldt + 2, it = 2, jt = 1, offx = 3;
  std::vector<double> big((size_t)ld * (n + 1), std::nan(""));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) big[(it + i) + (size_t)(jt + j) * ld] = p.T[i + (size_t)j * p.ldt];
  std::vector<double> xs((size_t)offx + (n > 0 ? (n - 1) * std::abs(incx) + 1 : 1) + 2, -7.0);
  if (n > 0) scatter(p.b, xs.data() + offx, incx);
  starpu_data_handle_t hT, hx;
  starpu_matrix_data_register(&hT, STARPU_MAIN_RAM, (uintptr_t)big.data(), ld, ld, n + 1, sizeof(double));
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)xs.data(), (uint32_t)xs.size(), sizeof(double));
  int s = steps < 0 ? exstar_dtrsv_insert(u, t, d, n, hT, it, jt, hx, offx, incx, nb)
                    : exstar_dtrsv_refined_insert(u, t, d, n, hT, it, jt, hx, offx, incx, steps, nb);
  starpu_data_unregister(hx);
  starpu_data_unregister(hT);
  INFO(exstar_last_error());
  REQUIRE(s == EXSTAR_SUCCESS);
  CHECK(xs[0] == -7.0);
  CHECK(xs.back() == -7.0);
  return gather(n, xs.data() + offx, incx);
}

bool same_vec(const std::vector<double> &a, const std::vector<double> &b)
{
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_bits(a[i], b[i])) return false;
  return true;
}

std::string show_diff(const std::vector<double> &got, const std::vector<double> &want)
{
  for (size_t i = 0; i < got.size(); ++i)
    if (!same_bits(got[i], want[i])) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "first difference at %zu: %a != %a", i, got[i], want[i]);
      return buf;
    }
  return "equal";
}

// The refined trsv's definition composed from oracles: residual over the stored triangle
// (zeros elsewhere and a unit diagonal stored as 1 give the same exact value).
std::vector<double> ref_refined(const problem &p, char u, char t, char d, int steps)
{
  std::vector<double> x = ref_trsv(u, t, d, p.n, p.T, p.ldt, p.b);
  std::vector<double> Tz((size_t)p.n * p.n, 0.0);
  for (int j = 0; j < p.n; ++j)
    for (int i = 0; i < p.n; ++i)
      if ((u == 'L' && i > j) || (u == 'U' && i < j) || (i == j && d == 'N')) Tz[i + (size_t)j * p.n] = p.T[i + (size_t)j * p.ldt];
      else if (i == j) Tz[i + (size_t)j * p.n] = 1.0;
  for (int k = 0; k < steps; ++k) {
    std::vector<double> r = ref_gemv(t, p.n, p.n, -1.0, Tz, p.n, x, 1.0, p.b, GemvAlpha::per_term);
    std::vector<double> dd = ref_trsv(u, t, d, p.n, p.T, p.ldt, r);
    for (int i = 0; i < p.n; ++i) x[i] = x[i] + dd[i];
  }
  return x;
}

std::vector<problem> bitwise_problems()
{
  Rng rng(4242);
  std::vector<problem> ps;
  ps.push_back(random_problem(37, 40, rng));
  ps.push_back(random_problem(1, 1, rng));
  ps.push_back(random_problem(0, 1, rng));
  problem wide = random_problem(29, 29, rng, -300, 300);
  wide.name = "exponents -300..300";
  ps.push_back(wide);
  problem sub = random_problem(23, 25, rng);
  sub.b = scaled(sub.b, 0x1p-1060); // results and terms among the subnormals
  sub.name = "subnormal b";
  ps.push_back(sub);
  problem big = random_problem(23, 23, rng, 0, 8);
  big.b = scaled(gen_near_max(23, rng), 1.0); // intermediate values overflow to inf
  big.name = "b near DBL_MAX";
  ps.push_back(big);
  problem spec = random_problem(31, 33, rng);
  spec.T = gen_special(33 * 31, rng, 0.1);
  for (int i = 0; i < 31; ++i)
    if (spec.T[i + i * 33] == 0.0) spec.T[i + i * 33] = 2.0; // blocking form: nonzero diagonal
  spec.b = gen_special(31, rng, 0.2);
  spec.name = "special values";
  ps.push_back(spec);
  for (double cond : {1e2, 1e10, 1e20, 1e30}) {
    ps.push_back(cond_problem('L', 41, cond, 7, rng));
    ps.push_back(cond_problem('U', 41, cond, 8, rng));
  }
  return ps;
}

bool triangle_ok(const problem &p, char u)
{
  return p.name.rfind("gen_triangular_cond", 0) != 0 || p.name[20] == u;
}

// f(p, uplo, trans, diag) for every problem and every option its triangle allows.
template <class F>
void for_each_variant(const std::vector<problem> &ps, F f)
{
  for (const problem &p : ps)
    for (char u : kUplo)
      for (char t : kTrans)
        for (char d : kDiag)
          if (triangle_ok(p, u)) f(p, u, t, d);
}

} // namespace

TEST_CASE("trsv equals ref_trsv bit for bit: all uplo/trans/diag, block sizes, strides", "[trsv]")
{
  session s("eager");
  for (const problem &p : bitwise_problems())
    for (char u : kUplo)
      for (char t : kTrans)
        for (char d : kDiag) {
          if (!triangle_ok(p, u)) continue;
          const std::vector<double> want = ref_trsv(u, t, d, p.n, p.T, p.ldt, p.b);
          for (int incx : {1, -2}) {
            INFO(p.name << " " << u << t << d << " incx " << incx);
            int64_t info = -1;
            std::vector<double> got = run_blocking(p, u, t, d, incx, -1, &info);
            CHECK(info == 0);
            CHECK(show_diff(got, want) == "equal");
            // every block size with unit stride; nb = 1 (one task pair per row) on small n only
            std::vector<int64_t> nbs = incx == 1 ? std::vector<int64_t>{3, 16, p.n} : std::vector<int64_t>{3};
            if (incx == 1 && p.n <= 31) nbs.push_back(1);
            for (int64_t nb : nbs) {
              INFO("task form, nb " << nb);
              std::vector<double> gi = run_insert(p, u, t, d, incx, nb, -1);
              CHECK(show_diff(gi, want) == "equal");
            }
          }
        }
}

TEST_CASE("trsv equals ref_trsv bit for bit with diagonal blocks of more rows than a GPU block has threads",
          "[trsv][large]")
{
  // 600 rows in one diagonal block: the CUDA solve's wave takes them in five blocks of threads
  session s("eager");
  Rng rng(600);
  problem p = random_problem(600, 601, rng);
  for (int j = 0; j < p.n; ++j) // diagonally dominant: x stays finite, the fast path runs
    for (int i = 0; i < p.n; ++i) {
      double &tij = p.T[i + (size_t)j * p.ldt];
      tij = i == j ? 2.0 + std::fabs(tij) : tij / 1024.0;
    }
  for (char u : kUplo)
    for (char t : kTrans) {
      INFO(u << t << "N");
      const std::vector<double> want = ref_trsv(u, t, 'N', p.n, p.T, p.ldt, p.b);
      CHECK(show_diff(run_insert(p, u, t, 'N', 1, 600, -1), want) == "equal");
    }
}

TEST_CASE("trsv equals ref_trsv bit for bit on large diagonal blocks of hard rows: ill-conditioned, special values",
          "[trsv][large]")
{
  // 300 rows in one diagonal block: on the GPU three blocks of threads, whose checks decline
  // rows (cancellation, ties, specials) that the exact path then takes, across their flags
  session s("eager");
  Rng rng(300);
  std::vector<problem> ps = {cond_problem('L', 300, 1e20, 11, rng), cond_problem('U', 300, 1e30, 12, rng)};
  problem spec = random_problem(300, 300, rng);
  spec.T = gen_special(300 * 300, rng, 0.01);
  spec.b = gen_special(300, rng, 0.05);
  spec.name = "special values";
  ps.push_back(spec);
  for_each_variant(ps, [](const problem &p, char u, char t, char d) {
    INFO(p.name << " " << u << t << d);
    const std::vector<double> want = ref_trsv(u, t, d, p.n, p.T, p.ldt, p.b);
    CHECK(show_diff(run_insert(p, u, t, d, 1, 300, -1), want) == "equal");
  });
}

TEST_CASE("trsv: the task form divides by a zero diagonal as IEEE does", "[trsv][special]")
{
  Rng rng(77);
  problem p = random_problem(19, 19, rng);
  p.T = gen_special(19 * 19, rng, 0.3);
  p.b = gen_special(19, rng, 0.3);
  session s("eager");
  for (char u : kUplo)
    for (char t : kTrans) {
      INFO(u << t);
      CHECK(show_diff(run_insert(p, u, t, 'N', 1, 4, -1), ref_trsv(u, t, 'N', p.n, p.T, p.ldt, p.b)) == "equal");
    }
}

TEST_CASE("trsv gives the same bits under every scheduler and worker count", "[trsv][sched]")
{
  Rng rng(11);
  problem p = cond_problem('U', 60, 1e16, 3, rng);
  std::vector<int> counts = (test_backends() & EXSTAR_BACKEND_CPU) ? std::vector<int>{1, 2} : std::vector<int>{-1};
  for (const std::string &sched : schedulers())
    for (int ncpus : counts) {
      INFO("scheduler " << sched << " ncpus " << ncpus);
      session s(sched.c_str(), ncpus);
      for (char t : kTrans) {
        CHECK(same_vec(run_insert(p, 'U', t, 'N', 1, 7, -1), ref_trsv('U', t, 'N', p.n, p.T, p.ldt, p.b)));
        CHECK(same_vec(run_insert(p, 'U', t, 'N', -1, 16, 2), ref_refined(p, 'U', t, 'N', 2)));
      }
    }
}

TEST_CASE("trsv reports the first zero diagonal before submitting anything", "[trsv][info]")
{
  session s("eager");
  const int n = 5;
  std::vector<double> T(n * n, 1.0), x = {1, 2, 3, 4, 5}, x0 = x;
  T[2 + 2 * n] = 0.0;
  T[4 + 4 * n] = -0.0;
  int64_t info = 0;
  CHECK(exstar_dtrsv('L', 'N', 'N', n, T.data(), n, x.data(), 1, &info) == EXSTAR_ERR_SINGULAR);
  CHECK(info == 3);
  CHECK(std::string(exstar_last_error()).find("T(2,2)") != std::string::npos);
  CHECK(x == x0);
  CHECK(exstar_dtrsv_refined('U', 'T', 'N', n, T.data(), n, x.data(), 1, 2, &info) == EXSTAR_ERR_SINGULAR);
  CHECK(info == 3);
  CHECK(exstar_dtrsv('L', 'N', 'U', n, T.data(), n, x.data(), 1, &info) == EXSTAR_SUCCESS); // unit: not read
  CHECK(info == 0);
  // argument errors
  CHECK(exstar_dtrsv('X', 'N', 'N', n, T.data(), n, x.data(), 1, &info) == EXSTAR_ERR_ARG);
  CHECK(exstar_dtrsv('L', 'N', 'N', n, T.data(), n - 1, x.data(), 1, &info) == EXSTAR_ERR_ARG);
  CHECK(exstar_dtrsv('L', 'N', 'N', n, T.data(), n, x.data(), 0, &info) == EXSTAR_ERR_ARG);
  CHECK(exstar_dtrsv('L', 'N', 'N', -1, T.data(), n, x.data(), 1, &info) == EXSTAR_ERR_ARG);
  CHECK(exstar_dtrsv_refined('L', 'N', 'N', n, T.data(), n, x.data(), 1, -1, &info) == EXSTAR_ERR_ARG);
}

TEST_CASE("refined trsv equals its definition composed from oracles", "[trsv][refined]")
{
  session s("eager");
  Rng rng(31);
  std::vector<problem> ps;
  ps.push_back(random_problem(33, 35, rng));
  for (double cond : {1e8, 1e24}) ps.push_back(cond_problem('L', 40, cond, 5, rng));
  for_each_variant(ps, [](const problem &p, char u, char t, char d) {
    INFO(p.name << " " << u << t << d);
    for (int steps : {1, 3}) {
      std::vector<double> want = ref_refined(p, u, t, d, steps);
      int64_t info = -1;
      CHECK(show_diff(run_blocking(p, u, t, d, 1, steps, &info), want) == "equal");
      CHECK(show_diff(run_insert(p, u, t, d, -3, 5, steps), want) == "equal");
    }
  });
}

namespace {

// The exact solution of op(T) x = b with 2000-bit MPFR arithmetic, rounded to double at the end.
std::vector<double> mpfr_solution(const problem &p, char u, char t, char d)
{
  const int n = p.n;
  const bool fwd = (u == 'L') != (t == 'T');
  std::vector<mpfr_t> x(n);
  mpfr_t s, prod;
  mpfr_inits2(2000, s, prod, (mpfr_ptr)0);
  for (int i = 0; i < n; ++i) mpfr_init2(x[i], 2000);
  auto el = [&](int i, int j) { return t == 'N' ? p.T[i + (size_t)j * p.ldt] : p.T[j + (size_t)i * p.ldt]; };
  for (int step = 0; step < n; ++step) {
    const int i = fwd ? step : n - 1 - step;
    mpfr_set_d(s, p.b[i], MPFR_RNDN);
    for (int j = fwd ? 0 : i + 1; j < (fwd ? i : n); ++j) {
      mpfr_mul_d(prod, x[j], el(i, j), MPFR_RNDN);
      mpfr_sub(s, s, prod, MPFR_RNDN);
    }
    if (d == 'N') mpfr_div_d(x[i], s, el(i, i), MPFR_RNDN);
    else mpfr_set(x[i], s, MPFR_RNDN);
  }
  std::vector<double> r(n);
  for (int i = 0; i < n; ++i) r[i] = mpfr_get_d(x[i], MPFR_RNDN), mpfr_clear(x[i]);
  mpfr_clears(s, prod, (mpfr_ptr)0);
  return r;
}

// max_i |x_i - e_i| / max_i |e_i| (normwise, infinity norm) and max_i |x_i - e_i| / |e_i|.
double norm_error(const std::vector<double> &x, const std::vector<double> &e)
{
  long double num = 0, den = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    num = std::max(num, std::fabs((long double)x[i] - e[i]));
    den = std::max(den, std::fabs((long double)e[i]));
  }
  return (double)(num / den);
}

} // namespace

TEST_CASE("refined trsv is never less accurate than trsv (MPFR solution, infinity norm)", "[trsv][accuracy]")
{
  session s("dmda");
  Rng rng(2718);
  for (double cond : {1e2, 1e6, 1e10, 1e14, 1e18, 1e22, 1e26, 1e30})
    for (char u : kUplo) {
      problem p = cond_problem(u, 50, cond, 100 + (std::uint64_t)std::log10(cond), rng);
      for (char t : kTrans) {
        const std::vector<double> exact = mpfr_solution(p, u, t, 'N');
        int64_t info;
        double e0 = norm_error(run_blocking(p, u, t, 'N', 1, -1, &info), exact);
        double prev = e0;
        for (int steps : {1, 2, 4}) {
          double e = norm_error(run_blocking(p, u, t, 'N', 1, steps, &info), exact);
          INFO("cond " << cond << " " << u << t << " steps " << steps << ": error " << e << ", trsv " << e0);
          CHECK(e <= e0);
          prev = e;
        }
        WARN("cond " << cond << " " << u << t << ": normwise error trsv " << e0 << ", refined(4) " << prev);
      }
    }
}

TEST_CASE("trsv: the checked fast path (bounded block sums) and the exact-only path give the MPFR bits",
          "[trsv][fast]")
{
  // On CPU workers alone, the off-diagonal blocks go into bounded double-doubles and each row is
  // rounded from them when the bound proves it; declined rows are recomputed from all their
  // terms. exstar_set_exact_only(1) forces the exact accumulators for every row.
  session s("eager");
  Rng rng(2026);
  std::vector<problem> ps;
  problem dom = random_problem(300, 301, rng);
  for (int j = 0; j < dom.n; ++j) // diagonally dominant: the fast path proves almost every row
    for (int i = 0; i < dom.n; ++i) {
      double &tij = dom.T[i + (size_t)j * dom.ldt];
      tij = i == j ? 2.0 + std::fabs(tij) : tij / 256.0;
    }
  dom.name = "diagonally dominant n=300";
  ps.push_back(dom);
  problem wide = random_problem(90, 90, rng, -300, 300);
  wide.name = "exponents -300..300";
  ps.push_back(wide);
  problem sub = random_problem(70, 70, rng);
  sub.b = scaled(sub.b, 0x1p-1060);
  sub.name = "subnormal b";
  ps.push_back(sub);
  problem big = random_problem(70, 70, rng, 0, 8);
  big.b = gen_near_max(70, rng);
  big.name = "b near DBL_MAX";
  ps.push_back(big);
  problem spec = random_problem(80, 80, rng);
  spec.T = gen_special(80 * 80, rng, 0.05);
  for (int i = 0; i < 80; ++i)
    if (spec.T[i + i * 80] == 0.0) spec.T[i + i * 80] = 2.0;
  spec.b = gen_special(80, rng, 0.1);
  spec.name = "special values";
  ps.push_back(spec);
  problem zeros = random_problem(64, 64, rng);
  for (int i = 0; i < 64; ++i) zeros.b[(size_t)i] = i % 3 ? -0.0 : 0.0; // exact zeros and their signs
  zeros.name = "signed zero b";
  ps.push_back(zeros);
  for (double cond : {1e10, 1e20, 1e30, 1e40}) {
    ps.push_back(cond_problem('L', 80, cond, 21, rng));
    ps.push_back(cond_problem('U', 80, cond, 22, rng));
  }
  for_each_variant(ps, [](const problem &p, char u, char t, char d) {
    const std::vector<double> want = ref_trsv(u, t, d, p.n, p.T, p.ldt, p.b);
    for (int exact_only : {0, 1}) {
      exstar_set_exact_only(exact_only);
      for (int64_t nb : {16, 64}) {
        INFO(p.name << " " << u << t << d << " nb " << nb << " exact_only " << exact_only);
        CHECK(show_diff(run_insert(p, u, t, d, 1, nb, -1), want) == "equal");
        CHECK(show_diff(run_insert(p, u, t, d, -2, nb, -1), want) == "equal");
      }
    }
    exstar_set_exact_only(0);
  });
}
