// The tiled exact LU (exstar_dgetrf_tiled, the default of exstar_dgetrf) against the unblocked
// graph and the MPFR oracle: every entry of L and U, every pivot and info bit for bit the same,
// for tile edges 1, 7, 32, 64, 256 and > n, m != n, every scheduler and worker count, repeated
// runs, ill-conditioned matrices (cond up to 1e40), wide exponent ranges, exact singularity,
// NaN and inf, and with every entry forced through the exact path.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <cmath>
#include <string>

using namespace exstar_test;

namespace {

struct problem {
  std::string name;
  int m, n, lda;
  std::vector<double> A;
};

struct factors {
  std::vector<double> A;
  std::vector<int32_t> ipiv;
  int64_t info = -1;
  int status = 0;
};

problem make(std::string name, int m, int n, const std::vector<double> &dense, int extra = 3)
{
  const int lda = std::max(m, 1) + extra;
  problem p{std::move(name), m, n, lda, std::vector<double>((size_t)lda * std::max(n, 1), std::nan(""))};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) p.A[i + (size_t)j * lda] = dense[i + (size_t)j * m];
  return p;
}

factors run(const problem &p, int64_t nb) // nb < 0: the unblocked graph
{
  factors f{p.A, std::vector<int32_t>((size_t)std::max(1, std::min(p.m, p.n)), -1)};
  f.status = nb < 0 ? exstar_dgetrf_unblocked(p.m, p.n, f.A.data(), p.lda, f.ipiv.data(), &f.info)
                    : exstar_dgetrf_tiled(p.m, p.n, f.A.data(), p.lda, f.ipiv.data(), &f.info, nb);
  f.ipiv.resize((size_t)std::min(p.m, p.n));
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

void require_same(const problem &p, const factors &got, const factors &want, const std::string &what)
{
  INFO(p.name << ", " << what << ": " << exstar_last_error());
  REQUIRE(got.ipiv == want.ipiv);
  REQUIRE(got.info == want.info);
  int64_t bad = 0, first = -1;
  for (int j = 0; j < p.n; ++j)
    for (int i = 0; i < p.m; ++i)
      if (!same_bits(got.A[i + (size_t)j * p.lda], want.A[i + (size_t)j * p.lda])) {
        if (first < 0) first = i + (int64_t)j * p.m;
        ++bad;
      }
  INFO("differing entries " << bad << ", first at (" << first % std::max(p.m, 1) << ", " << first / std::max(p.m, 1) << ")");
  REQUIRE(bad == 0);
}

// Rows 0..k of a matrix with prescribed condition: A = the ORO dot rows laid out so that the
// pivots meet cancellation (each column j >= 1 holds an ill-conditioned dot's y, the first
// column the x's first entries), plus a random well-scaled rest.
problem ill_conditioned(int n, double cond, Rng &rng)
{
  std::vector<double> d = gen_uniform(n * n, rng);
  for (int c = 0; c + 1 < n; c += 2) {
    DotProblem q = gen_dot_cond(n, cond, rng);
    for (int i = 0; i < n; ++i) d[i + (size_t)c * n] = q.x[(size_t)i], d[i + (size_t)(c + 1) * n] = q.y[(size_t)i];
  }
  return make("cond " + std::to_string(cond) + " " + std::to_string(n), n, n, d);
}

std::vector<problem> problems()
{
  Rng rng(424242);
  std::vector<problem> ps;
  ps.push_back(make("random 40x40", 40, 40, gen_exp_spread(1600, -3, 3, rng)));
  ps.push_back(make("random 37x29 (m > n)", 37, 29, gen_uniform(37 * 29, rng)));
  ps.push_back(make("random 23x41 (m < n)", 23, 41, gen_uniform(23 * 41, rng)));
  ps.push_back(make("wide exponents 33x33", 33, 33, gen_exp_spread(33 * 33, -300, 300, rng)));
  for (double cond : {1e10, 1e25, 1e40}) ps.push_back(ill_conditioned(30, cond, rng));
  { // exactly singular: column 5 = column 2 + column 3 in integers (exact sums)
    std::vector<double> d(30 * 30);
    for (double &x : d) x = (double)(int)(rand_below(rng, 17)) - 8.0;
    for (int i = 0; i < 30; ++i) d[i + 5 * 30] = d[i + 2 * 30] + d[i + 3 * 30];
    ps.push_back(make("singular 30x30", 30, 30, d));
  }
  { // NaN and inf inside
    std::vector<double> d = gen_uniform(26 * 26, rng);
    d[3 + 7 * 26] = std::nan("");
    d[20 + 4 * 26] = INFINITY;
    ps.push_back(make("NaN and inf 26x26", 26, 26, d));
  }
  return ps;
}

const std::vector<problem> &all()
{
  static const std::vector<problem> ps = problems();
  return ps;
}

bool cpu_only() { return test_backends() == EXSTAR_BACKEND_CPU; }

} // namespace

