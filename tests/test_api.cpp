// The public API's contracts: errors before submission, task insertion into a user's graph,
// the C++ layer.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <exstar/exstar.hpp>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace exstar_test;

TEST_CASE("calls before exstar_init fail with EXSTAR_ERR_NOT_INIT", "[api][errors]")
{
  double x = 1, r;
  CHECK(exstar_dsum(1, &x, 1, &r) == EXSTAR_ERR_NOT_INIT);
  CHECK(std::strlen(exstar_last_error()) > 0);
}

TEST_CASE("bad arguments are rejected with a message, nothing is submitted", "[api][errors]")
{
  session s;
  double x[4] = {1, 2, 3, 4}, r = 42;
  CHECK(exstar_ddot(-1, x, 1, x, 1, &r) == EXSTAR_ERR_ARG);
  CHECK(exstar_ddot(4, x, 0, x, 1, &r) == EXSTAR_ERR_ARG);
  CHECK(exstar_ddot(4, x, 1, nullptr, 1, &r) == EXSTAR_ERR_ARG);
  CHECK(exstar_dsum(4, x, 1, nullptr) == EXSTAR_ERR_ARG);
  CHECK(std::string(exstar_last_error()).find("result") != std::string::npos);
  CHECK(r == 42);
  starpu_data_handle_t h, acc;
  starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)x, 4, sizeof(double));
  REQUIRE(exstar_acc_register(&acc) == EXSTAR_SUCCESS);
  CHECK(exstar_dsum_insert(3, h, 2, 1, acc, 1) == EXSTAR_ERR_ARG); // past the end of the handle
  CHECK(exstar_ddot_insert(3, h, 0, 1, nullptr, 0, 1, acc, 1) == EXSTAR_ERR_ARG);
  exstar_acc_unregister(acc);
  starpu_data_unregister(h);
  CHECK(exstar_init(nullptr) == EXSTAR_ERR_ARG); // twice
}

TEST_CASE("empty reductions are +0", "[api]")
{
  session s;
  double r = -1;
  CHECK(exstar_dsum(0, nullptr, 1, &r) == EXSTAR_SUCCESS);
  CHECK(bits_of(r) == bits_of(0.0));
}

TEST_CASE("tasks inserted into one accumulator make one exact reduction of the user's handles", "[api][insert]")
{
  session s;
  Rng rng(3);
  std::vector<double> x = gen_exp_spread(1000, -100, 100, rng), y = gen_uniform(1000, rng);
  starpu_data_handle_t hx, hy, hr;
  double result = 0;
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x.data(), 1000, sizeof(double));
  starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y.data(), 1000, sizeof(double));
  starpu_variable_data_register(&hr, STARPU_MAIN_RAM, (uintptr_t)&result, sizeof(double));
  exstar::accumulator acc;
  // x·y as the dot of the first 400 elements plus the dot of the last 600, plus sum(x) - sum(x)
  REQUIRE(exstar_ddot_insert(400, hx, 0, 1, hy, 0, 1, acc.handle(), 2) == EXSTAR_SUCCESS);
  REQUIRE(exstar_ddot_insert(600, hx, 400, 1, hy, 400, 1, acc.handle(), 3) == EXSTAR_SUCCESS);
  acc.round_into(hr);
  starpu_data_unregister(hr);
  CHECK(same_bits(result, ref_dot(x, y)));
  starpu_data_unregister(hx);
  starpu_data_unregister(hy);
}

