// The tiled LU on descriptors (include/exstar/tiles.h): on tiles registered over the caller's
// array and on the caller's own tile handles, composed with the caller's tasks through data
// dependencies alone, every entry, pivot and info is exstar_dgetrf_unblocked's; bad descriptors
// are refused before anything is submitted.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.h>
#include <exstar/exstar.hpp>
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

// The caller's own codelet on the pivot handle (STARPU_R): copies it into the vector cl_arg.
void read_pivots_cpu(void *buffers[], void *arg)
{
  const int32_t *p = (const int32_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
  std::vector<int32_t> *out = static_cast<std::vector<int32_t> *>(arg);
  out->assign(p, p + STARPU_VECTOR_GET_NX(buffers[0]));
}
struct starpu_codelet read_pivots_cl = [] {
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = read_pivots_cpu;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_R;
  cl.name = "test_read_pivots";
  return cl;
}();

// exstar_dgetrf, exstar_dgetrs and exstar_dgesv on arrays: what the descriptor calls must give.
struct solved {
  lu f;                       // exstar_dgetrf's factors
  std::vector<double> X, XT;  // exstar_dgetrs 'N' and 'T' on them
  std::vector<double> Xgesv;  // exstar_dgesv (no refinement)
};

solved on_arrays(int n, int nrhs, const std::vector<double> &A, const std::vector<double> &B)
{
  solved r{lu{A, std::vector<int32_t>((size_t)n)}, B, B, B};
  r.f.status = exstar_dgetrf(n, n, r.f.A.data(), n, r.f.ipiv.data(), &r.f.info);
  REQUIRE(r.f.status == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrs('N', n, nrhs, r.f.A.data(), n, r.f.ipiv.data(), r.X.data(), n) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrs('T', n, nrhs, r.f.A.data(), n, r.f.ipiv.data(), r.XT.data(), n) == EXSTAR_SUCCESS);
  std::vector<double> A2 = A;
  std::vector<int32_t> ipiv2((size_t)n);
  int64_t info2 = -1;
  REQUIRE(exstar_dgesv(n, nrhs, A2.data(), n, ipiv2.data(), r.Xgesv.data(), n, 0, &info2) == EXSTAR_SUCCESS);
  return r;
}

void require_bits(const std::vector<double> &got, const std::vector<double> &want, const std::string &what)
{
  INFO(what << ": " << exstar_last_error());
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("entry " << i << ": " << got[i] << " vs " << want[i]);
    REQUIRE(same_bits(got[i], want[i]));
  }
}

bool says(const char *text) { return std::string(exstar_last_error()).find(text) != std::string::npos; }

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
  CHECK(exstar_dgetrf_desc_insert(d, nullptr) == EXSTAR_SUCCESS); // the pivots in exstar_desc_ipiv(d) alone
  REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
}

