// exstar gemv [--trans] [--alpha A] [--beta B] A.mtx X.mtx [Y.mtx] -o OUT.mtx:
// y_i := RN(alpha (op(A) x)_i + beta y_i), one rounding per entry.
#include "cli.hpp"
#include "baseline.hpp"
#include "memory.hpp"
#include "mmio.hpp"

namespace cli {

namespace {

std::vector<OptSpec> options()
{
  std::vector<OptSpec> o = runtime_options();
  for (const char *flag : {"--trans", "--plain"}) o.push_back({flag, false});
  for (const char *name : {"--alpha", "--beta", "-o"}) o.push_back({name, true});
  return o;
}

#if EXSTAR_TOOL_HAVE_DGEMV

int run(const Args &args)
{
  args.expect_files(2, 3, "A.mtx X.mtx [Y.mtx]");
  std::string out_path = args.output();
  check_outputs({{"-o", out_path}});
  bool trans = args.has("--trans");
  double alpha = args.real("--alpha", 1.0), beta = args.real("--beta", args.files().size() == 3 ? 1.0 : 0.0);
  const bool runtime = !args.has("--plain");
  // A, x, y (and y's input), and an exact accumulator (under 1 KB) a row of the result.
  Matrix a = read_matrix(args.files()[0], [&](int64_t r, int64_t c) {
    check_memory(args, matrix_words(r, c), plus(entries_bytes(r, c), entries_bytes(r + c, 1, runtime ? 1048 : 24)),
                 runtime);
  });
  // a vector file must not declare more than it may hold beside A
  const SizeCheck beside_a = [&](int64_t r, int64_t c) {
    check_memory(args, matrix_words(r, c), plus(entries_bytes(a.rows, a.cols), entries_bytes(r, c, 16)), runtime);
  };
  Matrix x = read_vector(args.files()[1], beside_a);
  int64_t nx = trans ? a.rows : a.cols, ny = trans ? a.cols : a.rows;
  expect_length(x, nx, std::string("the ") + (trans ? "rows" : "columns") + " of " + a.file);
  std::vector<double> y((size_t)ny, 0.0);
  if (args.files().size() == 3) {
    Matrix yin = read_vector(args.files()[2], beside_a);
    expect_length(yin, ny, std::string("the ") + (trans ? "columns" : "rows") + " of " + a.file);
    y = yin.values;
  }
  if (args.has("--plain")) {
    note_plain("gemv");
    plain_gemv(trans, a, alpha, x.values, beta, y);
  } else {
    Session session(args);
    int64_t lda = a.rows > 0 ? a.rows : 1;
    check(exstar_dgemv(trans ? 'T' : 'N', a.rows, a.cols, alpha, a.values.data(), lda, x.values.data(), 1, beta,
                       y.data(), 1));
  }
  OutputFile out(out_path);
  write_matrix(out, ny, 1, y);
  out.commit();
  return EXIT_OK;
}

#define EXSTAR_TOOL_GEMV_RUN run
#else
#define EXSTAR_TOOL_GEMV_RUN nullptr
#endif

std::string help()
{
  return std::string(
             "usage: exstar gemv [options] A.mtx X.mtx [Y.mtx] -o OUT.mtx\n\n"
             "Writes y := alpha op(A) x + beta y with one rounding per entry: each y_i is the exact\n"
             "value RN(alpha sum_j op(A)_ij x_j + beta y_i); the same bits on every back end.\n"
             "op(A) = A (m x n: X has n entries, Y m) or, with --trans, A^T (X has m, Y n).\n"
             "Without Y.mtx, y = 0 and beta defaults to 0; with it, beta defaults to 1.\n"
             "beta = 0 does not read y (a NaN there is ignored, as in BLAS).\n\n"
             "options:\n"
             "  -o FILE        the result vector (written only when the run succeeds)\n"
             "  --trans        use A^T\n"
             "  --alpha A      scalar alpha (default 1)\n"
             "  --beta B       scalar beta (default 1 with Y.mtx, 0 without)\n"
             "  --plain        baseline: plain double loops in this tool (NOT reproducible in\n"
             "                 general, NOT correctly rounded); no StarPU involved\n") +
         runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_gemv;
const Command cmd_gemv = {"gemv", "matrix-vector product, one rounding per entry", help, options,
                          EXSTAR_TOOL_GEMV_RUN, UnderMpi::rank0};

} // namespace cli
