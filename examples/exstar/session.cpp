// The library session of one run: exstar_init from the runtime options, exstar_shutdown at the end.
#include "cli.hpp"
#include "distributed.hpp"
#ifdef EXSTAR_TOOL_HAVE_MPI
#include <exstar/mpi.h>
#endif
#include <cstdlib>
#include <sstream>

namespace cli {

namespace {

// "all" allows every back end present; a list names back ends that must exist.
void parse_backends(const std::string &text, exstar_config &cfg)
{
  if (text == "all") {
    cfg.backends = EXSTAR_BACKEND_ALL;
    cfg.require = 0;
    return;
  }
  unsigned mask = 0;
  std::string list = text;
  for (char &c : list)
    if (c == '+') c = ',';
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (item == "cpu") mask |= EXSTAR_BACKEND_CPU;
    else if (item == "opencl") mask |= EXSTAR_BACKEND_OPENCL;
    else if (item == "cuda") mask |= EXSTAR_BACKEND_CUDA;
    else throw UsageError("--backend: unknown back end '" + item + "' (cpu, opencl, cuda or all)");
  }
  if (mask == 0) throw UsageError("--backend: empty list");
  cfg.backends = mask;
  cfg.require = 1;
}

// StarPU only warns about a scheduler it does not know and runs its default one: a typo would
// silently change the run, so it is a usage error here, listing the names StarPU knows.
void check_sched(const std::string &name)
{
  std::string known;
  for (struct starpu_sched_policy **p = starpu_sched_get_predefined_policies(); *p; ++p) {
    if (!(*p)->policy_name) continue;
    if (name == (*p)->policy_name) return;
    known += (known.empty() ? "" : ", ") + std::string((*p)->policy_name);
  }
  throw UsageError("--sched: unknown scheduler '" + name + "' (known: " + known + ")");
}

} // namespace

void check_runtime_args(const Args &args)
{
  if (!args.has("--sched")) return;
  if (args.text("--sched").empty()) throw UsageError("--sched: empty name");
  check_sched(args.text("--sched"));
}

Session::Session(const Args &args)
{
  exstar_config cfg;
  exstar_config_default(&cfg);
  parse_backends(args.text("--backend", "all"), cfg);
  cfg.ncpus = (int)args.integer("--ncpus", -1, 0, 4096);
  std::string sched = args.text("--sched");
  cfg.sched = args.has("--sched") ? sched.c_str() : nullptr;
  check_runtime_args(args);
  // StarPU's banner and warnings would break "errors are one line on stderr".
  setenv("STARPU_SILENT", "1", 0);
#ifdef EXSTAR_TOOL_HAVE_MPI
  if (dist::active()) {
    check(exstar_mpi_init(nullptr, nullptr, &cfg)); // MPI itself runs since main (dist::start)
    return;
  }
#endif
  check(exstar_init(&cfg));
}

Session::~Session()
{
#ifdef EXSTAR_TOOL_HAVE_MPI
  if (dist::active()) {
    exstar_mpi_shutdown();
    return;
  }
#endif
  exstar_shutdown();
}

void check(int status)
{
  if (status == EXSTAR_SUCCESS) return;
  const char *msg = exstar_last_error();
  throw Failure(msg && *msg ? msg : exstar_status_name(status));
}

} // namespace cli
