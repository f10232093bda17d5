// exstar trsv --uplo L|U [--trans] [--unit] [--refine K] T.mtx B.mtx -o X.mtx: solves op(T) x = b
// by substitution, each x_i from an exact sum rounded once (then K refinement steps).
#include "cli.hpp"
#include "baseline.hpp"
#include "memory.hpp"
#include "mmio.hpp"

namespace cli {

namespace {

std::vector<OptSpec> options()
{
  std::vector<OptSpec> o = runtime_options();
  for (const char *flag : {"--trans", "--unit", "--plain"}) o.push_back({flag, false});
  for (const char *name : {"--uplo", "--refine", "-o"}) o.push_back({name, true});
  return o;
}

#if EXSTAR_TOOL_HAVE_DTRSV && EXSTAR_TOOL_HAVE_DTRSV_REFINED

char parse_uplo(const Args &args)
{
  if (!args.has("--uplo")) throw UsageError("missing --uplo L|U");
  std::string u = args.text("--uplo");
  if (u == "L" || u == "l") return 'L';
  if (u == "U" || u == "u") return 'U';
  throw UsageError("--uplo: expected L or U, got '" + u + "'");
}

int run(const Args &args)
{
  args.expect_files(2, 2, "T.mtx B.mtx");
  char uplo = parse_uplo(args);
  std::string out_path = args.output();
  check_outputs({{"-o", out_path}});
  bool trans = args.has("--trans"), unit = args.has("--unit");
  int steps = (int)args.integer("--refine", 0, 0, 1000);
  const bool runtime = !args.has("--plain");
  // T, b, x, and an exact accumulator (under 1 KB) and a state a row.
  Matrix t = read_matrix(args.files()[0], [&](int64_t r, int64_t c) {
    check_memory(args, matrix_words(r, c), plus(entries_bytes(r, c), entries_bytes(r, 1, runtime ? 1088 : 24)), runtime);
  });
  if (t.rows != t.cols)
    throw Failure(t.file + ":" + std::to_string(t.size_line) + ": expected a square matrix, got " +
                  std::to_string(t.rows) + "x" + std::to_string(t.cols));
  Matrix b = read_vector(args.files()[1], [&](int64_t r, int64_t c) { // not more than it may hold beside T
    check_memory(args, matrix_words(r, c), plus(entries_bytes(t.rows, t.cols), entries_bytes(r, c, 16)), runtime);
  });
  expect_length(b, t.rows, "the order of " + t.file);
  std::vector<double> x = b.values;
  if (args.has("--plain")) {
    if (steps > 0) throw UsageError("--plain has no --refine");
    note_plain("trsv");
    plain_trsv(uplo, trans, unit, t, x);
  } else {
    Session session(args);
    int64_t info = 0, ldt = t.rows > 0 ? t.rows : 1;
    char tr = trans ? 'T' : 'N', dg = unit ? 'U' : 'N';
    int s = steps > 0 ? exstar_dtrsv_refined(uplo, tr, dg, t.rows, t.values.data(), ldt, x.data(), 1, steps, &info)
                      : exstar_dtrsv(uplo, tr, dg, t.rows, t.values.data(), ldt, x.data(), 1, &info);
    if (s == EXSTAR_ERR_SINGULAR)
      throw Failure(t.file + ": singular: T(" + std::to_string(info) + "," + std::to_string(info) +
                    ") = 0 (1-based); no solution written");
    check(s);
  }
  OutputFile out(out_path);
  write_matrix(out, t.rows, 1, x);
  out.commit();
  return EXIT_OK;
}

#define EXSTAR_TOOL_TRSV_RUN run
#else
#define EXSTAR_TOOL_TRSV_RUN nullptr
#endif

std::string help()
{
  return std::string(
             "usage: exstar trsv --uplo L|U [options] T.mtx B.mtx -o X.mtx\n\n"
             "Solves op(T) x = b for a triangular T (n x n; only the triangle named by --uplo is\n"
             "read) by substitution: x_i := RN(RN(b_i - sum_j op(T)_ij x_j) / T_ii), the sum exact\n"
             "and rounded once; the same bits on every back end. A zero on the diagonal is an error\n"
             "(exit 1, nothing written).\n\n"
             "options:\n"
             "  --uplo L|U     which triangle of T holds the matrix (required)\n"
             "  -o FILE        the solution (written only when the run succeeds)\n"
             "  --trans        solve T^T x = b\n"
             "  --unit         unit diagonal (T_ii = 1, not read)\n"
             "  --refine K     K steps of iterative refinement: r := RN(b - op(T) x) (one rounding\n"
             "                 per entry), d := trsv(T, r), x := RN(x + d) (default 0)\n"
             "  --plain        baseline: plain double substitution in this tool (NOT reproducible\n"
             "                 in general); no StarPU involved\n") +
         runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_trsv;
const Command cmd_trsv = {"trsv", "triangular solve, each x_i from an exact sum", help, options,
                          EXSTAR_TOOL_TRSV_RUN, UnderMpi::rank0};

} // namespace cli
