// Command-line parsing: strict (unknown, repeated or malformed options are usage errors, exit 2).
#include "cli.hpp"
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace cli {

namespace {

const OptSpec *find_spec(const std::vector<OptSpec> &specs, const std::string &name)
{
  for (const OptSpec &s : specs)
    if (name == s.name) return &s;
  return nullptr;
}

bool looks_like_option(const std::string &a) { return a.size() > 1 && a[0] == '-'; }

} // namespace

Args::Args(std::string command, const std::vector<OptSpec> &specs, const std::vector<std::string> &argv)
    : command_(std::move(command))
{
  bool options_done = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string &a = argv[i];
    if (options_done || !looks_like_option(a)) {
      files_.push_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    // "--name=value" is the same as "--name value" for long options.
    size_t eq = a.rfind("--", 0) == 0 ? a.find('=') : std::string::npos;
    std::string name = a.substr(0, eq);
    const OptSpec *spec = find_spec(specs, name);
    if (!spec) throw UsageError("unknown option '" + name + "'");
    if (values_.count(name)) throw UsageError("option " + name + " given twice");
    if (!spec->takes_value) {
      if (eq != std::string::npos) throw UsageError("option " + name + " takes no value");
      values_[name] = "";
    } else if (eq != std::string::npos) {
      values_[name] = a.substr(eq + 1);
    } else {
      if (i + 1 >= argv.size()) throw UsageError("option " + name + " needs a value");
      values_[name] = argv[++i];
    }
  }
}

std::string Args::text(const std::string &name, const std::string &fallback) const
{
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

int64_t Args::integer(const std::string &name, int64_t fallback, int64_t lo, int64_t hi) const
{
  if (!has(name)) return fallback;
  const std::string &s = values_.at(name);
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    throw UsageError(name + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     "], got '" + s + "'");
  return v;
}

double Args::real(const std::string &name, double fallback) const
{
  if (!has(name)) return fallback;
  const std::string &s = values_.at(name);
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw UsageError(name + ": expected a finite number, got '" + s + "'");
  return v;
}

void Args::expect_files(size_t lo, size_t hi, const char *what) const
{
  size_t n = files_.size();
  if (n < lo || n > hi)
    throw UsageError(std::string("expects ") + what + ", got " + std::to_string(n) + " file" + (n == 1 ? "" : "s"));
}

std::string Args::output(const char *name) const
{
  if (!has(name) || text(name).empty()) throw UsageError(std::string("missing output file: ") + name + " FILE");
  return text(name);
}

std::vector<OptSpec> runtime_options()
{
  return {{"--backend", true}, {"--sched", true}, {"--ncpus", true}};
}

const char *const runtime_options_help =
    "  --backend B    StarPU workers to use: cpu, opencl, cuda (a list joined by ',' or '+'),\n"
    "                 or all (every back end present; the default). A named back end that\n"
    "                 this machine lacks is an error.\n"
    "  --sched NAME   StarPU scheduler (eager, random, ws, lws, dmda, prio, ...); a name\n"
    "                 StarPU does not know is a usage error listing the known ones. A set\n"
    "                 STARPU_SCHED wins (StarPU's rule); an unknown one is an error too\n"
    "  --ncpus N      number of CPU workers\n"
    "  --help         this help\n";

const char *const files_help =
    "\ninput files: MatrixMarket, read into one dense array ('exstar --help' has the details):\n"
    "  array real|integer general|symmetric|skew-symmetric, coordinate real|integer|pattern\n"
    "  general|symmetric|skew-symmetric. Duplicate coordinate entries are added: RN(exact sum).\n"
    "  Outputs are 'array real general' with %.17g.\n";

} // namespace cli