TEST_CASE("rounding leaves an accumulator's sum as it was; exstar_acc_zero_insert starts a new one", "[api][insert]")
{
  session s;
  Rng rng(5);
  std::vector<double> x = gen_exp_spread(500, -80, 80, rng), y = gen_uniform(500, rng);
  starpu_data_handle_t hx, hy, hr;
  double result = 0;
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x.data(), 500, sizeof(double));
  starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y.data(), 500, sizeof(double));
  starpu_variable_data_register(&hr, STARPU_MAIN_RAM, (uintptr_t)&result, sizeof(double));
  auto rounded = [&](exstar::accumulator &acc) {
    acc.round_into(hr);
    starpu_data_acquire(hr, STARPU_R);
    const double r = result;
    starpu_data_release(hr);
    return r;
  };
  const std::vector<double> x1(x.begin(), x.begin() + 200), y1(y.begin(), y.begin() + 200);
  const std::vector<double> x2(x.begin() + 200, x.end()), y2(y.begin() + 200, y.end());
  exstar::accumulator acc;
  REQUIRE(exstar_ddot_insert(200, hx, 0, 1, hy, 0, 1, acc.handle(), 2) == EXSTAR_SUCCESS);
  CHECK(same_bits(rounded(acc), ref_dot(x1, y1)));
  // the rounding did not reset it: the next insertion extends the same exact sum
  REQUIRE(exstar_ddot_insert(300, hx, 200, 1, hy, 200, 1, acc.handle(), 3) == EXSTAR_SUCCESS);
  CHECK(same_bits(rounded(acc), ref_dot(x, y)));
  // zeroed: a new sum of the second part alone
  acc.zero();
  REQUIRE(exstar_ddot_insert(300, hx, 200, 1, hy, 200, 1, acc.handle(), 3) == EXSTAR_SUCCESS);
  CHECK(same_bits(rounded(acc), ref_dot(x2, y2)));
  acc.zero(); // and empty: +0
  CHECK(bits_of(rounded(acc)) == bits_of(0.0));
  // arrays of accumulators are zeroed whole; other handles are refused
  starpu_data_handle_t accs;
  REQUIRE(exstar_accs_register(&accs, 4) == EXSTAR_SUCCESS);
  CHECK(exstar_acc_zero_insert(accs) == EXSTAR_SUCCESS);
  starpu_data_unregister(accs);
  CHECK(exstar_acc_zero_insert(hx) == EXSTAR_ERR_ARG);
  CHECK_THAT(std::string(exstar_last_error()), Catch::Contains("exstar_acc_zero_insert: acc is not an exstar accumulator"));
  CHECK(exstar_acc_zero_insert(nullptr) == EXSTAR_ERR_ARG);
  starpu_data_unregister(hr);
  starpu_data_unregister(hx);
  starpu_data_unregister(hy);
}

TEST_CASE("the C++ API throws exstar::error with the message", "[api][cpp]")
{
  session s;
  CHECK(exstar::dot({1.0, 2.0}, {3.0, 4.0}) == 11.0);
  CHECK(exstar::sum({0.1, 0.2, -0.3}) == ref_sum({0.1, 0.2, -0.3}));
  CHECK_THROWS_AS(exstar::dot({1.0}, {1.0, 2.0}), exstar::error);
  CHECK_THROWS_WITH(exstar::sum(-1, nullptr), Catch::Contains("n = -1"));
}

