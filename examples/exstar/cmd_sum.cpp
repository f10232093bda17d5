// exstar sum X.mtx: RN(sum of the elements of X), exact then rounded once.
#include "cli.hpp"
#include "memory.hpp"
#include "mmio.hpp"

namespace cli {

namespace {

std::vector<OptSpec> options()
{
  std::vector<OptSpec> o = runtime_options();
  o.push_back({"--plain", false});
  o.push_back({"--hex", false});
  return o;
}

// The baseline: a left-to-right loop in double, rounding after every addition.
double plain_sum(const std::vector<double> &x)
{
  double s = 0.0;
  for (double v : x) s += v;
  return s;
}

int run(const Args &args)
{
  args.expect_files(1, 1, "one vector file X.mtx");
  Matrix x = read_vector(args.files()[0], [&](int64_t r, int64_t c) {
    check_memory(args, matrix_words(r, c), entries_bytes(r, c), !args.has("--plain"));
  });
  double result = 0.0;
  if (args.has("--plain")) {
    note_plain("sum");
    result = plain_sum(x.values);
  } else {
    Session session(args);
    check(exstar_dsum(x.rows, x.values.data(), 1, &result));
  }
  print_scalar(result, args.has("--hex"));
  return EXIT_OK;
}

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
const Command cmd_sum = {"sum", "exact sum of a vector", help, options, run, UnderMpi::rank0};

} // namespace cli
