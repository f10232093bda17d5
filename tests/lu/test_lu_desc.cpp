// The tiled LU on descriptors (include/exstar/tiles.h): on tiles registered over the caller's
// array and on the caller's own tile handles, composed with the caller's tasks through data
// dependencies alone, every entry, pivot and info is exstar_dgetrf_unblocked's; bad descriptors
// are refused before anything is submitted.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace exstar_test;

namespace {

struct lu {
  std::vector<double> A;
  std::vector<int32_t> ipiv;
  int64_t info = -1;
  int status = 0;
};

lu unblocked(int m, int n, const std::vector<double> &A)
{
  lu r{A, std::vector<int32_t>((size_t)std::min(m, n))};
  r.status = exstar_dgetrf_unblocked(m, n, r.A.data(), m, r.ipiv.data(), &r.info);
  return r;
}

void require_same(const lu &got, const lu &want, const std::string &what)
{
  INFO(what << ": " << exstar_last_error());
  REQUIRE(got.status == want.status);
  REQUIRE(got.info == want.info);
  REQUIRE(got.ipiv == want.ipiv);
  REQUIRE(got.A.size() == want.A.size());
  for (size_t i = 0; i < got.A.size(); ++i) REQUIRE(same_bits(got.A[i], want.A[i]));
}

// The caller's own codelet: scales a tile by 2 (exact), so the LU must wait for it.
void twice_cpu(void *buffers[], void *)
{
  double *a = (double *)STARPU_MATRIX_GET_PTR(buffers[0]);
  const size_t rows = STARPU_MATRIX_GET_NX(buffers[0]), cols = STARPU_MATRIX_GET_NY(buffers[0]);
  const size_t ld = STARPU_MATRIX_GET_LD(buffers[0]);
  for (size_t j = 0; j < cols; ++j)
    for (size_t i = 0; i < rows; ++i) a[i + j * ld] *= 2.0;
}
struct starpu_codelet twice_cl = [] {
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = twice_cpu;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  cl.name = "test_twice";
  return cl;
}();

} // namespace

TEST_CASE("descriptor over the caller's array: exstar_dgetrf's bits, after the caller's own tasks", "[lu][desc]")
{
  session s("prio");
  Rng rng(8080);
  for (auto [m, n, nb] : {std::tuple{45, 45, 16}, {50, 33, 7}, {29, 41, 32}, {40, 40, 64}}) {
    const std::vector<double> A0 = gen_exp_spread(m * n, -30, 30, rng);
    std::vector<double> doubled = A0;
    for (double &a : doubled) a *= 2.0;
    const lu want = unblocked(m, n, doubled);
    lu got{A0, std::vector<int32_t>((size_t)std::min(m, n), -1)};
    exstar_desc d = nullptr;
    REQUIRE(exstar_desc_create(&d, m, n, nb, got.A.data(), m) == EXSTAR_SUCCESS);
    // the caller's codelet is CPU-only: with the GPU alone, the doubling is done before
    if (starpu_cpu_worker_get_count() == 0) {
      exstar_desc_destroy(d);
      got.A = doubled;
      REQUIRE(exstar_desc_create(&d, m, n, nb, got.A.data(), m) == EXSTAR_SUCCESS);
    }
    for (int64_t J = 0; J < exstar_desc_nt(d) && starpu_cpu_worker_get_count() > 0; ++J)
      for (int64_t I = 0; I < exstar_desc_mt(d); ++I)
        REQUIRE(starpu_task_insert(&twice_cl, STARPU_RW, exstar_desc_tile(d, I, J), 0) == 0);
    REQUIRE(exstar_dgetrf_desc_insert(d, got.ipiv.data()) == EXSTAR_SUCCESS);
    got.status = exstar_dgetrf_desc_info(d, &got.info);
    REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
    require_same(got, want, std::to_string(m) + "x" + std::to_string(n) + " nb " + std::to_string(nb));
  }
}

TEST_CASE("descriptor over the caller's tile handles: the factors in the caller's tiles", "[lu][desc]")
{
  session s("eager");
  Rng rng(8081);
  const int m = 37, n = 37, nb = 10, mt = 4, nt = 4;
  std::vector<double> A0 = gen_uniform(m * n, rng);
  A0[5 + 5 * m] = 0.0; // nothing special: a zero entry, not a zero pivot
  const lu want = unblocked(m, n, A0);
  // the caller's tiles: separate buffers, each with ld = its rows + 2
  std::vector<std::vector<double>> buf(mt * nt);
  std::vector<starpu_data_handle_t> h(mt * nt);
  for (int J = 0; J < nt; ++J)
    for (int I = 0; I < mt; ++I) {
      const int rows = std::min(nb, m - I * nb), cols = std::min(nb, n - J * nb), ld = rows + 2;
      std::vector<double> &b = buf[I + J * mt];
      b.assign((size_t)ld * cols, std::nan(""));
      for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) b[i + j * ld] = A0[I * nb + i + (size_t)(J * nb + j) * m];
      starpu_matrix_data_register(&h[I + J * mt], STARPU_MAIN_RAM, (uintptr_t)b.data(), ld, rows, cols, sizeof(double));
    }
  exstar_desc d = nullptr;
  REQUIRE(exstar_desc_create_tiles(&d, m, n, nb, h.data()) == EXSTAR_SUCCESS);
  lu got{std::vector<double>((size_t)m * n), std::vector<int32_t>(m, -1)};
  REQUIRE(exstar_dgetrf_desc_insert(d, got.ipiv.data()) == EXSTAR_SUCCESS);
  got.status = exstar_dgetrf_desc_info(d, &got.info);
  REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
  for (starpu_data_handle_t x : h) starpu_data_unregister(x); // still the caller's
  for (int J = 0; J < nt; ++J)
    for (int I = 0; I < mt; ++I) {
      const int rows = std::min(nb, m - I * nb), cols = std::min(nb, n - J * nb), ld = rows + 2;
      for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) got.A[I * nb + i + (size_t)(J * nb + j) * m] = buf[I + J * mt][i + j * ld];
    }
  require_same(got, want, "caller's tiles");
}

