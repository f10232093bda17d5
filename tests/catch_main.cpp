// Catch2 main of the StarPU tests: checks the requested back ends exist (else exit 77,
// a visible ctest SKIP), then runs the tests.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include "tests/exstar_env.hpp"
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace exstar_test {

unsigned test_backends()
{
  const char *env = std::getenv("EXSTAR_TEST_BACKENDS");
  std::string s = env && *env ? env : "cpu";
  unsigned mask = 0;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, '+');) {
    if (item == "cpu") mask |= EXSTAR_BACKEND_CPU;
    else if (item == "opencl") mask |= EXSTAR_BACKEND_OPENCL;
    else if (item == "cuda") mask |= EXSTAR_BACKEND_CUDA;
    else throw std::invalid_argument("EXSTAR_TEST_BACKENDS: unknown back end " + item);
  }
  return mask;
}

std::string backends_name(unsigned mask)
{
  std::string s;
  const char *names[] = {"cpu", "opencl", "cuda"};
  for (int i = 0; i < 3; ++i)
    if (mask & (1u << i)) s += (s.empty() ? "" : "+") + std::string(names[i]);
  return s;
}

const std::vector<std::string> &schedulers()
{
  static const std::vector<std::string> all = {"eager", "random", "ws", "lws", "dmda", "prio"};
  return all;
}

session::session(const char *sched, int ncpus)
{
  exstar_config cfg;
  exstar_config_default(&cfg);
  cfg.backends = test_backends();
  cfg.sched = sched;
  cfg.ncpus = ncpus;
  cfg.require = 1;
  int s = exstar_init(&cfg);
  if (s != EXSTAR_SUCCESS) throw std::runtime_error(std::string("exstar_init: ") + exstar_last_error());
}

session::~session() { exstar_shutdown(); }

} // namespace exstar_test

int main(int argc, char **argv)
{
  unsigned mask = exstar_test::test_backends();
  exstar_config cfg;
  exstar_config_default(&cfg);
  cfg.backends = mask;
  cfg.require = 1;
  int s = exstar_init(&cfg);
  if (s == EXSTAR_ERR_NO_WORKER) {
    std::printf("SKIP: %s (back ends %s)\n", exstar_last_error(), exstar_test::backends_name(mask).c_str());
    return 77;
  }
  if (s != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "exstar_init failed: %s\n", exstar_last_error());
    return 1;
  }
  std::printf("back ends under test: %s (%d workers)\n", exstar_test::backends_name(mask).c_str(),
              exstar_worker_count(mask));
  exstar_shutdown();
  return Catch::Session().run(argc, argv);
}
