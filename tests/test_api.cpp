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
