// Test environment of the StarPU tests: which back ends a test program runs on, read from
// EXSTAR_TEST_BACKENDS ("cpu", "opencl", "cuda" joined by '+'; default "cpu"). catch_main.cpp
// exits 77 (ctest: skipped) when StarPU finds no worker for one of them.
#pragma once
#include <exstar/exstar.h>
#include <string>
#include <vector>

namespace exstar_test {

unsigned test_backends();                 // the EXSTAR_BACKEND_* mask under test
std::string backends_name(unsigned mask); // "cpu+opencl"
const std::vector<std::string> &schedulers(); // eager random ws lws dmda prio

// exstar_init for the back ends under test with a scheduler and a CPU worker count (-1:
// StarPU's default); ends the session when destroyed.
class session {
public:
  session(const char *sched = nullptr, int ncpus = -1);
  ~session();
  session(const session &) = delete;
  session &operator=(const session &) = delete;
};

} // namespace exstar_test
