// The tool's memory check (memory.hpp).
#include "memory.hpp"
#include "cli.hpp"
#include "mmio.hpp"
#include <cstdio>
#include <unistd.h>

namespace cli {

namespace {

const int64_t MB = int64_t(1) << 20;

std::string amount(int64_t bytes)
{
  char buf[64];
  if (bytes >= 1000000000) std::snprintf(buf, sizeof buf, "%.1f GB", (double)bytes / 1e9);
  else std::snprintf(buf, sizeof buf, "%.0f MB", bytes < 1000000 ? 1.0 : (double)bytes / 1e6);
  return buf;
}

// Threads the library's start creates: a StarPU worker a CPU (--ncpus, else one a core), one
// for an OpenCL device, and the process's own.
int64_t runtime_threads(const Args &args)
{
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int64_t cpus = args.integer("--ncpus", -1, 0, 4096);
  if (cpus < 0) cpus = cores > 0 ? cores : 1;
  return cpus + 2;
}

} // namespace

int64_t plus(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

int64_t entries_bytes(int64_t rows, int64_t cols, int64_t bytes_each)
{
  if (rows <= 0 || cols <= 0) return 0;
  if (rows > INT64_MAX / cols || rows * cols > INT64_MAX / bytes_each) return INT64_MAX;
  return rows * cols * bytes_each;
}

bool declared_shapes(const Args &args, std::vector<Shape> &shapes)
{
  shapes.assign(args.files().size(), Shape());
  for (size_t i = 0; i < shapes.size(); ++i)
    if (!read_size(args.files()[i], &shapes[i].rows, &shapes[i].cols)) return false;
  return true;
}

std::string matrix_words(int64_t rows, int64_t cols)
{
  if (cols == 1) return "a vector of " + std::to_string(rows) + " entries";
  return "a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix";
}

int64_t lu_bytes(int64_t m, int64_t n, bool plain)
{
  const int64_t pivots = entries_bytes(m < n ? m : n, 1, 4);
  return plus(entries_bytes(m, n, plain ? 16 : 48), pivots);
}

void check_memory(const Args &args, const std::string &what, int64_t bytes, bool runtime)
{
  // What the library's start adds, by kind of limit (measured on Debian 12, StarPU 1.3, PoCL 3,
  // OpenBLAS with one thread, 2 CPU workers: exstar_init grows VmSize by about 670 MB, mostly
  // PoCL's LLVM and glibc's 64 MB malloc arena a thread, VmData by about 200 MB, the resident
  // set by about 100 MB); a margin on each.
  const int64_t threads = runtime ? runtime_threads(args) : 0;
  const int64_t start_as = runtime ? 400 * MB + 96 * MB * threads : 0;
  const int64_t start_data = runtime ? 160 * MB + 16 * MB * threads : 0;
  const int64_t start_ram = runtime ? 96 * MB + 8 * MB * threads : 0;
  // The tool's own slack (stdio buffers, the reader's lines, the writer's text).
  bytes = plus(bytes, 16 * MB);
  exstar_memory_room room;
  exstar_memory_room_get(&room);
  struct {
    int64_t need, room;
    const char *limit;
  } kinds[] = {{plus(bytes, start_as), room.address_space, "ulimit -v"},
               {plus(bytes, start_data), room.data, "ulimit -d"},
               {plus(bytes, start_ram), room.ram, "available memory"}};
  for (const auto &k : kinds)
    if (k.need > k.room)
      throw Failure(args.command() + " of " + what + " needs about " + amount(k.need) +
                    " of memory; this process may use " + amount(k.room) + " (" + k.limit +
                    "); nothing computed");
}

} // namespace cli
