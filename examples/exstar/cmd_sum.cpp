// exstar sum X.mtx: RN(sum of the elements of X), exact then rounded once.
#include "cli.hpp"
#include "vector_scalar.hpp"

namespace cli {

namespace {

// The baseline: a left-to-right loop in double, rounding after every addition.
double plain_sum(const std::vector<double> &x)
{
  double s = 0.0;
  for (double v : x) s += v;
  return s;
}

int run(const Args &args) { return run_vector_scalar(args, "sum", plain_sum, exstar_dsum); }

std::string help()
{
  return std::string(
    "usage: exstar sum [options] X.mtx\n\n"
    "Prints RN(x_1 + ... + x_n): the exact sum of the vector X, rounded once to nearest-even;\n"
    "the same bits on every back end, scheduler and number of workers.\n\n"
    "options:\n"
    "  --hex          print the result with %a (hexadecimal) instead of %.17g\n"
    "  --plain        baseline: a plain double loop in this tool (NOT reproducible in general,\n"
    "                 NOT correctly rounded); no StarPU involved\n") +
         runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_sum;
const Command cmd_sum = {"sum", "exact sum of a vector", help, scalar_options, run, UnderMpi::rank0};

} // namespace cli