TEST_CASE("the pivot handle: a caller's task reading it (STARPU_R) runs after the LU and sees exstar_dgetrf's "
          "pivots, with no wait",
          "[lu][desc][ipiv]")
{
  session s("prio");
  Rng rng(8090);
  for (auto [m, n, nb] : {std::tuple{45, 45, 16}, {50, 33, 7}, {29, 41, 32}}) {
    const std::vector<double> A0 = gen_exp_spread(m * n, -30, 30, rng);
    const lu want = unblocked(m, n, A0);
    std::vector<double> a = A0;
    exstar_desc d = nullptr;
    REQUIRE(exstar_desc_create(&d, m, n, nb, a.data(), m) == EXSTAR_SUCCESS);
    starpu_data_handle_t hp = exstar_desc_ipiv(d);
    REQUIRE(hp != nullptr);
    REQUIRE(starpu_vector_get_nx(hp) == (uint32_t)std::min(m, n));
    REQUIRE(exstar_dgetrf_desc_insert(d, nullptr) == EXSTAR_SUCCESS); // the handle alone holds them
    std::vector<int32_t> seen;
    if (starpu_cpu_worker_get_count() > 0) {
      REQUIRE(starpu_task_insert(&read_pivots_cl, STARPU_R, hp, STARPU_CL_ARGS_NFREE, &seen, sizeof seen, 0) == 0);
      // and a second LU inserted after it waits for the reader (its panels write the handle)
      REQUIRE(starpu_task_wait_for_all() == 0);
    } else { // the reader is CPU-only: with the GPU alone, the handle acquired instead
      REQUIRE(starpu_data_acquire(hp, STARPU_R) == 0);
      const int32_t *p = (const int32_t *)starpu_vector_get_local_ptr(hp);
      seen.assign(p, p + starpu_vector_get_nx(hp));
      starpu_data_release(hp);
    }
    CHECK(seen == want.ipiv);
    int64_t info = -1;
    CHECK(exstar_dgetrf_desc_info(d, &info) == want.status);
    CHECK(info == want.info);
    REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
    for (size_t i = 0; i < a.size(); ++i) REQUIRE(same_bits(a[i], want.A[i]));
  }
  // two LUs in a row, no wait between: each caller's ipiv gets its own LU's pivots
  {
    const int m = 33, n = 33, nb = 8;
    const std::vector<double> A0 = gen_uniform(m * n, rng);
    const lu first = unblocked(m, n, A0), second = unblocked(m, n, first.A);
    std::vector<double> a = A0;
    std::vector<int32_t> p1((size_t)n, -1), p2((size_t)n, -1);
    exstar_desc d = nullptr;
    REQUIRE(exstar_desc_create(&d, m, n, nb, a.data(), m) == EXSTAR_SUCCESS);
    REQUIRE(exstar_dgetrf_desc_insert(d, p1.data()) == EXSTAR_SUCCESS);
    REQUIRE(exstar_dgetrf_desc_insert(d, p2.data()) == EXSTAR_SUCCESS);
    int64_t info = -1;
    CHECK(exstar_dgetrf_desc_info(d, &info) == second.status);
    CHECK(p1 == first.ipiv);
    CHECK(p2 == second.ipiv);
    REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
    for (size_t i = 0; i < a.size(); ++i) REQUIRE(same_bits(a[i], second.A[i]));
  }
  // min(m, n) == 0: no pivots, no handle
  exstar_desc e = nullptr;
  REQUIRE(exstar_desc_create(&e, 0, 0, 4, nullptr, 1) == EXSTAR_SUCCESS);
  CHECK(exstar_desc_ipiv(e) == nullptr);
  CHECK(exstar_desc_ipiv(nullptr) == nullptr);
  exstar_desc_destroy(e);
  // 0 x n and m x 0 (n, m > 0): empty descriptors too, and their LU is LAPACK's quick return
  double one = 1.0;
  for (auto [m, n] : {std::pair<int64_t, int64_t>{0, 5}, {5, 0}}) {
    INFO(m << " x " << n);
    REQUIRE(exstar_desc_create(&e, m, n, 4, &one, 5) == EXSTAR_SUCCESS);
    CHECK(exstar_desc_ipiv(e) == nullptr);
    REQUIRE(exstar_dgetrf_desc_insert(e, nullptr) == EXSTAR_SUCCESS);
    int64_t info = -1;
    CHECK(exstar_dgetrf_desc_info(e, &info) == EXSTAR_SUCCESS);
    CHECK(info == 0);
    exstar_desc_destroy(e);
  }
}

TEST_CASE("getrs on descriptors: exstar_dgetrs's and exstar_dgesv's bits, for every nb, nrhs and scheduler",
          "[lu][desc][getrs]")
{
  const char *sched = GENERATE("eager", "prio", "dmda");
  session s(sched);
  Rng rng(8100);
  for (auto [n, nrhs, nb] : {std::tuple{45, 7, 16}, {37, 20, 8}, {40, 1, 64}, {33, 13, 5}, {24, 24, 12}}) {
    const std::vector<double> A0 = gen_exp_spread(n * n, -20, 20, rng), B0 = gen_exp_spread(n * nrhs, -20, 20, rng);
    const solved want = on_arrays(n, nrhs, A0, B0);
    const std::string what = std::string(sched) + " n " + std::to_string(n) + " nrhs " + std::to_string(nrhs) +
                             " nb " + std::to_string(nb);
    for (char trans : {'N', 'T'}) {
      std::vector<double> a = A0, b = B0;
      exstar_desc dA = nullptr, dB = nullptr;
      REQUIRE(exstar_desc_create(&dA, n, n, nb, a.data(), n) == EXSTAR_SUCCESS);
      REQUIRE(exstar_desc_create(&dB, n, nrhs, nb, b.data(), n) == EXSTAR_SUCCESS);
      // all tasks, no wait between them
      REQUIRE(exstar_dgetrf_desc_insert(dA, nullptr) == EXSTAR_SUCCESS);
      REQUIRE(exstar_dgetrs_desc_insert(trans, dA, dB) == EXSTAR_SUCCESS);
      int64_t info = -1;
      REQUIRE(exstar_dgetrf_desc_info(dA, &info) == EXSTAR_SUCCESS);
      REQUIRE(exstar_desc_destroy(dB) == EXSTAR_SUCCESS);
      REQUIRE(exstar_desc_destroy(dA) == EXSTAR_SUCCESS);
      require_bits(a, want.f.A, what + " factors");
      require_bits(b, trans == 'N' ? want.X : want.XT, what + " getrs " + trans);
      if (trans == 'N') require_bits(b, want.Xgesv, what + " gesv");
    }
  }
}

