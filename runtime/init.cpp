// exstar_init / exstar_shutdown: StarPU start-up with the requested back ends, OpenCL programs.
#include "runtime/internal.h"
#include "codelets/codelets.h"
#include "runtime/trace.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace {
bool exstar_started = false;  // exstar_init succeeded
bool owns_starpu = false;     // exstar started StarPU, so it shuts it down
int nparts_default = 0;

int workers_of(unsigned backends)
{
  int n = 0;
  if (backends & EXSTAR_BACKEND_CPU) n += starpu_cpu_worker_get_count();
  if (backends & EXSTAR_BACKEND_OPENCL) n += starpu_opencl_worker_get_count();
  if (backends & EXSTAR_BACKEND_CUDA) n += starpu_cuda_worker_get_count();
  return n;
}

const struct { unsigned bit; const char *name; } backend_kinds[] = {
    {EXSTAR_BACKEND_CPU, "cpu"}, {EXSTAR_BACKEND_OPENCL, "opencl"}, {EXSTAR_BACKEND_CUDA, "cuda"}};

// A requested back end without worker is an error when cfg->require is set.
int check_required(const exstar_config &cfg)
{
  for (const auto &k : backend_kinds)
    if ((cfg.backends & k.bit) && workers_of(k.bit) == 0)
      return exstar_set_error(EXSTAR_ERR_NO_WORKER, "back end '%s' requested but StarPU found no %s worker",
                              k.name, k.name);
  return EXSTAR_SUCCESS;
}

// Whether StarPU has a scheduler of that name. StarPU itself only warns about an unknown name
// and runs its default scheduler, so a typo would silently change how the run is scheduled.
bool known_sched(const char *name)
{
  for (struct starpu_sched_policy **p = starpu_sched_get_predefined_policies(); *p; ++p)
    if ((*p)->policy_name && std::strcmp((*p)->policy_name, name) == 0) return true;
  return false;
}

std::string known_scheds()
{
  std::string list;
  for (struct starpu_sched_policy **p = starpu_sched_get_predefined_policies(); *p; ++p)
    if ((*p)->policy_name) list += (list.empty() ? "" : ", ") + std::string((*p)->policy_name);
  return list;
}

// On a node with a CUDA device, when StarPU chooses the number of CPU workers, one core is left
// to the application's thread (StarPU's reserve_ncpus). Its CPU workers poll; with one on every
// core left by the CUDA worker, the thread that submits the graph and waits for it shares a core
// with a spinning worker, and each of its wake-ups waits for the OS to preempt one (H100 machine,
// LU n = 8192 on tiles at home on the GPU: 15 CPU workers + GPU 0.73 s, 14 CPU workers + GPU
// 0.67 s, GPU alone 0.63 s). The CPU workers add ~3% of the GPU's exact gemm rate: one fewer
// costs nothing measurable. STARPU_NCPU or STARPU_RESERVE_NCPU set by the user win.
void reserve_app_core(const exstar_config &cfg, struct starpu_conf *conf)
{
  const char *ncpu = getenv("STARPU_NCPU"), *reserve = getenv("STARPU_RESERVE_NCPU");
  if (conf->ncpus != -1 || conf->ncuda == 0 || (ncpu && *ncpu) || (reserve && *reserve)) return;
  if ((cfg.backends & EXSTAR_BACKEND_CUDA) && exstar_codelets_cuda_device_count() > 0) conf->reserve_ncpus = 1;
}

// The scheduler when neither cfg nor STARPU_SCHED names one: with GPUs, prio, which honours the
// priorities the factorizations put on their critical path (panels first); StarPU's default
// (lws) otherwise. H100, exact tiled LU n = 8192 from a host array (bench/results/h100-2026-11-27/
// sched): with exstar's default workers (the GPU's 4 streams and 14 CPU workers) prio 0.434 s,
// lws 0.476, eager 0.490, dmda 0.488, dmdas 0.446; the GPU alone prio 0.438, lws 0.449, eager
// 0.474, dmda 0.470, dmdas 0.458. On CPUs alone the LU's panel chain does not dominate and lws's
// work stealing keeps every core busy, so StarPU's choice stays.
void default_sched(const exstar_config &cfg, struct starpu_conf *conf)
{
  if (conf->ncuda == 0 || !(cfg.backends & EXSTAR_BACKEND_CUDA)) return;
  if (exstar_codelets_cuda_device_count() > 0) conf->sched_policy_name = "prio";
}

