// The graphs' timeline for measurements (runtime/trace.h). Off unless EXSTAR_TRACE is set: then
// StarPU profiles every task (a few microseconds each) and the graphs' tasks call done().
#include "runtime/trace.h"
#include <starpu.h>
#include <starpu_profiling.h>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct record {
  const char *name;
  int64_t m, K, J;
  int worker;
  double start_us, end_us;
};

std::mutex lock;
std::vector<record> records;

const char *path()
{
  static const char *p = getenv("EXSTAR_TRACE");
  return p && *p ? p : nullptr;
}
int rank = -1; // -1: one process, the file is EXSTAR_TRACE itself

double us(const struct timespec &t) { return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3; }

} // namespace

bool exstar_rt::trace::wanted() { return path() != nullptr; }

void exstar_rt::trace::start()
{
  if (wanted()) starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
}

// m below 2^24, K and J below 2^20: packed into the pointer, no allocation a task.
void *exstar_rt::trace::tag(int64_t m, int64_t K, int64_t J)
{
  return (void *)(uintptr_t)(((uint64_t)m << 40) | ((uint64_t)K << 20) | (uint64_t)J);
}

void exstar_rt::trace::done(void *t)
{
  struct starpu_task *task = starpu_task_get_current();
  if (!task || !task->profiling_info) return;
  const uint64_t v = (uint64_t)(uintptr_t)t, mask = (1u << 20) - 1;
  const starpu_profiling_task_info *p = task->profiling_info;
  record r{task->name ? task->name : "?", (int64_t)(v >> 40), (int64_t)((v >> 20) & mask), (int64_t)(v & mask),
           p->workerid, us(p->start_time), us(p->end_time)};
  std::lock_guard<std::mutex> g(lock);
  records.push_back(r);
}

void exstar_rt::trace::set_rank(int r) { rank = r; }

void exstar_rt::trace::write()
{
  if (!wanted()) return;
  std::lock_guard<std::mutex> g(lock);
  std::string name = path();
  if (rank >= 0) name += "." + std::to_string(rank);
  FILE *f = std::fopen(name.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "exstar: EXSTAR_TRACE: cannot write %s\n", name.c_str());
    return;
  }
  std::fprintf(f, "name,m,K,J,worker,device,start_us,end_us\n");
  for (const record &r : records) {
    const int dev = r.worker >= 0 && starpu_worker_get_type(r.worker) == STARPU_CUDA_WORKER ? starpu_worker_get_devid(r.worker) : -1;
    std::fprintf(f, "%s,%lld,%lld,%lld,%d,%d,%.1f,%.1f\n", r.name, (long long)r.m, (long long)r.K, (long long)r.J, r.worker,
                 dev, r.start_us, r.end_us);
  }
  std::fclose(f);
  records.clear();
}
