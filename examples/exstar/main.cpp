// exstar SUBCOMMAND [options] files...: the command-line face of the exstar library.
// main only dispatches; each subcommand lives in its own cmd_*.cpp file.
#include "cli.hpp"
#include "distributed.hpp"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <new>
#include <sys/resource.h>
#include <unistd.h>

namespace cli {

extern const Command cmd_sum, cmd_dot, cmd_nrm2, cmd_gen, cmd_gemv, cmd_trsv, cmd_gemm, cmd_trsm, cmd_getrf, cmd_gesv,
    cmd_potrf, cmd_posv, cmd_bench;

const std::vector<Command> &commands()
{
  static const std::vector<Command> all = {cmd_sum, cmd_dot, cmd_nrm2, cmd_gemv, cmd_trsv, cmd_gemm, cmd_trsm,
                                           cmd_getrf, cmd_gesv, cmd_potrf, cmd_posv, cmd_gen, cmd_bench};
  return all;
}

} // namespace cli

namespace {

using namespace cli;

void print_overview(FILE *f)
{
  std::fprintf(f, "usage: exstar SUBCOMMAND [options] files...\n\n"
                  "Exact, reproducible, correctly rounded linear algebra on StarPU (CPU, OpenCL, CUDA).\n"
                  "Files are MatrixMarket files, read into one dense column-major array:\n"
                  "  array       real|integer          general|symmetric|skew-symmetric\n"
                  "  coordinate  real|integer|pattern  general|symmetric|skew-symmetric (pattern: not skew)\n"
                  "Symmetric files hold the lower triangle (skew: strictly lower), mirrored above (negated\n"
                  "for skew, whose diagonal is +0: entries given there must be zero). Coordinate positions\n"
                  "never given are +0; pattern entries are 1. Duplicate coordinate entries are ADDED:\n"
                  "RN(exact sum of the values read), rounded once to nearest-even whatever their order\n"
                  "(1e16, 1, -1e16 give 1); an entry given once keeps its bits; finite duplicates that\n"
                  "overflow are an error. complex and hermitian files are refused. Outputs are always\n"
                  "'array real general', values written with %%.17g.\n\n"
                  "subcommands:\n");
  for (const Command &c : commands())
    std::fprintf(f, "  %-8s %s%s\n", c.name, c.summary, c.run ? "" : " (not available in this build)");
  std::fprintf(f, "\n'exstar SUBCOMMAND --help' describes one; 'exstar --version' prints the version.\n"
                  "Exit codes: 0 success, 1 failure (bad file, library error), 2 usage error,\n"
                  "3 getrf wrote the factors of a singular matrix.\n");
}

const Command *find_command(const std::string &name)
{
  for (const Command &c : commands())
    if (name == c.name) return &c;
  return nullptr;
}

bool wants_help(const std::vector<std::string> &args)
{
  for (const std::string &a : args) {
    if (a == "--") return false;
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

int usage_error(const char *where, const std::string &what)
{
  if (!cli::dist::root()) return EXIT_USAGE; // rank 0 says it once
  std::fprintf(stderr, "exstar: %s%s%s (see 'exstar %s%s--help')\n", where, *where ? ": " : "", what.c_str(), where,
               *where ? " " : "");
  return EXIT_USAGE;
}

int run_command(const Command &c, const std::vector<std::string> &args)
{
  if (wants_help(args)) {
    std::fputs(c.help().c_str(), stdout);
    return EXIT_OK;
  }
  if (!c.run) {
    std::fprintf(stderr, "exstar: %s: not available in this build\n", c.name);
    return EXIT_USAGE;
  }
  try {
    Args parsed(c.name, c.options(), args);
    check_runtime_args(parsed);
    return c.run(parsed);
  } catch (const UsageError &e) {
    return usage_error(c.name, e.what());
  }
}

int dispatch(int argc, char **argv)
{
  if (argc < 2) {
    print_overview(stderr);
    return EXIT_USAGE;
  }
  std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    if (argc == 2) {
      print_overview(stdout);
      return EXIT_OK;
    }
    const Command *c = find_command(argv[2]);
    if (!c) return usage_error("", std::string("unknown subcommand '") + argv[2] + "'");
    std::fputs(c->help().c_str(), stdout);
    return EXIT_OK;
  }
  if (first == "--version") {
    std::printf("exstar %d.%d.%d\n", EXSTAR_VERSION_MAJOR, EXSTAR_VERSION_MINOR, EXSTAR_VERSION_PATCH);
    return EXIT_OK;
  }
  const Command *c = find_command(first);
  if (!c) return usage_error("", (first[0] == '-' ? "unknown option '" : "unknown subcommand '") + first + "'");
  return run_command(*c, std::vector<std::string>(argv + 2, argv + argc));
}

// Whether this command line runs over all the processes of an mpirun (getrf, gesv) rather than
// on rank 0 alone (every other subcommand, help, --version, mistakes).
bool runs_distributed(int argc, char **argv)
{
  const Command *c = argc >= 2 ? find_command(argv[1]) : nullptr;
  return c && c->under_mpi == UnderMpi::distributed && !wants_help(std::vector<std::string>(argv + 2, argv + argc));
}

// body's exit code; nothing escapes: every failure is one line on stderr (from rank 0 alone
// under mpirun) and an exit code.
int guarded(const std::function<int()> &body)
{
  std::string message;
  try {
    return body();
  } catch (const cli::dist::Quiet &q) {
    return q.code;
  } catch (const Failure &e) {
    message = e.what();
  } catch (const std::bad_alloc &) {
    message = "out of memory";
  } catch (const std::exception &e) {
    message = std::string("internal error: ") + e.what();
  } catch (...) {
    message = "internal error (unknown exception)";
  }
  if (!message.empty() && cli::dist::root()) std::fprintf(stderr, "exstar: %s\n", message.c_str());
  return EXIT_FAIL;
}

// OpenBLAS starts its thread pool when it is loaded, before main, and each of its threads
// allocates a work buffer (128 MB) at once. Under a tight ulimit -v or -d that allocation fails,
// the thread keeps retrying, and exit() then waits for it forever: `gen matrix` hung after
// writing its output. The tool needs no OpenBLAS threads of its own (StarPU runs one task a
// worker, the plain LU sets one thread, bench sets its count itself), so under such a limit it
// starts again with OPENBLAS_NUM_THREADS=1, which OpenBLAS reads when it is loaded. execv
// returns only when it fails; the run then goes on as it is.
void one_blas_thread_under_limits(char **argv)
{
  if (std::getenv("OPENBLAS_NUM_THREADS")) return;
  struct rlimit as, data;
  const bool limited = (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) ||
                       (getrlimit(RLIMIT_DATA, &data) == 0 && data.rlim_cur != RLIM_INFINITY);
  if (!limited) return;
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  execv("/proc/self/exe", argv);
}

} // namespace

int main(int argc, char **argv)
{
  one_blas_thread_under_limits(argv);
  // Under mpirun every process starts and ends MPI (dist::start, dist::stop) and exits with
  // rank 0's code; a subcommand without a distributed form runs on rank 0 alone.
  int code = guarded([&] {
    cli::dist::start(&argc, &argv);
    return EXIT_OK;
  });
  const std::function<int()> run = [&] { return guarded([&] { return dispatch(argc, argv); }); };
  if (code == EXIT_OK) code = runs_distributed(argc, argv) ? run() : cli::dist::alone_on_root(run);
  cli::dist::stop();
  return code;
}