// Whether the worker count in environment variable `name` is unset, empty, or an integer >= -1
// (StarPU's -1: its own choice). StarPU itself aborts on "abc" or "-3".
int check_worker_env(const char *name)
{
  const char *v = getenv(name);
  if (!v || !*v) return EXSTAR_SUCCESS;
  char *end = nullptr;
  errno = 0;
  const long n = strtol(v, &end, 10);
  if (errno == 0 && *end == '\0' && n >= -1 && n <= 4096) return EXSTAR_SUCCESS;
  return exstar_set_error(EXSTAR_ERR_ARG, "exstar_init: %s='%s' is not a worker count (an integer >= 0, or -1 for "
                          "StarPU's choice)", name, v);
}

// On several GPUs, a CUDA worker launches its next task only when its last one ended
// (STARPU_CUDA_PIPELINE=1; StarPU's default 2). The tiled LU's chain hops from GPU to GPU at
// every step, and a ready task of it waited for a worker of its GPU whose pipeline of other
// columns' updates had room. 4 x H200, exact LU at home, nb = 512 (bench/results/
// h200x4-2026-11-28-s7): n = 32768 1.52 -> 1.33 s, 16384 0.387 -> 0.380 s. The user's setting wins.
void short_cuda_pipeline(const exstar_config &cfg, const struct starpu_conf *conf)
{
  if (!(cfg.backends & EXSTAR_BACKEND_CUDA) || conf->ncuda == 0) return;
  const int devices = exstar_codelets_cuda_device_count();
  const int used = conf->ncuda < 0 || conf->ncuda > devices ? devices : conf->ncuda;
  if (used > 1) setenv("STARPU_CUDA_PIPELINE", "1", 0);
}