TEST_CASE("tiled LU: every entry, pivot and info is the MPFR definition's, for every tile edge", "[lu][tiled]")
{
  session s("prio");
  for (const problem &p : all()) {
    const factors want = reference(p);
    for (int64_t nb : {1, 7, 32, 64, 256}) {
      if (nb == 1 && p.m * p.n > 1000) continue; // one tile per entry: thousands of tasks
      require_same(p, run(p, nb), want, "nb " + std::to_string(nb));
    }
  }
}

TEST_CASE("tiled LU equals the unblocked graph on larger matrices", "[lu][tiled][large]")
{
  // prio, not dmda: dmda would first calibrate every codelet of the unblocked graph on every
  // worker kind (minutes on a fresh machine with PoCL); the schedulers have their own case
  session s("prio");
  Rng rng(31337);
  for (int n : {150, 260}) {
    const problem p = make("random " + std::to_string(n), n, n - 13, gen_exp_spread(n * (n - 13), -20, 20, rng));
    const factors want = run(p, -1);
    for (int64_t nb : {32, 64, 128, 1000}) require_same(p, run(p, nb), want, "nb " + std::to_string(nb));
  }
}

TEST_CASE("tiled LU under every scheduler and worker count, repeated", "[lu][tiled][sched]")
{
  const problem &p = all()[0];
  const factors want = reference(p);
  const std::vector<int> counts = (test_backends() & EXSTAR_BACKEND_CPU) ? std::vector<int>{1, 2} : std::vector<int>{-1};
  for (size_t si = 0; si < schedulers().size(); ++si) {
    session s(schedulers()[si].c_str(), counts[si % counts.size()]);
    for (int rep = 0; rep < 2; ++rep) require_same(p, run(p, 7 + 4 * rep), want, "scheduler " + schedulers()[si]);
  }
}

TEST_CASE("tiled LU equals the unblocked graph for several tile edges, fast and exact paths", "[lu][tiled][unblocked]")
{
  // On every mix, and the one that matters most here: the GPU alone (lu_tiled_cuda), where the
  // panels and U block rows run on CUDA.
  session s("prio");
  for (int exact : {0, 1}) {
    exstar_set_exact_only(exact);
    for (const problem &p : all()) {
      const factors want = run(p, -1);
      for (int64_t nb : {5, 16, 32}) require_same(p, run(p, nb), want, "unblocked, nb " + std::to_string(nb) + (exact ? ", exact only" : ""));
    }
  }
  exstar_set_exact_only(0);
}

TEST_CASE("tiled LU: the exact path alone gives the same bits", "[lu][tiled][exact]")
{
  session s("eager");
  exstar_set_exact_only(1);
  for (size_t k = 0; k < all().size(); k += 2) require_same(all()[k], run(all()[k], 16), reference(all()[k]), "exact only");
  exstar_set_exact_only(0);
  (void)cpu_only;
}
