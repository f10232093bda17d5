// exstar over StarPU-MPI, run under mpirun with 1 to 4 processes: L, U, ipiv, info, the gesv
// solutions, the dot and the gemm are bitwise the single-process results (computed on rank 0
// with exstar_dgetrf_unblocked, exstar_dgesv, exstar_ddot, exstar_dgemm) for every process grid,
// tile edge and input class; bad arguments give EXSTAR_ERR_ARG on every process, never a hang.
// Every assertion is made on every rank from values rank 0 broadcasts.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include "tests/support/generators.hpp"
#include <exstar/exstar.h>
#include <exstar/level2.h>
#include <exstar/level3.h>
#include <exstar/mpi.h>
#include <exstar/lapack.h>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace exstar_test;

namespace {

int rank() { return exstar_mpi_rank(); }
int nranks() { return exstar_mpi_size(); }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// rank 0's values on every rank
bool shared(bool ok)
{
  int v = ok ? 1 : 0;
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v == 1;
}
int shared_int(int v)
{
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v;
}
int64_t shared_int64(int64_t v)
{
  MPI_Bcast(&v, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return v;
}
double shared_double(double v)
{
  MPI_Bcast(&v, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return v;
}

struct problem {
  std::string name;
  int m, n;
  std::vector<double> A; // m x n, lda = m
};

std::vector<problem> problems()
{
  Rng rng(20261124);
  std::vector<problem> ps;
  ps.push_back({"random 40x40", 40, 40, gen_exp_spread(1600, -3, 3, rng)});
  ps.push_back({"random 37x29 (m > n)", 37, 29, gen_uniform(37 * 29, rng)});
  ps.push_back({"random 23x41 (m < n)", 23, 41, gen_uniform(23 * 41, rng)});
  ps.push_back({"wide exponents 33x33", 33, 33, gen_exp_spread(33 * 33, -300, 300, rng)});
  ps.push_back({"cond 1e40 30x30", 30, 30, gen_matrix_cond(30, 1e40, 77)});
  {
    std::vector<double> d(30 * 30);
    for (double &x : d) x = (double)(int)rand_below(rng, 17) - 8.0;
    for (int i = 0; i < 30; ++i) d[i + 5 * 30] = d[i + 2 * 30] + d[i + 3 * 30];
    ps.push_back({"singular 30x30", 30, 30, d});
  }
  {
    std::vector<double> d = gen_uniform(26 * 26, rng);
    d[3 + 7 * 26] = std::nan("");
    d[20 + 4 * 26] = INFINITY;
    ps.push_back({"NaN and inf 26x26", 26, 26, d});
  }
  return ps;
}

// The grids of this number of processes: the default one, 1 x N and N x 1.
std::vector<std::pair<int, int>> grids()
{
  int P, Q;
  exstar_mpi_grid(nranks(), &P, &Q);
  std::vector<std::pair<int, int>> g{{P, Q}};
  if (P != 1) g.push_back({1, nranks()});
  if (nranks() > 1) g.push_back({nranks(), 1});
  return g;
}

struct factors {
  std::vector<double> A;
  std::vector<int32_t> ipiv;
  int64_t info = -1;
  int status = 0;
};

// The single-process definition on rank 0 (the others get only status and info).
factors reference(const problem &p)
{
  factors f{p.A, std::vector<int32_t>((size_t)std::min(p.m, p.n), -1)};
  if (rank() == 0) f.status = exstar_dgetrf_unblocked(p.m, p.n, f.A.data(), p.m, f.ipiv.data(), &f.info);
  return f;
}

factors distributed(const problem &p, int64_t nb, int P, int Q)
{
  factors f{rank() == 0 ? p.A : std::vector<double>(), std::vector<int32_t>((size_t)std::min(p.m, p.n), -1)};
  f.status = exstar_mpi_dgetrf(p.m, p.n, rank() == 0 ? f.A.data() : nullptr, p.m, f.ipiv.data(), &f.info, nb, P, Q);
  return f;
}

void require_same(const factors &got, const factors &want, const std::string &what)
{
  INFO(what << " on " << nranks() << " processes: " << exstar_last_error());
  REQUIRE(got.status == shared_int(want.status));
  REQUIRE(got.info == shared_int64(want.info));
  REQUIRE(shared(got.ipiv == want.ipiv)); // ipiv: every rank has it; rank 0 compares
  bool same = true;
  if (rank() == 0)
    for (size_t i = 0; i < want.A.size(); ++i) same = same && same_bits(got.A[i], want.A[i]);
  REQUIRE(shared(same));
}

} // namespace

TEST_CASE("distributed LU: L, U, ipiv and info are the single-process bits, every grid and tile edge",
          "[mpi][getrf]")
{
  for (const problem &p : problems()) {
    const factors want = reference(p);
    for (auto [P, Q] : grids())
      for (int64_t nb : {7, 16, 64})
        require_same(distributed(p, nb, P, Q), want,
                     p.name + ", grid " + std::to_string(P) + "x" + std::to_string(Q) + ", nb " + std::to_string(nb));
  }
}

namespace {

// exstar_mpi_dgetrf_tiles on tiles cut from p.A on their owners (leading dimension ldt, 0:
// packed); each rank compares its own tiles with want's entries (rank 0's, broadcast).
void require_same_tiles(const problem &p, const factors &want, int64_t nb, int P, int Q, int64_t ldt,
                        const std::string &what)
{
  const int64_t mt = (p.m + nb - 1) / nb, nt = (p.n + nb - 1) / nb;
  int gP = P, gQ = Q;
  if (gP == 0 && gQ == 0) gP = 1, gQ = nranks();
  std::vector<std::vector<double>> mine((size_t)(mt * nt));
  std::vector<double *> tiles((size_t)(mt * nt), nullptr);
  auto rows = [&](int64_t I) { return std::min<int64_t>(nb, p.m - I * nb); };
  auto cols = [&](int64_t J) { return std::min<int64_t>(nb, p.n - J * nb); };
  for (int64_t J = 0; J < nt; ++J)
    for (int64_t I = 0; I < mt; ++I) {
      if (exstar_mpi_tile_owner(I, J, gP, gQ) != rank()) continue;
      const int64_t ld = ldt ? ldt : rows(I);
      std::vector<double> &t = mine[(size_t)(I + J * mt)];
      t.assign((size_t)(ld * cols(J)), -7.0);
      for (int64_t j = 0; j < cols(J); ++j)
        for (int64_t i = 0; i < rows(I); ++i) t[(size_t)(i + j * ld)] = p.A[(size_t)(I * nb + i + (J * nb + j) * p.m)];
      tiles[(size_t)(I + J * mt)] = t.data();
    }
  factors got{{}, std::vector<int32_t>((size_t)std::min(p.m, p.n), -1)};
  got.status = exstar_mpi_dgetrf_tiles(p.m, p.n, nb, P, Q, tiles.data(), ldt, got.ipiv.data(), &got.info);
  INFO(what << " on " << nranks() << " processes: " << exstar_last_error());
  REQUIRE(got.status == shared_int(want.status));
  REQUIRE(got.info == shared_int64(want.info));
  std::vector<double> all = want.A;
  MPI_Bcast(all.data(), (int)all.size(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::vector<int32_t> wp = want.ipiv;
  MPI_Bcast(wp.data(), (int)wp.size(), MPI_INT32_T, 0, MPI_COMM_WORLD);
  bool same = got.ipiv == wp;
  for (int64_t J = 0; J < nt; ++J)
    for (int64_t I = 0; I < mt; ++I) {
      const std::vector<double> &t = mine[(size_t)(I + J * mt)];
      if (t.empty()) continue;
      const int64_t ld = ldt ? ldt : rows(I);
      for (int64_t j = 0; j < cols(J); ++j)
        for (int64_t i = 0; i < ld; ++i) {
          const double w = i < rows(I) ? all[(size_t)(I * nb + i + (J * nb + j) * p.m)] : -7.0; // padding untouched
          same = same && same_bits(t[(size_t)(i + j * ld)], w);
        }
    }
  int ok = same ? 1 : 0, every = 0;
  MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  REQUIRE(every == 1);
}

} // namespace

TEST_CASE("distributed LU on the application's own tiles: each process's tiles hold the single-process bits",
          "[mpi][getrf][tiles]")
{
  for (const problem &p : problems()) {
    const factors want = reference(p);
    for (auto [P, Q] : grids())
      for (int64_t nb : {7, 16})
        for (int64_t ldt : {int64_t(0), nb + 3})
          require_same_tiles(p, want, nb, P, Q, ldt,
                             p.name + ", grid " + std::to_string(P) + "x" + std::to_string(Q) + ", nb " +
                                 std::to_string(nb) + ", ldt " + std::to_string(ldt));
  }
  const problem p = problems()[0];
  require_same_tiles(p, reference(p), 64, 0, 0, 0, "default grid, nb 64");
}

TEST_CASE("distributed LU on the application's own tiles: a missing tile or bad nb fails on every process",
          "[mpi][getrf][tiles][errors]")
{
  std::vector<double *> none(16, nullptr);
  std::vector<int32_t> ipiv(40);
  int64_t info = 0;
  REQUIRE(exstar_mpi_dgetrf_tiles(40, 40, 10, 0, 0, none.data(), 0, ipiv.data(), &info) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_mpi_dgetrf_tiles(40, 40, 0, 0, 0, none.data(), 0, ipiv.data(), &info) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_mpi_dgetrf_tiles(40, 40, 10, 0, 0, none.data(), 0, ipiv.data(), nullptr) == EXSTAR_ERR_ARG);
}

TEST_CASE("distributed LU: tiles beyond MPI's eager limit (64 x 64 and 96 x 96)", "[mpi][getrf][large]")
{
  Rng rng(5);
  const problem p{"random 200x190", 200, 190, gen_exp_spread(200 * 190, -10, 10, rng)};
  const factors want = reference(p);
  for (int64_t nb : {64, 96}) require_same(distributed(p, nb, 0, 0), want, "nb " + std::to_string(nb));
}

TEST_CASE("distributed LU: the exact path alone gives the same bits", "[mpi][getrf][exact]")
{
  const problem p = problems()[3]; // wide exponents: many entries decline anyway
  const factors want = reference(p);
  exstar_set_exact_only(1);
  const factors got = distributed(p, 8, 0, 0);
  exstar_set_exact_only(0);
  require_same(got, want, "exact only");
}

TEST_CASE("distributed gesv: the solutions are exstar_dgesv's bits", "[mpi][gesv]")
{
  Rng rng(99);
  const int n = 45, nrhs = 3;
  const std::vector<double> A = gen_matrix_cond(n, 1e12, 5), B = gen_uniform(n * nrhs, rng);
  for (int steps : {0, 2}) {
    std::vector<double> A1 = A, B1 = B, A2 = A, B2 = B;
    std::vector<int32_t> p1(n), p2(n);
    int64_t i1 = -1, i2 = -1;
    int s1 = 0;
    if (rank() == 0) s1 = exstar_dgesv(n, nrhs, A1.data(), n, p1.data(), B1.data(), n, steps, &i1);
    int s2 = exstar_mpi_dgesv(n, nrhs, A2.data(), n, p2.data(), B2.data(), n, steps, &i2, 16, 0, 0);
    INFO("refine steps " << steps << ": " << exstar_last_error());
    REQUIRE(s2 == shared_int(s1));
    REQUIRE(i2 == shared_int64(i1));
    bool same = true;
    if (rank() == 0)
      for (size_t i = 0; i < B1.size(); ++i) same = same && same_bits(B1[i], B2[i]);
    REQUIRE(shared(same && p1 == p2));
  }
}

TEST_CASE("distributed dot: one rounding of the exact sum over every rank's part", "[mpi][dot]")
{
  Rng rng(7);
  // the whole vectors, known everywhere; rank r holds a part of its own length (rank 1 none)
  const int n = 3000;
  const std::vector<double> x = gen_exp_spread(n, -200, 200, rng), y = gen_sum_cancel(n, 1e-30, -100, 100, rng);
  // rank r holds [first(r), first(r+1)); with 3 or more processes rank 1 holds nothing
  auto first = [&](int r) {
    if (r >= nranks()) return n;
    return (nranks() >= 3 && r == 1 ? 2 : r) * (n / nranks());
  };
  const int me = rank(), len = first(me + 1) - first(me);
  double got = -1.0, want = -2.0;
  REQUIRE(exstar_mpi_ddot(len, x.data() + first(me), 1, y.data() + first(me), 1, &got) == EXSTAR_SUCCESS);
  REQUIRE(exstar_ddot(n, x.data(), 1, y.data(), 1, &want) == EXSTAR_SUCCESS);
  REQUIRE(same_bits(got, want));
  REQUIRE(same_bits(shared_double(got), got)); // every rank holds rank 0's value
}

TEST_CASE("distributed gemm on the application's StarPU-MPI tiles equals exstar_dgemm", "[mpi][gemm]")
{
  Rng rng(11);
  const int mt = 3, nt = 2, tb = 9, k = 17, m = mt * tb, n = nt * tb;
  const std::vector<double> A = gen_exp_spread(m * k, -40, 40, rng), B = gen_exp_spread(k * n, -40, 40, rng);
  const std::vector<double> C0 = gen_uniform(m * n, rng);
  std::vector<double> want = C0;
  REQUIRE(exstar_dgemm('N', 'N', m, n, k, 1.5, A.data(), m, B.data(), k, -0.5, want.data(), m) == EXSTAR_SUCCESS);
  // row panels of A, column panels of B, tiles of C: copies owned by the tiles' ranks
  std::vector<std::vector<double>> ap(mt), bp(nt), ct(mt * nt);
  std::vector<starpu_data_handle_t> ha(mt), hb(nt), hc(mt * nt);
  int64_t tag = 1000;
  for (int I = 0; I < mt; ++I) {
    ap[I].resize(tb * k);
    for (int l = 0; l < k; ++l)
      for (int i = 0; i < tb; ++i) ap[I][i + l * tb] = A[I * tb + i + (size_t)l * m];
    starpu_matrix_data_register(&ha[I], STARPU_MAIN_RAM, (uintptr_t)ap[I].data(), tb, tb, k, sizeof(double));
    starpu_mpi_data_register(ha[I], tag++, I % nranks());
  }
  for (int J = 0; J < nt; ++J) {
    bp[J].assign(B.begin() + (size_t)J * tb * k, B.begin() + (size_t)(J + 1) * tb * k);
    starpu_matrix_data_register(&hb[J], STARPU_MAIN_RAM, (uintptr_t)bp[J].data(), k, k, tb, sizeof(double));
    starpu_mpi_data_register(hb[J], tag++, (J + 1) % nranks());
  }
  for (int J = 0; J < nt; ++J)
    for (int I = 0; I < mt; ++I) {
      std::vector<double> &c = ct[I + J * mt];
      c.resize(tb * tb);
      for (int j = 0; j < tb; ++j)
        for (int i = 0; i < tb; ++i) c[i + j * tb] = C0[I * tb + i + (size_t)(J * tb + j) * m];
      starpu_matrix_data_register(&hc[I + J * mt], STARPU_MAIN_RAM, (uintptr_t)c.data(), tb, tb, tb, sizeof(double));
      starpu_mpi_data_register(hc[I + J * mt], tag++, exstar_mpi_tile_owner(I, J, 1, nranks()));
    }
  REQUIRE(exstar_mpi_dgemm_insert(MPI_COMM_WORLD, 'N', 'N', mt, nt, 1.5, ha.data(), hb.data(), -0.5, hc.data()) ==
          EXSTAR_SUCCESS);
  for (int t = 0; t < mt * nt; ++t) starpu_mpi_get_data_on_node(MPI_COMM_WORLD, hc[t], 0);
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  for (auto *hs : {&ha, &hb, &hc})
    for (starpu_data_handle_t h : *hs) starpu_data_unregister(h);
  bool same = true;
  if (rank() == 0)
    for (int J = 0; J < nt; ++J)
      for (int I = 0; I < mt; ++I)
        for (int j = 0; j < tb; ++j)
          for (int i = 0; i < tb; ++i)
            same = same && same_bits(ct[I + J * mt][i + j * tb], want[I * tb + i + (size_t)(J * tb + j) * m]);
  REQUIRE(shared(same));
}

TEST_CASE("distributed gemv on the application's StarPU-MPI row panels equals exstar_dgemv", "[mpi][gemv]")
{
  Rng rng(13);
  const int mt = 4, tb = 11, n = 29, m = mt * tb;
  const std::vector<double> A = gen_exp_spread(m * n, -60, 60, rng), x = gen_sum_cancel(n, 1e-20, -30, 30, rng);
  const std::vector<double> y0 = gen_uniform(m, rng);
  std::vector<double> want = y0;
  REQUIRE(exstar_dgemv('N', m, n, 0.75, A.data(), m, x.data(), 1, 2.0, want.data(), 1) == EXSTAR_SUCCESS);
  std::vector<std::vector<double>> ap(mt), yp(mt);
  std::vector<starpu_data_handle_t> ha(mt), hy(mt);
  std::vector<double> xs = x;
  starpu_data_handle_t hx;
  int64_t tag = 2000;
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)xs.data(), n, sizeof(double));
  starpu_mpi_data_register(hx, tag++, nranks() - 1);
  for (int I = 0; I < mt; ++I) {
    ap[I].resize(tb * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < tb; ++i) ap[I][i + j * tb] = A[I * tb + i + (size_t)j * m];
    yp[I].assign(y0.begin() + I * tb, y0.begin() + (I + 1) * tb);
    starpu_matrix_data_register(&ha[I], STARPU_MAIN_RAM, (uintptr_t)ap[I].data(), tb, tb, n, sizeof(double));
    starpu_mpi_data_register(ha[I], tag++, (I + 1) % nranks());
    starpu_vector_data_register(&hy[I], STARPU_MAIN_RAM, (uintptr_t)yp[I].data(), tb, sizeof(double));
    starpu_mpi_data_register(hy[I], tag++, I % nranks());
  }
  REQUIRE(exstar_mpi_dgemv_insert(MPI_COMM_WORLD, mt, 0.75, ha.data(), hx, 2.0, hy.data()) == EXSTAR_SUCCESS);
  for (int I = 0; I < mt; ++I) starpu_mpi_get_data_on_node(MPI_COMM_WORLD, hy[I], 0);
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  starpu_data_unregister(hx);
  for (int I = 0; I < mt; ++I) starpu_data_unregister(ha[I]), starpu_data_unregister(hy[I]);
  bool same = true;
  if (rank() == 0)
    for (int I = 0; I < mt; ++I)
      for (int i = 0; i < tb; ++i) same = same && same_bits(yp[I][i], want[I * tb + i]);
  REQUIRE(shared(same));
}

TEST_CASE("distributed calls: mismatched sizes and bad grids fail on every process", "[mpi][errors]")
{
  std::vector<double> A(16 * 16, 1.0);
  std::vector<int32_t> ipiv(16);
  int64_t info = -1;
  // rank 1 (or the only rank) asks for a different n
  const int64_t n = rank() == std::min(1, nranks() - 1) && nranks() > 1 ? 15 : 16;
  if (nranks() > 1) CHECK(exstar_mpi_dgetrf(16, n, A.data(), 16, ipiv.data(), &info, 8, 0, 0) == EXSTAR_ERR_ARG);
  CHECK(exstar_mpi_dgetrf(16, 16, A.data(), 16, ipiv.data(), &info, 8, nranks() + 1, 1) == EXSTAR_ERR_ARG);
  CHECK(std::string(exstar_last_error()).find("grid") != std::string::npos);
  // rank 0 passes lda < m: every process reports it
  CHECK(exstar_mpi_dgetrf(16, 16, A.data(), rank() == 0 ? 8 : 16, ipiv.data(), &info, 8, 0, 0) == EXSTAR_ERR_ARG);
  // and the library still works
  std::vector<double> B = problems()[0].A;
  std::vector<int32_t> p(40);
  CHECK(exstar_mpi_dgetrf(40, 40, B.data(), 40, p.data(), &info, 16, 0, 0) == EXSTAR_SUCCESS);
}

namespace {

// Bytes this process has sent through StarPU-MPI so far (STARPU_COMM_STATS, set in main).
size_t bytes_sent()
{
  std::vector<size_t> to((size_t)nranks(), 0);
  starpu_mpi_comm_amounts_retrieve(to.data());
  size_t s = 0;
  for (size_t b : to) s += b;
  return s;
}

// The busiest process's bytes for one factorization by f on the default grid.
template <class F> unsigned long long busiest_bytes(F f)
{
  Rng rng(31);
  std::vector<double> A = gen_uniform(256 * 256, rng);
  std::vector<int32_t> ipiv(256);
  int64_t info = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const size_t before = bytes_sent();
  REQUIRE(f(256, 256, rank() == 0 ? A.data() : nullptr, 256, ipiv.data(), &info, 32, 0, 0) == EXSTAR_SUCCESS);
  unsigned long long mine = bytes_sent() - before, most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

} // namespace

// Exactness may cost arithmetic, never communication: the exact graph's extra data (L's column
// copies and row orders for the exact path) replaces what the plain graph's updates read anyway.
TEST_CASE("distributed LU: the exact graph sends at most 1.5x the plain graph's bytes", "[mpi][getrf][bytes]")
{
  if (nranks() == 1) return;
  const unsigned long long exact = busiest_bytes(exstar_mpi_dgetrf), plain = busiest_bytes(exstar_mpi_dgetrf_plain);
  INFO("busiest process: exact " << exact << " bytes, plain " << plain << " bytes");
  CHECK(plain > 0);
  CHECK(exact <= plain + plain / 2);
}

namespace {

// A symmetric positive definite n x n matrix: B·Bᵀ + n·I in double, mirrored (lda = n);
// scale spreads the exponents (D·A·D with D = diag(2^e), e in [-scale, scale]).
std::vector<double> spd(int n, Rng &rng, int scale = 0)
{
  const std::vector<double> B = gen_uniform(n * n, rng);
  std::vector<int> e((size_t)n, 0);
  for (int &x : e) x = scale ? (int)rand_below(rng, (uint64_t)(2 * scale + 1)) - scale : 0;
  std::vector<double> A((size_t)n * n);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      double t = i == j ? (double)n : 0.0;
      for (int q = 0; q < n; ++q) t += B[i + (size_t)q * n] * B[j + (size_t)q * n];
      A[i + (size_t)j * n] = A[j + (size_t)i * n] = std::ldexp(t, e[(size_t)i] + e[(size_t)j]);
    }
  return A;
}

struct chol {
  std::vector<double> A;
  int64_t info = -1;
  int status = 0;
};

void require_same_factor(int n, const chol &got, const chol &want, const std::string &what)
{
  INFO(what << " on " << nranks() << " processes: " << exstar_last_error());
  REQUIRE(got.status == shared_int(want.status));
  REQUIRE(got.info == shared_int64(want.info));
  bool same = true;
  if (rank() == 0)
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n; ++i) same = same && same_bits(got.A[i + (size_t)j * n], want.A[i + (size_t)j * n]);
  REQUIRE(shared(same));
}

// The Cholesky problems: a random SPD matrix of order n1, one of order n2 with wide exponents,
// and one that is not positive definite (a negative diagonal entry at column 12 of 30).
std::vector<std::pair<std::string, std::vector<double>>> chol_problems(int n1, int n2, Rng &rng)
{
  std::vector<std::pair<std::string, std::vector<double>>> ps = {
      {"random SPD " + std::to_string(n1), spd(n1, rng)}, {"wide exponents " + std::to_string(n2), spd(n2, rng, 200)}};
  std::vector<double> A = spd(30, rng);
  A[12 + 12 * 30] = -1.0;
  ps.push_back({"indefinite 30", A});
  return ps;
}

} // namespace

TEST_CASE("distributed Cholesky: the factor, info and status are exstar_dpotrf's, every grid and tile edge",
          "[mpi][potrf]")
{
  Rng rng(2026);
  const auto ps = chol_problems(40, 33, rng);
  for (const auto &[name, A] : ps) {
    const int n = (int)std::lround(std::sqrt((double)A.size()));
    chol want{A};
    if (rank() == 0) want.status = exstar_dpotrf('L', n, want.A.data(), n, &want.info);
    for (auto [P, Q] : grids())
      for (int64_t nb : {7, 16, 64}) {
        chol got{rank() == 0 ? A : std::vector<double>()};
        got.status = exstar_mpi_dpotrf(n, rank() == 0 ? got.A.data() : nullptr, n, &got.info, nb, P, Q);
        require_same_factor(n, got, want,
                            name + ", grid " + std::to_string(P) + "x" + std::to_string(Q) + ", nb " + std::to_string(nb));
      }
  }
}

// The exact path of a Cholesky panel task reads tiles its process received for the updates:
// the exact graph sends what the plain graph sends (states never move).
TEST_CASE("distributed Cholesky on the application's own tiles: each process's lower tiles hold exstar_dpotrf's bits",
          "[mpi][potrf][tiles]")
{
  Rng rng(2027);
  const auto ps = chol_problems(37, 29, rng);
  for (const auto &[name, A] : ps) {
    const int n = (int)std::lround(std::sqrt((double)A.size()));
    chol want{A};
    if (rank() == 0) want.status = exstar_dpotrf('L', n, want.A.data(), n, &want.info);
    std::vector<double> all = want.A;
    MPI_Bcast(all.data(), (int)all.size(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (auto [P, Q] : grids())
      for (int64_t nb : {7, 16})
        for (int64_t ldt : {int64_t(0), nb + 2}) {
          const int64_t mt = (n + nb - 1) / nb;
          auto rows = [&](int64_t I) { return std::min<int64_t>(nb, n - I * nb); };
          std::vector<std::vector<double>> mine((size_t)(mt * mt));
          std::vector<double *> tiles((size_t)(mt * mt), nullptr);
          for (int64_t J = 0; J < mt; ++J)
            for (int64_t I = J; I < mt; ++I) {
              if (exstar_mpi_tile_owner(I, J, P, Q) != rank()) continue;
              const int64_t ld = ldt ? ldt : rows(I);
              std::vector<double> &t = mine[(size_t)(I + J * mt)];
              t.assign((size_t)(ld * rows(J)), -7.0);
              for (int64_t j = 0; j < rows(J); ++j)
                for (int64_t i = 0; i < rows(I); ++i) t[(size_t)(i + j * ld)] = A[(size_t)(I * nb + i + (J * nb + j) * n)];
              tiles[(size_t)(I + J * mt)] = t.data();
            }
          int64_t info = -1;
          const int status = exstar_mpi_dpotrf_tiles(n, nb, P, Q, tiles.data(), ldt, &info);
          INFO(name << ", grid " << P << "x" << Q << ", nb " << nb << ", ldt " << ldt << " on " << nranks()
                    << " processes: " << exstar_last_error());
          REQUIRE(status == shared_int(want.status));
          REQUIRE(info == shared_int64(want.info));
          bool same = true;
          for (int64_t J = 0; J < mt; ++J)
            for (int64_t I = J; I < mt; ++I) {
              const std::vector<double> &t = mine[(size_t)(I + J * mt)];
              if (t.empty()) continue;
              const int64_t ld = ldt ? ldt : rows(I);
              for (int64_t j = 0; j < rows(J); ++j)
                for (int64_t i = 0; i < ld; ++i) {
                  const int64_t gi = I * nb + i, gj = J * nb + j;
                  const double w = i >= rows(I) ? -7.0                                  // padding: untouched
                                   : gi >= gj ? all[(size_t)(gi + gj * n)]               // the factor
                                              : A[(size_t)(gi + gj * n)];                // above it: as it was
                  same = same && same_bits(t[(size_t)(i + j * ld)], w);
                }
            }
          int ok = same ? 1 : 0, every = 0;
          MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
          REQUIRE(every == 1);
        }
  }
  std::vector<double *> none(16, nullptr);
  int64_t info = 0;
  REQUIRE(exstar_mpi_dpotrf_tiles(40, 10, 0, 0, none.data(), 0, &info) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_mpi_dpotrf_tiles(40, 0, 0, 0, none.data(), 0, &info) == EXSTAR_ERR_ARG);
}

TEST_CASE("distributed Cholesky: the exact graph sends at most 1.1x the plain graph's bytes", "[mpi][potrf][bytes]")
{
  if (nranks() == 1) return;
  Rng rng(32);
  const std::vector<double> A0 = spd(256, rng);
  unsigned long long most[2] = {0, 0};
  for (int plain : {0, 1}) {
    std::vector<double> A = A0;
    int64_t info = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    const size_t before = bytes_sent();
    REQUIRE((plain ? exstar_mpi_dpotrf_plain : exstar_mpi_dpotrf)(256, rank() == 0 ? A.data() : nullptr, 256, &info,
                                                                  32, 0, 0) == EXSTAR_SUCCESS);
    unsigned long long mine = bytes_sent() - before;
    MPI_Allreduce(&mine, &most[plain], 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  }
  INFO("busiest process: exact " << most[0] << " bytes, plain " << most[1] << " bytes");
  CHECK(most[1] > 0);
  CHECK(most[0] <= most[1] + most[1] / 10);
}

int main(int argc, char **argv)
{
  setenv("STARPU_COMM_STATS", "1", 0); // bytes_sent
  exstar_config cfg;
  exstar_config_default(&cfg);
  cfg.backends = EXSTAR_BACKEND_CPU;
  const char *be = std::getenv("EXSTAR_TEST_BACKENDS");
  if (be && std::string(be) == "cpu+opencl") cfg.backends |= EXSTAR_BACKEND_OPENCL, cfg.nopencl = 1, cfg.require = 1;
  cfg.ncpus = 1; // ranks share the cores: one worker each
  if (exstar_mpi_init(&argc, &argv, &cfg) != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "test_mpi: %s\n", exstar_last_error());
    return exstar_last_error()[0] && std::strstr(exstar_last_error(), "worker") ? 77 : 1;
  }
  Catch::Session session;
  if (rank() != 0) session.configData().outputFilename = "/dev/null"; // one report: rank 0's
  int failed = session.run(argc, argv);
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  exstar_mpi_shutdown();
  return any ? 1 : 0;
}