// Validates cfg's scheduler (and STARPU_SCHED) and the worker counts in the environment, and
// fills conf from them.
int make_conf(const exstar_config &cfg, struct starpu_conf *conf)
{
  for (const char *name : {"STARPU_NCPU", "STARPU_NCPUS", "STARPU_NCUDA", "STARPU_NOPENCL", "STARPU_NWORKER_PER_CUDA"})
    if (int s = check_worker_env(name)) return s;
  // An empty STARPU_SCHED means unset, as for StarPU.
  const char *env = getenv("STARPU_SCHED");
  if (env && *env && !known_sched(env))
    return exstar_set_error(EXSTAR_ERR_ARG, "exstar_init: STARPU_SCHED='%s' is not a StarPU scheduler (known: %s)",
                            env, known_scheds().c_str());
  if (cfg.sched && !known_sched(cfg.sched))
    return exstar_set_error(EXSTAR_ERR_ARG, "exstar_init: unknown StarPU scheduler '%s' (known: %s)", cfg.sched,
                            known_scheds().c_str());
  // PoCL and other CPU OpenCL devices are OpenCL devices too.
  setenv("STARPU_OPENCL_ON_CPUS", "1", 0);
  // No background write-back of dirty device buffers. StarPU keeps 5-10% of a GPU's buffers
  // clean by copying dirty ones to main memory ahead of any eviction; in a factorization those
  // are mostly the states (scratch with no home, 4x the tiles' bytes), so it moved them over
  // PCIe beside the tiles and pinned host memory for them (H100, LU n = 8192 from a host array:
  // ~1 GB a run back to the host where the factors are 0.5 GB, 0.80 s; without: 0.60 s).
  // Eviction under memory pressure still writes back what it must. The user's setting wins.
  setenv("STARPU_MINIMUM_CLEAN_BUFFERS", "0", 0);
  setenv("STARPU_TARGET_CLEAN_BUFFERS", "0", 0);
  // Four workers share each GPU, a stream each: one tile's update (64 blocks of the exact
  // gemm at nb = 512) fills half an H100, and the panel path's kernels are latency-bound. H100,
  // tiled LU on the GPU, n = 8192 / 16384: one stream 0.527 / 2.86 s, two 0.423 / 1.96 s,
  // four 0.394 / 1.77 s, eight 0.391 / 1.76 s (same bits). The user's setting wins.
  setenv("STARPU_NWORKER_PER_CUDA", "4", 0);
  starpu_conf_init(conf);
  // The back-end mask wins over the environment: StarPU would otherwise let STARPU_NCPU start
  // CPU workers in a configuration that excludes them (OpenCL only with require = 1 started
  // CPU workers; CUDA only without a GPU ran on CPUs without a word). starpu_conf_init has read
  // every STARPU_* variable into conf, so with the configuration first, the counts of the back
  // ends in the mask still come from the environment when it sets them (StarPU's rule), and
  // every other setting is as before.
  conf->precedence_over_environment_variables = 1;
  // A count read from the environment (>= 0) wins over cfg's; -1 is StarPU's own choice. ncpus
  // -1 matters: StarPU-MPI reserves a core for its progression thread only then.
  auto count = [&](unsigned bit, int from_env, int from_cfg) {
    if (!(cfg.backends & bit)) return 0;
    return from_env != -1 ? from_env : from_cfg;
  };
  conf->ncpus = count(EXSTAR_BACKEND_CPU, conf->ncpus, cfg.ncpus);
  conf->nopencl = count(EXSTAR_BACKEND_OPENCL, conf->nopencl, cfg.nopencl);
  conf->ncuda = count(EXSTAR_BACKEND_CUDA, conf->ncuda, cfg.ncuda);
  reserve_app_core(cfg, conf);
  short_cuda_pipeline(cfg, conf);
  // A set STARPU_SCHED still wins over this name: StarPU's rule, environment over configuration.
  if (cfg.sched) conf->sched_policy_name = cfg.sched;
  else if (!(env && *env)) default_sched(cfg, conf);
  return EXSTAR_SUCCESS;
}

// The names of the back ends in mask: "cpu", "cpu, opencl", ...
std::string backend_names(unsigned mask)
{
  std::string names;
  for (const auto &k : backend_kinds)
    if (mask & k.bit) names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names;
}

int start_status(const exstar_config &cfg, int ret)
{
  // StarPU started no worker at all. With one back end requested this is the message a missing
  // back end gets after start-up (check_required); with several, name them.
  if (ret == -ENODEV) {
    const std::string names = backend_names(cfg.backends);
    if (names.find(',') == std::string::npos)
      return exstar_set_error(EXSTAR_ERR_NO_WORKER, "back end '%s' requested but StarPU found no %s worker",
                              names.c_str(), names.c_str());
    return exstar_set_error(EXSTAR_ERR_NO_WORKER, "StarPU found no worker for the requested back ends (%s)",
                            names.c_str());
  }
  if (ret != 0) return exstar_set_error(EXSTAR_ERR_STARPU, "starpu_init failed (%d)", ret);
  return EXSTAR_SUCCESS;
}

int start_starpu(const exstar_config &cfg)
{
  struct starpu_conf conf;
  if (int s = make_conf(cfg, &conf)) return s;
  if (int s = start_status(cfg, starpu_init(&conf))) return s;
  owns_starpu = true;
  return EXSTAR_SUCCESS;
}

// The user's configuration, defaults filled in, checked.
int resolve_config(const exstar_config *user_cfg, exstar_config &cfg)
{
  exstar_config_default(&cfg);
  if (user_cfg) cfg = *user_cfg;
  if (cfg.backends == 0 || (cfg.backends & ~EXSTAR_BACKEND_ALL))
    return exstar_set_error(EXSTAR_ERR_ARG, "exstar_init: invalid back end mask %#x", cfg.backends);
  return EXSTAR_SUCCESS;
}

