// The library session of one run: exstar_init from the runtime options, exstar_shutdown at the end.
#include "cli.hpp"
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

} // namespace

Session::Session(const Args &args)
{
  exstar_config cfg;
  exstar_config_default(&cfg);
  parse_backends(args.text("--backend", "all"), cfg);
  cfg.ncpus = (int)args.integer("--ncpus", -1, 0, 4096);
  std::string sched = args.text("--sched");
  cfg.sched = args.has("--sched") ? sched.c_str() : nullptr;
  if (args.has("--sched") && sched.empty()) throw UsageError("--sched: empty name");
  // StarPU's banner and warnings would break "errors are one line on stderr".
  setenv("STARPU_SILENT", "1", 0);
  check(exstar_init(&cfg));
}

Session::~Session() { exstar_shutdown(); }

void check(int status)
{
  if (status == EXSTAR_SUCCESS) return;
  const char *msg = exstar_last_error();
  throw Failure(msg && *msg ? msg : exstar_status_name(status));
}

} // namespace cli
