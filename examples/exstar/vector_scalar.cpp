// What 'exstar sum', 'nrm2' and 'dot' share (vector_scalar.hpp).
#include "vector_scalar.hpp"
#include "memory.hpp"
#include "mmio.hpp"

namespace cli {

std::vector<OptSpec> scalar_options()
{
  std::vector<OptSpec> o = runtime_options();
  o.push_back({"--plain", false});
  o.push_back({"--hex", false});
  return o;
}

int run_vector_scalar(const Args &args, const char *name, double (*plain)(const std::vector<double> &),
                      int (*exact)(int64_t, const double *, int64_t, double *))
{
  args.expect_files(1, 1, "one vector file X.mtx");
  Matrix x = read_vector(args.files()[0], [&](int64_t r, int64_t c) {
    check_memory(args, matrix_words(r, c), entries_bytes(r, c), !args.has("--plain"));
  });
  double result = 0.0;
  if (args.has("--plain")) {
    note_plain(name);
    result = plain(x.values);
  } else {
    Session session(args);
    check(exact(x.rows, x.values.data(), 1, &result));
  }
  print_scalar(result, args.has("--hex"));
  return EXIT_OK;
}

} // namespace cli