// The rest of exstar_init once StarPU runs: required back ends, OpenCL programs.
int attach(const exstar_config &cfg)
{
  int s = cfg.require ? check_required(cfg) : EXSTAR_SUCCESS;
  char msg[4096] = "";
  if (s == EXSTAR_SUCCESS && exstar_codelets_opencl_load(getenv("EXSTAR_OPENCL_PATH"), msg, sizeof msg) != 0)
    s = exstar_set_error(EXSTAR_ERR_OPENCL, "%s", msg);
  if (s != EXSTAR_SUCCESS) return s;
  exstar_codelets_cuda_configure((unsigned)exstar_rt::gpu_worker_masks().size());
  exstar_rt::trace::start();
  exstar_started = true;
  return EXSTAR_SUCCESS;
}

} // namespace

void exstar_config_default(exstar_config *cfg)
{
  cfg->backends = EXSTAR_BACKEND_ALL;
  cfg->ncpus = -1;
  cfg->nopencl = -1;
  cfg->ncuda = -1;
  cfg->sched = nullptr;
  cfg->require = 0;
}

int exstar_init(const exstar_config *user_cfg)
{
  exstar_rt::clear_error();
  if (exstar_started) return exstar_set_error(EXSTAR_ERR_ARG, "exstar_init: already initialized");
  exstar_config cfg;
  if (int s = resolve_config(user_cfg, cfg)) return s;
  if (starpu_is_initialized()) {
    if (user_cfg) return exstar_set_error(EXSTAR_ERR_ARG, "exstar_init: StarPU already running; pass a NULL config");
  } else {
    int s = start_starpu(cfg);
    if (s) return s;
  }
  int s = attach(cfg);
  if (s != EXSTAR_SUCCESS && owns_starpu) starpu_shutdown(), owns_starpu = false;
  return s;
}

int exstar_shutdown(void)
{
  if (!exstar_started) return exstar_set_error(EXSTAR_ERR_NOT_INIT, "exstar_shutdown: not initialized");
  // after the caller's own starpu_shutdown there is nothing left to wait for or to stop
  if (starpu_is_initialized()) starpu_task_wait_for_all();
  exstar_rt::trace::write();
  exstar_codelets_opencl_unload(); // OpenCL objects, refcounted: valid after StarPU's end too
  if (owns_starpu && starpu_is_initialized()) starpu_shutdown();
  owns_starpu = false;
  exstar_started = false;
  return EXSTAR_SUCCESS;
}

int exstar_worker_count(unsigned backends)
{
  return exstar_started && starpu_is_initialized() ? workers_of(backends) : 0;
}

void exstar_set_default_nparts(int nparts) { nparts_default = nparts; }

namespace exstar_rt {

int init_with(const exstar_config *user_cfg, const std::function<int(struct starpu_conf *)> &start)
{
  clear_error();
  if (exstar_started) return exstar_set_error(EXSTAR_ERR_ARG, "exstar_init: already initialized");
  exstar_config cfg;
  if (int s = resolve_config(user_cfg, cfg)) return s;
  struct starpu_conf conf;
  if (int s = make_conf(cfg, &conf)) return s;
  if (int s = start_status(cfg, start(&conf))) return s;
  return attach(cfg); // the caller's start owns StarPU and stops it on failure
}

bool initialized() { return exstar_started; }

int require_init(const char *who)
{
  if (!exstar_started) return exstar_set_error(EXSTAR_ERR_NOT_INIT, "%s: call exstar_init first", who);
  // the caller stopped StarPU under exstar (starpu_shutdown): any task or handle would abort in it
  if (!starpu_is_initialized())
    return exstar_set_error(EXSTAR_ERR_NOT_INIT, "%s: StarPU was shut down (starpu_shutdown) after exstar_init; "
                            "call exstar_shutdown, then exstar_init", who);
  return EXSTAR_SUCCESS;
}

int default_nparts()
{
  int n = nparts_default > 0 ? nparts_default : (int)starpu_worker_get_count();
  return n > 0 ? n : 1;
}

bool env_switch(const char *name, bool dflt)
{
  const char *v = getenv(name);
  return v && (v[0] == '0' || v[0] == '1') ? v[0] == '1' : dflt;
}

} // namespace exstar_rt