TEST_CASE("getrs on descriptors over the caller's tiles, twice on the same factors", "[lu][desc][getrs]")
{
  session s("eager");
  Rng rng(8101);
  const int n = 30, nrhs = 11, nb = 8, mt = 4, nt = 2;
  const std::vector<double> A0 = gen_uniform(n * n, rng), B0 = gen_uniform(n * nrhs, rng),
                            B1 = gen_uniform(n * nrhs, rng);
  const solved want0 = on_arrays(n, nrhs, A0, B0), want1 = on_arrays(n, nrhs, A0, B1);
  // B as the caller's tiles (ld = rows + 3)
  std::vector<std::vector<double>> buf(mt * nt);
  std::vector<starpu_data_handle_t> h(mt * nt);
  for (int J = 0; J < nt; ++J)
    for (int I = 0; I < mt; ++I) {
      const int rows = std::min(nb, n - I * nb), cols = std::min(nb, nrhs - J * nb), ld = rows + 3;
      std::vector<double> &t = buf[I + J * mt];
      t.assign((size_t)ld * cols, std::nan(""));
      for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) t[i + j * ld] = B0[I * nb + i + (size_t)(J * nb + j) * n];
      starpu_matrix_data_register(&h[I + J * mt], STARPU_MAIN_RAM, (uintptr_t)t.data(), ld, rows, cols,
                                  sizeof(double));
    }
  std::vector<double> a = A0, b1 = B1;
  exstar_desc dA = nullptr, dB = nullptr, dB1 = nullptr;
  REQUIRE(exstar_desc_create(&dA, n, n, nb, a.data(), n) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create_tiles(&dB, n, nrhs, nb, h.data()) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create(&dB1, n, nrhs, nb, b1.data(), n) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrf_desc_insert(dA, nullptr) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrs_desc_insert('N', dA, dB) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrs_desc_insert('N', dA, dB1) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_destroy(dB1) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_destroy(dB) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_destroy(dA) == EXSTAR_SUCCESS);
  for (starpu_data_handle_t x : h) starpu_data_unregister(x); // still the caller's
  std::vector<double> b0((size_t)n * nrhs);
  for (int J = 0; J < nt; ++J)
    for (int I = 0; I < mt; ++I) {
      const int rows = std::min(nb, n - I * nb), cols = std::min(nb, nrhs - J * nb), ld = rows + 3;
      for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) b0[I * nb + i + (size_t)(J * nb + j) * n] = buf[I + J * mt][i + j * ld];
    }
  require_bits(b0, want0.X, "caller's tiles");
  require_bits(b1, want1.X, "second right-hand sides");
}

