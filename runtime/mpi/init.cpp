// exstar_mpi_init / exstar_mpi_shutdown: StarPU started through StarPU-MPI with exstar's
// configuration rules, the process grid and the tag counter shared by the drivers.
#include "runtime/mpi/internal.h"
#include "codelets/codelets.h"
#include "runtime/trace.h"
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sched.h>
#include <vector>

namespace {
bool mpi_started = false;
bool mpi_ours = false; // exstar_mpi_init called MPI_Init_thread, so exstar_mpi_shutdown finalizes
starpu_mpi_tag_t next_tag = EXSTAR_MPI_TAG_BASE;

// StarPU binds its workers and StarPU-MPI its progression thread to the first cores of the
// process's CPU set, knowing nothing of the other processes. When processes on one node share
// cores (mpirun --oversubscribe, --bind-to none or socket), every rank's worker lands on core 0
// and every progression thread on core 1: the spinning progression threads starve the workers
// of StarPU-MPI's progress lock (4 processes on 2 cores hung in 1 run of 12 under load). Then the
// threads are left to the OS, unless the user chose (STARPU_WORKERS_NOBIND / STARPU_MPI_NOBIND).
void unbind_if_cores_shared()
{
  MPI_Comm node;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS) return;
  int local = 1, me = 0;
  MPI_Comm_size(node, &local);
  MPI_Comm_rank(node, &me);
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) CPU_ZERO(&mine);
  std::vector<cpu_set_t> all((size_t)local);
  MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all.data(), (int)sizeof mine, MPI_BYTE, node);
  MPI_Comm_free(&node);
  bool shared = false;
  for (int r = 0; r < local; ++r) {
    cpu_set_t both;
    CPU_AND(&both, &all[(size_t)r], &mine);
    shared = shared || (r != me && CPU_COUNT(&both) > 0);
  }
  if (!shared) return;
  setenv("STARPU_WORKERS_NOBIND", "1", 0);
  setenv("STARPU_MPI_NOBIND", "1", 0);
}

// One process's exstar_init makes CPU OpenCL devices (PoCL) OpenCL workers
// (STARPU_OPENCL_ON_CPUS=1), and StarPU gives such a device's driver thread a core of its own.
// Under StarPU-MPI, whose progression thread takes another core, that left no CPU worker at all
// on a 2-core node (measured here: 2 cores, 1 process or 2: 0 CPU workers, 1 OpenCL), and the
// distributed LU's panels and copies run on CPU workers ('mpirun -np 2 exstar getrf' stopped
// with ENODEV). So here, when CPU workers may run, no OpenCL worker is started on a CPU OpenCL
// device (it would compete for the cores the CPU workers use, and every exstar codelet has a
// CPU implementation). They stay when the configuration names the OpenCL back end (require),
// asks for OpenCL workers (nopencl > 0) or excludes CPU workers, when the user set
// STARPU_OPENCL_ON_CPUS or STARPU_NOPENCL, and on nodes with an OpenCL GPU or accelerator.
//
// The device stays visible (no STARPU_OPENCL_ON_CPUS=0): StarPU's bus model records how many
// OpenCL devices it saw, and processes on one node that count differently recalibrate it in
// turn, one rewriting the files while another reads them (CI, 2 ranks, one with OpenCL workers
// alone: perfmodel_bus.c's assertion 'ret == 1', an abort). Starting no worker on it costs no
// core. Returns whether its workers are left out.
bool leave_out_cpu_opencl(const exstar_config *user_cfg)
{
  exstar_config cfg;
  exstar_config_default(&cfg);
  if (user_cfg) cfg = *user_cfg;
  if (!(cfg.backends & EXSTAR_BACKEND_CPU) || cfg.nopencl > 0) return false;
  if (cfg.require && (cfg.backends & EXSTAR_BACKEND_OPENCL)) return false;
  for (const char *name : {"STARPU_OPENCL_ON_CPUS", "STARPU_NOPENCL"}) {
    const char *set = getenv(name);
    if (set && *set) return false;
  }
  return exstar_codelets_opencl_noncpu_device_count() == 0;
}

// MPI at MPI_THREAD_MULTIPLE. The drivers agree on sizes and statuses with collectives from the
// calling thread while StarPU-MPI's progression thread communicates; StarPU-MPI alone would
// initialize MPI_THREAD_SERIALIZED, under which those concurrent calls are erroneous.
int start_mpi(int *argc, char ***argv)
{
  int ready = 0, done = 0, provided = MPI_THREAD_SINGLE;
  MPI_Finalized(&done);
  if (done) return exstar_set_error(EXSTAR_ERR_ARG, "exstar_mpi_init: MPI is already finalized");
  MPI_Initialized(&ready);
  if (ready) {
    MPI_Query_thread(&provided);
  } else {
    if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
      return exstar_set_error(EXSTAR_ERR_STARPU, "exstar_mpi_init: MPI_Init_thread failed");
    mpi_ours = true;
  }
  if (provided >= MPI_THREAD_MULTIPLE) {
    unbind_if_cores_shared();
    return EXSTAR_SUCCESS;
  }
  if (ready) // the application's MPI: its choice, so an argument error
    return exstar_set_error(EXSTAR_ERR_ARG,
                            "exstar_mpi_init: MPI was initialized at thread level %d; exstar needs "
                            "MPI_THREAD_MULTIPLE (%d): call MPI_Init_thread(..., MPI_THREAD_MULTIPLE, ...)",
                            provided, MPI_THREAD_MULTIPLE);
  return exstar_set_error(EXSTAR_ERR_STARPU, "exstar_mpi_init: this MPI offers thread level %d, not MPI_THREAD_MULTIPLE",
                          provided);
}

