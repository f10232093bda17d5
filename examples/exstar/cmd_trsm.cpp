// exstar trsm --side L|R --uplo L|U [--trans] [--unit] [--alpha A] T.mtx B.mtx -o X.mtx: solves
// op(T) X = alpha B (side L) or X op(T) = alpha B (side R); each column (row) is trsv's.
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
  for (const char *name : {"--side", "--uplo", "--alpha", "-o"}) o.push_back({name, true});
  return o;
}

char letter(const Args &args, const char *opt, char a, char b)
{
  if (!args.has(opt)) throw UsageError(std::string("missing ") + opt + " " + a + "|" + b);
  const std::string v = args.text(opt);
  if (v.size() == 1 && (v[0] == a || v[0] == a + 32)) return a;
  if (v.size() == 1 && (v[0] == b || v[0] == b + 32)) return b;
  throw UsageError(std::string(opt) + ": expected " + a + " or " + b + ", got '" + v + "'");
}

int run(const Args &args)
{
  args.expect_files(2, 2, "T.mtx B.mtx");
  const char side = letter(args, "--side", 'L', 'R'), uplo = letter(args, "--uplo", 'L', 'U');
  std::string out_path = args.output();
  check_outputs({{"-o", out_path}});
  const bool trans = args.has("--trans"), unit = args.has("--unit");
  const double alpha = args.real("--alpha", 1.0);
  const bool runtime = !args.has("--plain");
  // T, B, X, and the library's state of X's entries (32 bytes): before reading when the sizes
  // can be read first, else as each file is read.
  auto check_fits = [&](Shape st, Shape sb) {
    check_memory(args, matrix_words(st.rows, st.cols) + " and " + matrix_words(sb.rows, sb.cols),
                 plus(entries_bytes(st.rows, st.cols), entries_bytes(sb.rows, sb.cols, runtime ? 48 : 16)), runtime);
  };
  std::vector<Shape> shapes;
  if (declared_shapes(args, shapes)) check_fits(shapes[0], shapes[1]);
  Matrix t = read_matrix(args.files()[0], [&](int64_t r, int64_t c) { check_fits({r, c}, {0, 0}); });
  Matrix b = read_matrix(args.files()[1], [&](int64_t r, int64_t c) { check_fits({t.rows, t.cols}, {r, c}); });
  if (t.rows != t.cols)
    throw Failure(t.file + ":" + std::to_string(t.size_line) + ": expected a square matrix, got " +
                  std::to_string(t.rows) + "x" + std::to_string(t.cols));
  const int64_t need = side == 'L' ? b.rows : b.cols;
  if (need != t.rows)
    throw Failure(b.file + ":" + std::to_string(b.size_line) + ": B is " + std::to_string(b.rows) + "x" +
                  std::to_string(b.cols) + ", its " + (side == 'L' ? "rows" : "columns") + " must match the order of " +
                  t.file + " (" + std::to_string(t.rows) + ")");
  std::vector<double> x = b.values;
  if (args.has("--plain")) {
    note_plain("trsm");
    plain_trsm(side, uplo, trans, unit, alpha, t, b.rows, b.cols, x);
  } else {
    Session session(args);
    int s = exstar_dtrsm(side, uplo, trans ? 'T' : 'N', unit ? 'U' : 'N', b.rows, b.cols, alpha, t.values.data(),
                         t.rows > 0 ? t.rows : 1, x.data(), b.rows > 0 ? b.rows : 1);
    if (s == EXSTAR_ERR_SINGULAR) throw Failure(t.file + ": " + exstar_last_error() + "; no solution written");
    check(s);
  }
  OutputFile out(out_path);
  write_matrix(out, b.rows, b.cols, x);
  out.commit();
  return EXIT_OK;
}

std::string help()
{
  return std::string(
             "usage: exstar trsm --side L|R --uplo L|U [options] T.mtx B.mtx -o X.mtx\n\n"
             "Solves op(T) X = alpha B (--side L, T m x m) or X op(T) = alpha B (--side R, T n x n)\n"
             "for a triangular T (only the triangle named by --uplo is read). Every column (side L)\n"
             "or row (side R) of X is what 'exstar trsv' computes for it from alpha b:\n"
             "x_i := RN(RN(alpha b_i - sum_j op(T)_ij x_j) / T_ii), alpha b_i and every term exact;\n"
             "the same bits on every back end. A zero on the diagonal is an error (exit 1, nothing\n"
             "written).\n\n"
             "options:\n"
             "  --side L|R     T on the left or on the right of X (required)\n"
             "  --uplo L|U     which triangle of T holds the matrix (required)\n"
             "  -o FILE        the solution (written only when the run succeeds)\n"
             "  --trans        use T^T      --unit   unit diagonal (not read)\n"
             "  --alpha A      scalar alpha, one exact factor of B (default 1)\n"
             "  --plain        baseline: double substitution in this tool (NOT reproducible in\n"
             "                 general, NOT correctly rounded); no StarPU involved\n") +
         runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_trsm;
const Command cmd_trsm = {"trsm", "triangular solve with many right-hand sides, trsv's bits",
                          help, options, run, UnderMpi::rank0};

} // namespace cli
