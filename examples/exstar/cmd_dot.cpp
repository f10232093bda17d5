// exstar dot X.mtx Y.mtx: RN(sum of x_i * y_i), every product exact, rounded once.
#include "cli.hpp"
#include "baseline.hpp"
#include "memory.hpp"
#include "mmio.hpp"
#include "vector_scalar.hpp"

namespace cli {

namespace {

int run(const Args &args)
{
  args.expect_files(2, 2, "two vector files X.mtx Y.mtx");
  Matrix x = read_vector(args.files()[0], [&](int64_t r, int64_t c) {
    check_memory(args, "two vectors of " + std::to_string(r * c) + " entries", entries_bytes(r, c, 16),
                 !args.has("--plain"));
  });
  Matrix y = read_vector(args.files()[1], [&](int64_t r, int64_t c) { // not more than it may hold beside x
    check_memory(args, matrix_words(r, c), plus(entries_bytes(x.rows, 1), entries_bytes(r, c)), !args.has("--plain"));
  });
  expect_length(y, x.rows, "the length of " + x.file);
  double result = 0.0;
  if (args.has("--plain")) {
    note_plain("dot");
    result = plain_dot(x.values, y.values);
  } else {
    Session session(args);
    check(exstar_ddot(x.rows, x.values.data(), 1, y.values.data(), 1, &result));
  }
  print_scalar(result, args.has("--hex"));
  return EXIT_OK;
}

std::string help()
{
  return std::string(
             "usage: exstar dot [options] X.mtx Y.mtx\n\n"
             "Prints RN(x_1*y_1 + ... + x_n*y_n): the exact dot product of the vectors X and Y (same\n"
             "length), rounded once to nearest-even; the same bits on every back end, scheduler and\n"
             "number of workers.\n\n"
             "options:\n"
             "  --hex          print the result with %a (hexadecimal) instead of %.17g\n"
             "  --plain        baseline: a plain double loop in this tool (NOT reproducible in general,\n"
             "                 NOT correctly rounded); no StarPU involved\n") +
         runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_dot;
const Command cmd_dot = {"dot", "exact dot product of two vectors", help, scalar_options, run, UnderMpi::rank0};

} // namespace cli
