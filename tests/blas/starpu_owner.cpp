// Who starts and stops StarPU under libexstar_blas (blas/init.cpp):
//   starpu_owner program  the program runs StarPU itself: the library attaches, and StarPU is
//                         still running after the calls (the program stops it);
//   starpu_owner library  the library starts StarPU on the first call and stops it at exit;
//   starpu_owner threads  8 threads make their first calls at once: one start, the same bits;
//   starpu_owner fork     a child of fork() (no StarPU threads) gets the parent's bits and exits.
// Every call goes through StarPU (exstar_blas_set_small(0)). Exit 0 when all holds.
#include <starpu.h>
#include "blas/exstar_blas.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern "C" void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
                       const double *, const int *, const double *, const int *, const double *, double *,
                       const int *, size_t, size_t);

namespace {

std::vector<double> product(int n)
{
  std::vector<double> A((size_t)n * n), B((size_t)n * n), C((size_t)n * n, 0.0);
  for (int i = 0; i < n * n; ++i) A[(size_t)i] = 1.0 / (i + 1), B[(size_t)i] = (i % 7) - 3.0 + 1.0 / 3.0;
  const double one = 1.0, zero = 0.0;
  dgemm_("N", "T", &n, &n, &n, &one, A.data(), &n, B.data(), &n, &zero, C.data(), &n, 1, 1);
  return C;
}

int fail(const char *what)
{
  std::fprintf(stderr, "starpu_owner: %s\n", what);
  return 1;
}

} // namespace

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  exstar_blas_set_small(0);
  if (!std::strcmp(mode, "program")) {
    if (starpu_init(nullptr) != 0) return 77;
    const std::vector<double> c = product(40);
    if (!starpu_is_initialized()) return fail("StarPU stopped under the program");
    const std::vector<double> d = product(40);
    if (c != d) return fail("two calls differ");
    starpu_shutdown(); // the program's to stop; the library must not have stopped it
    return 0;
  }
  if (!std::strcmp(mode, "library")) {
    if (starpu_is_initialized()) return fail("StarPU running before the first call");
    product(40);
    if (!starpu_is_initialized()) return fail("the first call did not start StarPU");
    return 0; // the library stops StarPU at exit (atexit); a crash there fails the test
  }
  if (!std::strcmp(mode, "threads")) {
    std::vector<std::vector<double>> r(8);
    std::vector<std::thread> t;
    for (int k = 0; k < 8; ++k) t.emplace_back([&r, k] { r[(size_t)k] = product(40); });
    for (auto &x : t) x.join();
    for (int k = 1; k < 8; ++k)
      if (r[(size_t)k] != r[0]) return fail("threads' results differ");
    return 0;
  }
  if (!std::strcmp(mode, "fork")) {
    const std::vector<double> c = product(40); // StarPU running in the parent
    const pid_t pid = fork();
    if (pid == 0) std::exit(product(40) == c ? 0 : 3); // exit(): the atexit handlers run too
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return fail("fork/waitpid");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return fail("the child's result differs or it failed");
    return product(40) == c ? 0 : fail("the parent's later call differs");
  }
  return fail("usage: starpu_owner program|library|threads|fork");
}