void stop_mpi()
{
  if (mpi_ours) MPI_Finalize();
  mpi_ours = false;
}
} // namespace

int exstar_mpi_init(int *argc, char ***argv, const exstar_config *cfg)
{
  if (mpi_started) return exstar_set_error(EXSTAR_ERR_ARG, "exstar_mpi_init: already initialized");
  if (int s = start_mpi(argc, argv)) {
    stop_mpi();
    return s;
  }
  bool starpu_up = false;
  const bool no_cpu_opencl = leave_out_cpu_opencl(cfg);
  int s = exstar_rt::init_with(cfg, [&](struct starpu_conf *conf) {
    if (no_cpu_opencl) conf->nopencl = 0;
    // StarPU-MPI reserves a core for its progression thread only when ncpus is StarPU's default.
    int ret = starpu_mpi_init_conf(argc, argv, 0, MPI_COMM_WORLD, conf);
    starpu_up = ret == 0;
    return ret;
  });
  if (s != EXSTAR_SUCCESS) {
    if (starpu_up) starpu_mpi_shutdown();
    stop_mpi();
    return s;
  }
  mpi_started = true;
  next_tag = EXSTAR_MPI_TAG_BASE;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  exstar_rt::trace::set_rank(rank); // EXSTAR_TRACE: a file a process
  return EXSTAR_SUCCESS;
}

int exstar_mpi_shutdown(void)
{
  if (!mpi_started) return exstar_set_error(EXSTAR_ERR_NOT_INIT, "exstar_mpi_shutdown: not initialized");
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  int s = exstar_shutdown(); // StarPU itself is StarPU-MPI's to stop
  starpu_mpi_shutdown();
  stop_mpi();
  mpi_started = false;
  return s;
}

int exstar_mpi_rank(void)
{
  int r = 0;
  if (mpi_started) starpu_mpi_comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int exstar_mpi_size(void)
{
  int n = 1;
  if (mpi_started) starpu_mpi_comm_size(MPI_COMM_WORLD, &n);
  return n;
}

void exstar_mpi_grid(int nranks, int *P, int *Q)
{
  int p = 1;
  for (int d = 1; d * d <= nranks; ++d)
    if (nranks % d == 0) p = d;
  *P = p;
  *Q = nranks > 0 ? nranks / p : 1;
}

int exstar_mpi_tile_owner(int64_t I, int64_t J, int P, int Q) { return (int)((I % P) * Q + (J % Q)); }

namespace exstar_mpi_rt {

starpu_mpi_tag_t take_tags(int64_t count)
{
  const starpu_mpi_tag_t first = next_tag;
  next_tag += count;
  return first;
}

int require_mpi(const char *who)
{
  return mpi_started ? EXSTAR_SUCCESS
                     : exstar_set_error(EXSTAR_ERR_NOT_INIT, "%s: call exstar_mpi_init first", who);
}

int agree(const char *who, int status)
{
  int worst = status;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (worst == status) return status;
  // Another process failed: say so here too, with its status (its message is its own).
  return exstar_set_error(worst, "%s: failed on another process (status %d)", who, worst);
}

int same_everywhere(const char *who, const int64_t *values, int count)
{
  std::vector<int64_t> lo(values, values + count), hi(values, values + count);
  MPI_Allreduce(values, lo.data(), count, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(values, hi.data(), count, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i)
    if (lo[i] != hi[i])
      return exstar_set_error(EXSTAR_ERR_ARG, "%s: the processes passed different sizes (argument %d: %lld .. %lld)",
                              who, i + 1, (long long)lo[i], (long long)hi[i]);
  return EXSTAR_SUCCESS;
}

int64_t default_tile(int64_t m, int64_t n)
{
  // exstar_default_tile depends on the process's workers (128 with CPU panels, 512 or 1024 with a
  // GPU's): processes that disagreed would build different grids of tiles.
  const int64_t size = exstar_mpi_size() > 0 ? exstar_mpi_size() : 1;
  int64_t mine = exstar_default_tile(m, n / size), all = mine;
  MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

int resolve_grid(const char *who, int *P, int *Q)
{
  const int size = exstar_mpi_size();
  if (*P == 0 && *Q == 0) exstar_mpi_grid(size, P, Q);
  if (*P < 1 || *Q < 1 || *P * *Q != size)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: the process grid %d x %d does not cover the %d processes", who, *P,
                            *Q, size);
  return EXSTAR_SUCCESS;
}

} // namespace exstar_mpi_rt