TEST_CASE("getrs on descriptors: bad arguments are EXSTAR_ERR_ARG naming the argument", "[lu][desc][getrs][errors]")
{
  session s("eager");
  std::vector<double> A(16 * 16, 1.0), R(16 * 16, 1.0), B(16 * 3, 1.0), C(12 * 3, 1.0);
  for (int i = 0; i < 16; ++i) A[i + i * 16] = 4.0, R[i + i * 16] = 4.0;
  exstar_desc dA = nullptr, dR = nullptr, dB = nullptr, dB8 = nullptr, dC = nullptr;
  REQUIRE(exstar_desc_create(&dA, 16, 16, 4, A.data(), 16) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create(&dR, 16, 12, 4, R.data(), 16) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create(&dB, 16, 3, 4, B.data(), 16) == EXSTAR_SUCCESS);
  REQUIRE(exstar_desc_create(&dB8, 16, 3, 8, B.data(), 16) == EXSTAR_SUCCESS); // never used by a task
  REQUIRE(exstar_desc_create(&dC, 12, 3, 4, C.data(), 12) == EXSTAR_SUCCESS);
  CHECK(exstar_dgetrs_desc_insert('N', dA, dB) == EXSTAR_ERR_ARG); // no LU yet
  CHECK(says("exstar_dgetrs_desc_insert: no LU was inserted on A"));
  REQUIRE(exstar_dgetrf_desc_insert(dA, nullptr) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgetrf_desc_insert(dR, nullptr) == EXSTAR_SUCCESS);
  CHECK(exstar_dgetrs_desc_insert('X', dA, dB) == EXSTAR_ERR_ARG);
  CHECK(says("trans = 'X'"));
  CHECK(exstar_dgetrs_desc_insert('N', nullptr, dB) == EXSTAR_ERR_ARG);
  CHECK(says("A is NULL"));
  CHECK(exstar_dgetrs_desc_insert('N', dA, nullptr) == EXSTAR_ERR_ARG);
  CHECK(says("B is NULL"));
  CHECK(exstar_dgetrs_desc_insert('N', dA, dA) == EXSTAR_ERR_ARG);
  CHECK(says("the same descriptor"));
  CHECK(exstar_dgetrs_desc_insert('N', dR, dB) == EXSTAR_ERR_ARG);
  CHECK(says("A is 16 x 12, not square"));
  CHECK(exstar_dgetrs_desc_insert('N', dA, dC) == EXSTAR_ERR_ARG);
  CHECK(says("B has 12 rows"));
  CHECK(exstar_dgetrs_desc_insert('N', dA, dB8) == EXSTAR_ERR_ARG);
  CHECK(says("B's tiles are 8 x 8, A's 4 x 4"));
  exstar_desc_destroy(dB8);
  // and it still works
  CHECK(exstar_dgetrs_desc_insert('N', dA, dB) == EXSTAR_SUCCESS);
  int64_t info = -1;
  CHECK(exstar_dgetrf_desc_info(dA, &info) == EXSTAR_SUCCESS);
  for (exstar_desc d : {dA, dR, dB, dC}) REQUIRE(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
}

TEST_CASE("C++ descriptors: exstar::desc, getrf_insert, info, getrs_insert give the C calls' bits", "[lu][desc][cpp]")
{
  session s("prio");
  Rng rng(8110);
  const int n = 41, nrhs = 9, nb = 12;
  const std::vector<double> A0 = gen_exp_spread(n * n, -10, 10, rng), B0 = gen_exp_spread(n * nrhs, -10, 10, rng);
  const solved want = on_arrays(n, nrhs, A0, B0);
  std::vector<double> a = A0, b = B0;
  std::vector<int32_t> ipiv((size_t)n, -1);
  {
    exstar::desc tmp(n, n, nb, a.data(), n);
    exstar::desc A = std::move(tmp); // move-only, the moved-from one empty
    CHECK(tmp.empty());
    CHECK(A.mt() == 4);
    CHECK(A.nt() == 4);
    CHECK(A.tile(3, 3) != nullptr);
    CHECK(A.tile(4, 0) == nullptr);
    exstar::desc B(n, nrhs, nb, b.data(), n);
    exstar::getrf_insert(A, ipiv.data());
    REQUIRE(A.ipiv() != nullptr);
    exstar::getrs_insert(A, B);
    const exstar::lu_status st = exstar::info(A);
    CHECK(st.ok());
    CHECK(ipiv == want.f.ipiv); // copied at info
    // errors throw exstar::error with the status
    std::vector<double> other(b.size(), 1.0);
    exstar::desc wrong(n, nrhs, 4, other.data(), n);
    try {
      exstar::getrs_insert('N', A, wrong);
      FAIL("no exception");
    } catch (const exstar::error &e) {
      CHECK(e.status() == EXSTAR_ERR_ARG);
      CHECK(std::string(e.what()).find("nb must be the same") != std::string::npos);
    }
    wrong.reset();
    CHECK(wrong.empty());
  } // B, then A destroyed: the arrays hold X and the factors
  require_bits(a, want.f.A, "C++ factors");
  require_bits(b, want.X, "C++ getrs");
  CHECK_THROWS_AS(exstar::desc(4, 4, 0, a.data(), 4), exstar::error);
}