namespace {

// Sets (or with nullptr unsets) an environment variable for one test, restoring it afterwards.
class scoped_env {
public:
  scoped_env(const char *name, const char *value) : name_(name)
  {
    const char *old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~scoped_env()
  {
    if (had_) setenv(name_.c_str(), old_.c_str(), 1);
    else unsetenv(name_.c_str());
  }

private:
  std::string name_;
  bool had_ = false;
  std::string old_;
};

exstar_config cpu_config(const char *sched)
{
  exstar_config cfg;
  exstar_config_default(&cfg);
  cfg.backends = EXSTAR_BACKEND_CPU;
  cfg.sched = sched;
  return cfg;
}

std::string last_error();

// The scheduler of context 0, the one starpu_init creates.
std::string running_sched() { return starpu_sched_ctx_get_sched_policy(0)->policy_name; }

} // namespace

TEST_CASE("exstar_init refuses an unknown scheduler name and lists the known ones", "[api][errors][sched]")
{
  scoped_env env("STARPU_SCHED", nullptr);
  exstar_config cfg = cpu_config("nosuchsched");
  CHECK(exstar_init(&cfg) == EXSTAR_ERR_ARG);
  std::string msg = exstar_last_error();
  CHECK_THAT(msg, Catch::Contains("'nosuchsched'") && Catch::Contains("eager") && Catch::Contains("dmda"));
  CHECK_FALSE(starpu_is_initialized());
  CHECK(exstar_shutdown() == EXSTAR_ERR_NOT_INIT); // the failed init left nothing started
}

TEST_CASE("exstar_init refuses an unknown STARPU_SCHED", "[api][errors][sched]")
{
  scoped_env env("STARPU_SCHED", "nosuchsched");
  exstar_config cfg = cpu_config(nullptr);
  CHECK(exstar_init(&cfg) == EXSTAR_ERR_ARG);
  CHECK_THAT(std::string(exstar_last_error()), Catch::Contains("STARPU_SCHED='nosuchsched'"));
  CHECK_FALSE(starpu_is_initialized());
}

TEST_CASE("exstar_init refuses a worker count in the environment that is not one", "[api][errors]")
{
  for (const char *bad : {"abc", "-3", "2x", "99999999999"}) {
    scoped_env env("STARPU_NCPU", bad);
    exstar_config cfg = cpu_config(nullptr);
    CHECK(exstar_init(&cfg) == EXSTAR_ERR_ARG);
    CHECK_THAT(std::string(exstar_last_error()), Catch::Contains("STARPU_NCPU='" + std::string(bad) + "'"));
    CHECK_FALSE(starpu_is_initialized());
  }
  scoped_env env("STARPU_NCPU", "1"); // and a count that is one works
  exstar_config cfg = cpu_config(nullptr);
  REQUIRE(exstar_init(&cfg) == EXSTAR_SUCCESS);
  CHECK(exstar_worker_count(EXSTAR_BACKEND_CPU) == 1);
  exstar_shutdown();
}

TEST_CASE("the back-end mask wins over STARPU_NCPU: no CPU worker where the mask excludes them", "[api][env]")
{
  scoped_env env("STARPU_NCPU", "1");
  const bool require = GENERATE(false, true);
  for (unsigned mask : {unsigned(EXSTAR_BACKEND_OPENCL), unsigned(EXSTAR_BACKEND_CUDA)}) {
    const std::string name = mask == EXSTAR_BACKEND_OPENCL ? "opencl" : "cuda";
    INFO(name << " only, require = " << require);
    exstar_config cfg;
    exstar_config_default(&cfg);
    cfg.backends = mask;
    cfg.require = require;
    const int s = exstar_init(&cfg);
    if (s == EXSTAR_SUCCESS) { // the machine has that back end: it alone runs
      CHECK(exstar_worker_count(EXSTAR_BACKEND_CPU) == 0);
      CHECK(exstar_worker_count(mask) > 0);
      exstar_shutdown();
      continue;
    }
    // none: one error naming it, whether required or not (StarPU started no worker at all)
    CHECK(s == EXSTAR_ERR_NO_WORKER);
    CHECK_THAT(last_error(), Catch::Equals("back end '" + name + "' requested but StarPU found no " + name + " worker"));
    CHECK_FALSE(starpu_is_initialized());
  }
}

TEST_CASE("exstar_config.sched names the scheduler that runs", "[api][sched]")
{
  scoped_env env("STARPU_SCHED", nullptr);
  exstar_config cfg = cpu_config("dmda");
  REQUIRE(exstar_init(&cfg) == EXSTAR_SUCCESS);
  CHECK(running_sched() == "dmda");
  exstar_shutdown();
}

TEST_CASE("a known STARPU_SCHED wins over exstar_config.sched, as StarPU's rule says", "[api][sched]")
{
  scoped_env env("STARPU_SCHED", "eager");
  exstar_config cfg = cpu_config("dmda");
  REQUIRE(exstar_init(&cfg) == EXSTAR_SUCCESS);
  CHECK(running_sched() == "eager");
  exstar_shutdown();
}

TEST_CASE("exstar_init sets its StarPU defaults only where the user set nothing", "[api][env]")
{
  const char *names[] = {"STARPU_NWORKER_PER_CUDA", "STARPU_MINIMUM_CLEAN_BUFFERS", "STARPU_TARGET_CLEAN_BUFFERS"};
  const char *defaults[] = {"4", "0", "0"}; // four workers (streams) a GPU; no background write-backs
  const bool user = GENERATE(false, true);
  scoped_env a(names[0], user ? "2" : nullptr), b(names[1], user ? "5" : nullptr), c(names[2], user ? "10" : nullptr);
  exstar_config cfg = cpu_config(nullptr);
  REQUIRE(exstar_init(&cfg) == EXSTAR_SUCCESS);
  const char *mine[] = {"2", "5", "10"};
  for (int q = 0; q < 3; ++q) {
    INFO(names[q]);
    const char *v = std::getenv(names[q]);
    REQUIRE(v != nullptr);
    CHECK(std::string(v) == (user ? mine[q] : defaults[q]));
  }
  exstar_shutdown();
}

// ---- misuse of the C API (issue 24): the message names the argument and the call --------------

namespace {

// The last error's message, for Catch's output.
std::string last_error() { return exstar_last_error(); }
bool says(const std::string &what) { return last_error().find(what) != std::string::npos; }

} // namespace

TEST_CASE("exstar_dgesv and exstar_dgetrs name ldb and B, not lda and A", "[api][errors][lu]")
{
  session s;
  double A[16] = {4, 1, 0, 0, 1, 4, 1, 0, 0, 1, 4, 1, 0, 0, 1, 4}, B[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const double A_in[16] = {4, 1, 0, 0, 1, 4, 1, 0, 0, 1, 4, 1, 0, 0, 1, 4};
  int32_t ipiv[4] = {0, 0, 0, 0};
  int64_t info = -1;
  CHECK(exstar_dgesv(4, 2, A, 4, ipiv, B, 3, 0, &info) == EXSTAR_ERR_ARG);
  INFO(last_error());
  CHECK(says("exstar_dgesv: ldb = 3 < max(1, n) = 4"));
  CHECK_FALSE(says("lda"));
  CHECK(exstar_dgetrs('N', 4, 2, A, 4, ipiv, B, 3) == EXSTAR_ERR_ARG);
  CHECK(says("exstar_dgetrs: ldb = 3 < max(1, n) = 4"));
  CHECK(exstar_dgetrs('N', 4, 2, A, 3, ipiv, B, 4) == EXSTAR_ERR_ARG);
  CHECK(says("exstar_dgetrs: lda = 3 < max(1, n) = 4"));
  CHECK(exstar_dgesv(4, 2, A, 4, ipiv, nullptr, 4, 0, &info) == EXSTAR_ERR_ARG);
  CHECK(says("exstar_dgesv: B is NULL"));
  CHECK(exstar_dgetrs('N', 4, 2, A, 4, ipiv, nullptr, 4) == EXSTAR_ERR_ARG);
  CHECK(says("exstar_dgetrs: B is NULL"));
  CHECK(exstar_dgetrs('N', 4, 2, nullptr, 4, ipiv, B, 4) == EXSTAR_ERR_ARG);
  CHECK(says("exstar_dgetrs: LU is NULL"));
  CHECK(exstar_dgesv(4, -1, A, 4, ipiv, B, 4, 0, &info) == EXSTAR_ERR_ARG);
  CHECK(says("nrhs = -1"));
  // nothing was touched
  CHECK(std::memcmp(A, A_in, sizeof A) == 0);
  CHECK(info == -1);
  CHECK(B[0] == 1);
}

TEST_CASE("exstar_dgetrf signs its errors exstar_dgetrf, whichever graph runs it", "[api][errors][lu]")
{
  session s;
  double A[4] = {1, 2, 3, 4};
  int32_t ipiv[2];
  int64_t info = 0;
  const int64_t tile = GENERATE(0, -1, 1); // the default (tiled), the unblocked graph, tiles of 1
  exstar_set_lu_tile(tile);
  CHECK(exstar_dgetrf(2, 2, A, 1, ipiv, &info) == EXSTAR_ERR_ARG);
  INFO(last_error());
  CHECK(says("exstar_dgetrf: lda = 1 < max(1, m) = 2"));
  CHECK(exstar_dgetrf(2, 2, A, 2, nullptr, &info) == EXSTAR_ERR_ARG);
  CHECK(says("exstar_dgetrf: ipiv is NULL"));
  double S[4] = {1, 2, 2, 4}; // singular: u(1,1) == 0
  CHECK(exstar_dgetrf(2, 2, S, 2, ipiv, &info) == EXSTAR_ERR_SINGULAR);
  CHECK(info == 2);
  CHECK(says("exstar_dgetrf: u(1,1) is zero"));
  CHECK_FALSE(says("exstar_dgetrf_tiled"));
  CHECK(exstar_dgetrf_tiled(2, 2, A, 1, ipiv, &info, 0) == EXSTAR_ERR_ARG);
  CHECK(says("exstar_dgetrf_tiled: lda"));
  exstar_set_lu_tile(0);
}

TEST_CASE("exstar_dgetrf of 0 x 0 is LAPACK's: success, info = 0, nothing touched, info may be NULL",
          "[api][lu]")
{
  session s;
  CHECK(exstar_dgetrf(0, 0, nullptr, 1, nullptr, nullptr) == EXSTAR_SUCCESS);
  INFO(last_error());
  int64_t info = -7;
  CHECK(exstar_dgetrf(0, 0, nullptr, 1, nullptr, &info) == EXSTAR_SUCCESS);
  CHECK(info == 0);
  double A[3] = {1, 2, 3};
  info = -7;
  CHECK(exstar_dgetrf(3, 0, A, 3, nullptr, &info) == EXSTAR_SUCCESS); // m > 0, n == 0
  CHECK(info == 0);
  CHECK((A[0] == 1 && A[1] == 2 && A[2] == 3));
  CHECK(exstar_dgetrf_tiled(0, 5, nullptr, 1, nullptr, nullptr, 0) == EXSTAR_SUCCESS);
  CHECK(exstar_dgetrf_unblocked(0, 0, nullptr, 1, nullptr, nullptr) == EXSTAR_SUCCESS);
  CHECK(exstar_dgetrf_plain(0, 0, nullptr, 1, nullptr, nullptr) == EXSTAR_SUCCESS);
  // still checked: negative sizes and a bad lda, and info with work to do
  CHECK(exstar_dgetrf(-1, 0, nullptr, 1, nullptr, nullptr) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgetrf(0, 0, nullptr, 0, nullptr, nullptr) == EXSTAR_ERR_ARG);
  int32_t ipiv[1];
  CHECK(exstar_dgetrf(1, 1, A, 1, ipiv, nullptr) == EXSTAR_ERR_ARG);
  CHECK(says("exstar_dgetrf: info is NULL"));
}

TEST_CASE("exstar_desc_create_tiles names the index of the wrong tile", "[api][errors][tiles]")
{
  session s;
  // m = 16, n = 8, nb = 4: mt = 4, nt = 2; tile (3, 0) is missing, tile (2, 1) has a wrong shape
  std::vector<double> A(16 * 8, 1.0);
  std::vector<starpu_data_handle_t> tiles(8, nullptr);
  for (int J = 0; J < 2; ++J)
    for (int I = 0; I < 4; ++I)
      starpu_matrix_data_register(&tiles[I + J * 4], STARPU_MAIN_RAM, (uintptr_t)&A[(size_t)(I * 4 + J * 4 * 16)],
                                  16, 4, 4, sizeof(double));
  exstar_desc d = nullptr;
  starpu_data_handle_t keep = tiles[3];
  tiles[3] = nullptr;
  CHECK(exstar_desc_create_tiles(&d, 16, 8, 4, tiles.data()) == EXSTAR_ERR_ARG);
  INFO(last_error());
  CHECK(says("exstar_desc_create_tiles: tiles[3 + 0*mt] (tile (3, 0))"));
  CHECK_FALSE(says("tiles[I + J*mt]"));
  CHECK(d == nullptr);
  tiles[3] = keep;
  starpu_data_handle_t wrong;
  starpu_matrix_data_register(&wrong, STARPU_MAIN_RAM, (uintptr_t)A.data(), 16, 3, 4, sizeof(double));
  std::swap(tiles[2 + 1 * 4], wrong);
  CHECK(exstar_desc_create_tiles(&d, 16, 8, 4, tiles.data()) == EXSTAR_ERR_ARG);
  CHECK(says("tile (2, 1) is 3 x 4, expected 4 x 4"));
  std::swap(tiles[2 + 1 * 4], wrong);
  starpu_data_unregister(wrong);
  for (starpu_data_handle_t h : tiles) starpu_data_unregister(h);
}

TEST_CASE("exstar_dgetrf_desc_info on a descriptor with no LU inserted is EXSTAR_ERR_ARG", "[api][errors][tiles]")
{
  session s;
  std::vector<double> A = {4, 1, 1, 3};
  exstar_desc d = nullptr;
  REQUIRE(exstar_desc_create(&d, 2, 2, 1, A.data(), 2) == EXSTAR_SUCCESS);
  int64_t info = -7;
  CHECK(exstar_dgetrf_desc_info(d, &info) == EXSTAR_ERR_ARG);
  INFO(last_error());
  CHECK(says("exstar_dgetrf_desc_info: no LU was inserted on this descriptor"));
  CHECK(info == -7);
  // after an insertion it answers
  int32_t ipiv[2];
  REQUIRE(exstar_dgetrf_desc_insert(d, ipiv) == EXSTAR_SUCCESS);
  CHECK(exstar_dgetrf_desc_info(d, &info) == EXSTAR_SUCCESS);
  CHECK(info == 0);
  CHECK(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
  // an empty descriptor: its (empty) LU is inserted at once
  REQUIRE(exstar_desc_create(&d, 0, 0, 4, nullptr, 1) == EXSTAR_SUCCESS);
  CHECK(exstar_dgetrf_desc_info(d, &info) == EXSTAR_ERR_ARG);
  CHECK(exstar_dgetrf_desc_insert(d, nullptr) == EXSTAR_SUCCESS);
  CHECK(exstar_dgetrf_desc_info(d, &info) == EXSTAR_SUCCESS);
  CHECK(info == 0);
  CHECK(exstar_desc_destroy(d) == EXSTAR_SUCCESS);
}

TEST_CASE("calls after exstar_shutdown, or after the caller's starpu_shutdown, give EXSTAR_ERR_NOT_INIT",
          "[api][errors][init]")
{
  double x[2] = {1, 2}, r = 0;
  int64_t info = 0;
  {
    session s;
    CHECK(exstar_dsum(2, x, 1, &r) == EXSTAR_SUCCESS);
  }
  CHECK(exstar_dsum(2, x, 1, &r) == EXSTAR_ERR_NOT_INIT);
  CHECK(says("exstar_dsum: call exstar_init first"));
  CHECK(exstar_dgetrf(0, 0, nullptr, 1, nullptr, &info) == EXSTAR_ERR_NOT_INIT);
  CHECK(exstar_shutdown() == EXSTAR_ERR_NOT_INIT);
  {
    session s; // exstar_init started StarPU; the caller stops it under exstar
    REQUIRE(starpu_is_initialized());
    starpu_shutdown();
    REQUIRE_FALSE(starpu_is_initialized());
    CHECK(exstar_dsum(2, x, 1, &r) == EXSTAR_ERR_NOT_INIT);
    INFO(last_error());
    CHECK(says("exstar_dsum: StarPU was shut down"));
    starpu_data_handle_t acc = nullptr;
    CHECK(exstar_acc_register(&acc) == EXSTAR_ERR_NOT_INIT);
    CHECK(exstar_worker_count(EXSTAR_BACKEND_ALL) == 0);
  } // exstar_shutdown: only resets exstar
  session again;
  CHECK(exstar_dsum(2, x, 1, &r) == EXSTAR_SUCCESS);
  CHECK(r == 3);
}

// ---- handles larger than an OpenCL device's largest buffer (run with POCL_MEMORY_LIMIT=1) -------

namespace {

// exstar_init with these back ends (2 CPU workers when CPU is among them); false when the
// machine lacks one of them.
bool start(unsigned backends)
{
  exstar_config cfg;
  exstar_config_default(&cfg);
  cfg.backends = backends;
  cfg.require = 1;
  if (backends & EXSTAR_BACKEND_CPU) cfg.ncpus = 2;
  return exstar_init(&cfg) == EXSTAR_SUCCESS;
}

} // namespace

TEST_CASE("operands larger than the OpenCL devices' largest buffer run on the other workers, or are refused",
          "[.opencl_buffer]")
{
  if (!start(EXSTAR_BACKEND_OPENCL)) {
    WARN("SKIP: no OpenCL worker here");
    std::exit(77);
  }
  exstar_shutdown();
  const int64_t n = 6000; // 288 MB: beyond PoCL's 256 MB largest buffer under POCL_MEMORY_LIMIT=1
  Rng rng(41);
  const std::vector<double> A = gen_uniform((int)(n * n), rng), x = gen_uniform((int)n, rng);
  // the reference bits: CPU workers alone
  std::vector<double> y_cpu(n, 0.0), C_cpu((size_t)(n * n), 0.0), B_cpu = A;
  const double t[4] = {2.0, 0.5, 0.0, 4.0}; // 2 x 2 upper triangle for trsm side R
  REQUIRE(start(EXSTAR_BACKEND_CPU));
  REQUIRE(exstar_dgemv('N', n, n, 1.0, A.data(), n, x.data(), 1, 0.0, y_cpu.data(), 1) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dgemm('N', 'N', n, n, 1, 1.0, x.data(), n, x.data(), 1, 0.0, C_cpu.data(), n) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dtrsm('R', 'U', 'N', 'N', n * n / 2, 2, 1.0, t, 2, B_cpu.data(), n * n / 2) == EXSTAR_SUCCESS);
  exstar_shutdown();
  // CPU and OpenCL workers: the big tasks avoid the OpenCL worker (no StarPU abort), same bits
  REQUIRE(start(EXSTAR_BACKEND_CPU | EXSTAR_BACKEND_OPENCL));
  std::vector<double> y(n, 0.0), C((size_t)(n * n), 0.0), B = A;
  REQUIRE(exstar_dgemv('N', n, n, 1.0, A.data(), n, x.data(), 1, 0.0, y.data(), 1) == EXSTAR_SUCCESS);
  CHECK(y == y_cpu);
  REQUIRE(exstar_dgemm('N', 'N', n, n, 1, 1.0, x.data(), n, x.data(), 1, 0.0, C.data(), n) == EXSTAR_SUCCESS);
  CHECK(C == C_cpu);
  REQUIRE(exstar_dtrsm('R', 'U', 'N', 'N', n * n / 2, 2, 1.0, t, 2, B.data(), n * n / 2) == EXSTAR_SUCCESS);
  CHECK(B == B_cpu);
  exstar_shutdown();
  // OpenCL workers alone: one clear error, nothing submitted, where the device's largest buffer
  // is smaller than the operand (PoCL under POCL_MEMORY_LIMIT=1); a device whose buffers hold it
  // (NVIDIA's OpenCL) computes it, with the same bits
  REQUIRE(start(EXSTAR_BACKEND_OPENCL));
  std::fill(y.begin(), y.end(), 0.0);
  const int s = exstar_dgemv('N', n, n, 1.0, A.data(), n, x.data(), 1, 0.0, y.data(), 1);
  if (s == EXSTAR_SUCCESS) {
    WARN("this OpenCL device's largest buffer holds 288 MB: the operand ran there (no refusal to check)");
    CHECK(y == y_cpu);
  } else {
    CHECK(s == EXSTAR_ERR_NO_WORKER);
    CHECK(says("exstar_dgemv_insert: A (288 MB) is larger than the largest buffer of the OpenCL devices"));
    int64_t info = -1;
    CHECK(exstar_dtrsv('U', 'N', 'N', n, A.data(), n, y.data(), 1, &info) == EXSTAR_ERR_NO_WORKER);
    CHECK(says("T (288 MB) is larger than the largest buffer"));
  }
  exstar_shutdown();
}
