// Subcommands registered before their library functions exist: 'exstar getrf' says
// "not available in this build" and exits 2 (main.cpp does that for run == nullptr).
// HOOK: when exstar_dgetrf / exstar_dgesv land in <exstar/lapack.h>, give each its own
// cmd_getrf.cpp / cmd_gesv.cpp (same shape as cmd_trsv.cpp) and delete its entry here.
#include "cli.hpp"

namespace cli {

namespace {

std::vector<OptSpec> no_options() { return {}; }

std::string getrf_help()
{
  return "usage: exstar getrf [options] A.mtx -o LU.mtx\n\n"
         "LU factorisation with partial pivoting (not available in this build yet).\n";
}

std::string gesv_help()
{
  return "usage: exstar gesv [options] A.mtx B.mtx -o X.mtx\n\n"
         "Solves A X = B by LU factorisation (not available in this build yet).\n";
}

std::string bench_help()
{
  return "usage: exstar bench [options]\n\n"
         "Times exstar against the plain baseline (not available in this build yet).\n";
}

} // namespace

extern const Command cmd_getrf, cmd_gesv, cmd_bench;
const Command cmd_getrf = {"getrf", "LU factorisation", getrf_help, no_options, nullptr};
const Command cmd_gesv = {"gesv", "solve A X = B", gesv_help, no_options, nullptr};
const Command cmd_bench = {"bench", "benchmarks against the plain baseline", bench_help, no_options, nullptr};

} // namespace cli
