// How much memory this process may still use, and the check the drivers make with it before
// their big allocations (see exstar_memory_available in exstar.h).
//
// Why check up front at all: a failed new/malloc in exstar's own code is an error return, but
// the big buffers of a factorization (GEMM-accumulate states, L's column copies, device copies)
// are allocated by StarPU when a task first touches them, in a worker thread, where a failure
// is a StarPU assertion (abort) or an endless wait for memory to be freed (a hang). Refusing a
// graph whose buffers cannot fit, before any task is submitted, turns those into
// EXSTAR_ERR_NOMEM.
#include "runtime/internal.h"
#include "runtime/memory.h"
#include "codelets/codelets.h"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/resource.h>

namespace {

const int64_t kUnknown = INT64_MAX;

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// "Key:   123 kB" of a /proc file, in bytes; -1 when absent.
int64_t proc_kb(const char *file, const char *key)
{
  std::ifstream in(file);
  const size_t len = std::strlen(key);
  for (std::string line; std::getline(in, line);)
    if (line.compare(0, len, key) == 0 && line.size() > len && line[len] == ':')
      return std::strtoll(line.c_str() + len + 1, nullptr, 10) * 1024;
  return -1;
}

// One number in a file (cgroup limits); -1 when absent or "max".
int64_t file_number(const std::string &path)
{
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return -1;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(word.c_str(), &end, 10);
  return (errno || end == word.c_str() || v < 0) ? -1 : (int64_t)v;
}

// The headroom under a resource limit, given what is already used of it.
int64_t rlimit_room(int resource, int64_t used)
{
  struct rlimit r;
  if (getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY || used < 0) return kUnknown;
  const int64_t limit = r.rlim_cur > (rlim_t)INT64_MAX ? INT64_MAX : (int64_t)r.rlim_cur;
  return limit > used ? limit - used : 0;
}

// The headroom of the memory cgroup at `dir` and every cgroup above it up to `root` (a parent's
// limit binds its children too): limit less usage, the smallest over the levels.
int64_t cgroup_room(const std::string &root, std::string dir, const char *limit_file, const char *usage_file)
{
  int64_t room = kUnknown;
  for (;;) {
    const int64_t limit = file_number(root + dir + "/" + limit_file);
    const int64_t usage = file_number(root + dir + "/" + usage_file);
    // v1 spells "no limit" as a huge page-rounded number: anything beyond 2^62 is none.
    if (limit >= 0 && limit < ((int64_t)1 << 62) && usage >= 0) room = min64(room, limit > usage ? limit - usage : 0);
    if (dir.empty() || dir == "/") break;
    const size_t slash = dir.find_last_of('/');
    dir = slash == std::string::npos || slash == 0 ? std::string() : dir.substr(0, slash);
  }
  return room;
}

// The process's memory cgroup (v2 "0::/path", v1 "N:...memory...:/path").
int64_t cgroups_room()
{
  std::ifstream in("/proc/self/cgroup");
  int64_t room = kUnknown;
  for (std::string line; std::getline(in, line);) {
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.compare(0, a, "0") == 0 && controllers.empty()) {
      room = min64(room, cgroup_room("/sys/fs/cgroup", path, "memory.max", "memory.current"));
      room = min64(room, cgroup_room("/sys/fs/cgroup/unified", path, "memory.max", "memory.current"));
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      room = min64(room, cgroup_room("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes"));
    }
  }
  return room;
}

std::string gigabytes(int64_t bytes)
{
  char buf[64];
  if (bytes >= 1000000000) std::snprintf(buf, sizeof buf, "%.1f GB", (double)bytes / 1e9);
  else std::snprintf(buf, sizeof buf, "%.0f MB", (double)bytes / 1e6 < 1 ? 1.0 : (double)bytes / 1e6);
  return buf;
}

} // namespace

void exstar_memory_room_get(exstar_memory_room *room)
{
  if (!room) return;
  // RLIMIT_AS counts the whole address space (VmSize); RLIMIT_DATA, since Linux 4.7, the
  // private writable mappings (VmData): heap, anonymous mmap, thread stacks.
  room->address_space = rlimit_room(RLIMIT_AS, proc_kb("/proc/self/status", "VmSize"));
  room->data = rlimit_room(RLIMIT_DATA, proc_kb("/proc/self/status", "VmData"));
  room->ram = cgroups_room();
  const int64_t avail = proc_kb("/proc/meminfo", "MemAvailable");
  if (avail >= 0) room->ram = min64(room->ram, avail);
}

int64_t exstar_memory_available(void)
{
  exstar_memory_room r;
  exstar_memory_room_get(&r);
  return min64(r.address_space, min64(r.data, r.ram));
}

namespace exstar_rt {

int64_t bytes_of(int64_t count, int64_t size)
{
  if (count <= 0 || size <= 0) return 0;
  return count > INT64_MAX / size ? INT64_MAX : count * size;
}

int64_t add_bytes(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

std::string format_bytes(int64_t bytes) { return gigabytes(bytes); }

int64_t tiled_lu_bytes(int64_t m, int64_t n, int64_t nb, bool with_states, int64_t count)
{
  const int64_t mn = bytes_of(m, n), kt = nb > 0 ? ((m < n ? m : n) + nb - 1) / nb : 0;
  // lcols, L's block columns (at most m x n doubles; the plain graph's updates read them too);
  // on an OpenCL node a second copy of the tiles and of them
  int64_t each = bytes_of(mn, 8), copy = bytes_of(mn, 16);
  if (with_states) { // states: 32 bytes an entry; perms: 2m int32 a panel
    each = add_bytes(each, bytes_of(mn, 32));
    each = add_bytes(each, bytes_of(bytes_of(m, 8), kt));
    copy = add_bytes(copy, bytes_of(mn, 32));
  }
  // An OpenCL device on the CPU (PoCL) holds its copies in this process's memory too.
  if (starpu_opencl_worker_get_count() > 0 && exstar_codelets_opencl_noncpu_device_count() == 0)
    each = add_bytes(each, copy);
  // StarPU's tasks and handles (about kt^2 / 2 tasks of a few KB).
  each = add_bytes(each, bytes_of(bytes_of(kt, kt), 4096));
  // Each CPU worker's panel work space (a gathered panel and its states, 40 bytes an entry) and
  // allocation slack, once whatever the number of matrices.
  const int64_t workers = starpu_cpu_worker_get_count();
  const int64_t once = add_bytes((int64_t)64 << 20, bytes_of(bytes_of(bytes_of(m, nb > 0 ? nb : 1), 40), workers));
  return add_bytes(once, bytes_of(each, count));
}

int check_memory(const char *who, int64_t need)
{
  const int64_t room = exstar_memory_available();
  if (need <= room) return EXSTAR_SUCCESS;
  return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory: needs about %s more; this process may use %s", who,
                          gigabytes(need).c_str(), gigabytes(room).c_str());
}

} // namespace exstar_rt