TEST_CASE("descriptor LU: a zero pivot gives LAPACK's info and exstar_dgetrf's status", "[lu][desc]")
{
  session s("eager");
  std::vector<double> A(30 * 30);
  Rng rng(3);
  for (double &x : A) x = (double)(int)rand_below(rng, 17) - 8.0;
  for (int i = 0; i < 30; ++i) A[i + 5 * 30] = 0.0; // u(5,5) = 0 exactly: info = 6
  const lu want = unblocked(30, 30, A);
  REQUIRE(want.status == EXSTAR_ERR_SINGULAR);
  lu got{A, std::vector<int32_t>(30)};
  exstar_desc d;
  REQUIRE(exstar_desc_create(&d, 30, 30, 8, got.A.data(), 30) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrf_desc_insert(d, got.ipiv.data()) == EXSTAR_SUCCESS);
  got.status = exstar_dgetrf_desc_info(d, &got.info);
  exstar_desc_destroy(d);
  require_same(got, want, "singular");
}

TEST_CASE("descriptor LU: the status of every tile (zero pivot in a later diagonal tile, NaN, inf) is "
          "exstar_dgetrf's, on every insertion",
          "[lu][desc]")
{
  session s("eager");
  const int kind = GENERATE(0, 1, 2); // zero column 21 of 40 x 30 (info 22, third diagonal tile); NaN; -inf
  const int m = kind == 0 ? 40 : 30, n = 30;
  std::vector<double> A((size_t)(m * n));
  Rng rng(5 + kind);
  for (double &x : A) x = (double)(int)rand_below(rng, 17) - 8.0;
  if (kind == 0)
    for (int i = 0; i < m; ++i) A[i + 21 * (size_t)m] = 0.0;
  if (kind == 1) A[17 + 3 * (size_t)m] = std::nan("");
  if (kind == 2) A[2 + 25 * (size_t)m] = -INFINITY;
  const lu want = unblocked(m, n, A);
  REQUIRE(want.status == (kind == 0 ? EXSTAR_ERR_SINGULAR : EXSTAR_ERR_NONFINITE));
  lu got{A, std::vector<int32_t>((size_t)n)};
  exstar_desc d;
  REQUIRE(exstar_desc_create(&d, m, n, 8, got.A.data(), m) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrf_desc_insert(d, got.ipiv.data()) == EXSTAR_SUCCESS);
  got.status = exstar_dgetrf_desc_info(d, &got.info);
  CHECK(got.status == want.status);
  CHECK(got.info == want.info);
  // the factors factorized again on the same descriptor: a new status, from the tiles as they are
  const lu again = unblocked(m, n, want.A);
  std::vector<int32_t> ipiv2((size_t)n);
  REQUIRE(exstar_dgetrf_desc_insert(d, ipiv2.data()) == EXSTAR_SUCCESS);
  int64_t info2 = -1;
  const int status2 = exstar_dgetrf_desc_info(d, &info2);
  exstar_desc_destroy(d); // the tiles home in got.A
  CHECK(status2 == again.status);
  CHECK(info2 == again.info);
  CHECK(ipiv2 == again.ipiv);
  for (size_t i = 0; i < got.A.size(); ++i) REQUIRE(same_bits(got.A[i], again.A[i]));
}

TEST_CASE("bad descriptors are refused before anything is submitted", "[lu][desc][errors]")
{
  session s("eager");
  std::vector<double> A(16 * 16, 1.0);
  exstar_desc d = nullptr;
  CHECK(exstar_desc_create(nullptr, 4, 4, 2, A.data(), 4) == EXSTAR_ERR_ARG);
  CHECK(exstar_desc_create(&d, 16, 16, 0, A.data(), 16) == EXSTAR_ERR_ARG);
  CHECK(exstar_desc_create(&d, 16, 16, 4, A.data(), 15) == EXSTAR_ERR_ARG);
  CHECK(exstar_desc_create(&d, 16, 16, 4, nullptr, 16) == EXSTAR_ERR_ARG);
  CHECK(d == nullptr);
  // a tile of the wrong shape
  std::vector<starpu_data_handle_t> h(4);
  std::vector<std::vector<double>> buf(4, std::vector<double>(64));
  for (int t = 0; t < 4; ++t)
    starpu_matrix_data_register(&h[t], STARPU_MAIN_RAM, (uintptr_t)buf[t].data(), 8, t == 3 ? 7 : 8, 8, sizeof(double));
  CHECK(exstar_desc_create_tiles(&d, 16, 16, 8, h.data()) == EXSTAR_ERR_ARG);
  CHECK(std::string(exstar_last_error()).find("tile (1, 1)") != std::string::npos);
  for (starpu_data_handle_t x : h) starpu_data_unregister(x);
  CHECK(exstar_dgetrf_desc_insert(nullptr, nullptr) == EXSTAR_ERR_ARG);
  // and it still works
  REQUIRE(exstar_desc_create(&d, 16, 16, 4, A.data(), 16) == EXSTAR_SUCCESS);
  CHECK(exstar_dgetrf_desc_insert(d, nullptr) == EXSTAR_ERR_ARG);
  REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
}
