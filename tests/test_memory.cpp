// Memory limits (issue 24): what the process may use, EXSTAR_ERR_NOMEM before any buffer or task
// when a factorization cannot fit, and a CPU task's std::bad_alloc as an error, not an abort.
#include <catch2/catch.hpp>
#include "tests/exstar_env.hpp"
#include "codelets/glue.h"
#include <exstar/exstar.h>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace exstar_test;

namespace {

int64_t vm_size()
{
  FILE *f = std::fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmSize: %ld", &kb) == 1) break;
  if (f) std::fclose(f);
  return (int64_t)kb * 1024;
}

// RLIMIT_AS at the address space in use plus `room` bytes while it lives.
class address_limit {
public:
  explicit address_limit(int64_t room)
  {
    getrlimit(RLIMIT_AS, &old_);
    struct rlimit r = old_;
    r.rlim_cur = (rlim_t)(vm_size() + room);
    ok_ = setrlimit(RLIMIT_AS, &r) == 0;
  }
  ~address_limit() { setrlimit(RLIMIT_AS, &old_); }
  bool ok() const { return ok_; }

private:
  struct rlimit old_;
  bool ok_ = false;
};

void throws_bad_alloc(void **, void *) { throw std::bad_alloc(); }

} // namespace

TEST_CASE("exstar_memory_room_get sees ulimit -v; no limit is INT64_MAX", "[memory]")
{
  exstar_memory_room r;
  exstar_memory_room_get(&r);
  CHECK(r.ram > 0);
  CHECK(exstar_memory_available() <= r.ram);
  struct rlimit cur;
  getrlimit(RLIMIT_AS, &cur);
  if (cur.rlim_cur == RLIM_INFINITY) CHECK(r.address_space == INT64_MAX);
  {
    address_limit lim(64 << 20);
    REQUIRE(lim.ok());
    exstar_memory_room_get(&r);
    CHECK(r.address_space > (32 << 20));
    CHECK(r.address_space <= (64 << 20));
    CHECK(exstar_memory_available() <= (64 << 20));
  }
  exstar_memory_room_get(&r);
  CHECK(r.address_space > (64 << 20));
}

TEST_CASE("exstar_dgetrf, exstar_dgesv and a batch that cannot fit are EXSTAR_ERR_NOMEM before any task", "[memory][lu]")
{
  session s;
  const int64_t n = 1500; // the exact LU's states alone are 72 MB
  std::vector<double> a((size_t)(n * n)), b((size_t)n, 1.0);
  for (int64_t i = 0; i < n; ++i) a[(size_t)(i + i * n)] = 2.0;
  const std::vector<double> a0 = a;
  std::vector<int32_t> ipiv((size_t)n, -7);
  int64_t info = -1;
  {
    address_limit lim(16 << 20);
    REQUIRE(lim.ok());
    CHECK(exstar_dgetrf(n, n, a.data(), n, ipiv.data(), &info) == EXSTAR_ERR_NOMEM);
    const std::string msg = exstar_last_error();
    CHECK(msg.find("exstar_dgetrf: out of memory: needs about") == 0);
    CHECK(msg.find("this process may use") != std::string::npos);
    CHECK(exstar_dgesv(n, 1, a.data(), n, ipiv.data(), b.data(), n, 1, &info) == EXSTAR_ERR_NOMEM);
    CHECK(std::string(exstar_last_error()).find("exstar_dgesv: out of memory") == 0);
    double *as[2] = {a.data(), a.data()};
    int32_t *ps[2] = {ipiv.data(), ipiv.data()};
    int64_t infos[2] = {-1, -1};
    CHECK(exstar_dgetrf_batch(2, n, n, as, n, ps, infos) == EXSTAR_ERR_NOMEM);
    CHECK(std::string(exstar_last_error()).find("exstar_dgetrf_batch: out of memory") == 0);
  }
  CHECK(a == a0); // untouched
  CHECK(ipiv[0] == -7);
  // With the limit gone the call runs (on the leading 300 x 300 block: quicker).
  CHECK(exstar_dgetrf(300, 300, a.data(), n, ipiv.data(), &info) == EXSTAR_SUCCESS);
  CHECK(info == 0);
  CHECK(a[0] == 2.0);
}

TEST_CASE("a std::bad_alloc in a CPU task is a codelet error (EXSTAR_ERR_NOMEM), not an abort", "[memory]")
{
  session s;
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = exstar_cpu_guarded<throws_bad_alloc>;
  cl.nbuffers = 0;
  cl.name = "test_throws_bad_alloc";
  REQUIRE(starpu_task_insert(&cl, 0) == 0);
  starpu_task_wait_for_all();
  char msg[256] = "";
  CHECK(exstar_codelet_take_error(msg, sizeof msg) == EXSTAR_ERR_NOMEM);
  CHECK(std::string(msg) == "test_throws_bad_alloc: out of memory in a CPU task");
}
