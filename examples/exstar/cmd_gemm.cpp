// exstar gemm [--transa] [--transb] [--alpha A] [--beta B] A.mtx B.mtx [C.mtx] -o OUT.mtx:
// C := RN(alpha op(A) op(B) + beta C), one rounding per entry.
#include "cli.hpp"
#include "baseline.hpp"
#include "memory.hpp"
#include "mmio.hpp"

namespace cli {

namespace {

std::vector<OptSpec> options()
{
  std::vector<OptSpec> o = runtime_options();
  for (const char *flag : {"--transa", "--transb", "--plain"}) o.push_back({flag, false});
  for (const char *name : {"--alpha", "--beta", "-o"}) o.push_back({name, true});
  return o;
}

std::string shape(const Matrix &m) { return std::to_string(m.rows) + "x" + std::to_string(m.cols); }

int run(const Args &args)
{
  args.expect_files(2, 3, "A.mtx B.mtx [C.mtx]");
  std::string out_path = args.output();
  check_outputs({{"-o", out_path}});
  const bool ta = args.has("--transa"), tb = args.has("--transb");
  const bool with_c = args.files().size() == 3;
  const double alpha = args.real("--alpha", 1.0), beta = args.real("--beta", with_c ? 1.0 : 0.0);
  const bool runtime = !args.has("--plain");
  // A, B, C (and C's input), and the library's GEMM-accumulate state of C's entries (32 bytes);
  // checked before reading when the files' sizes can be read first, else as each is read.
  auto check_fits = [&](Shape sa, Shape sb) {
    const int64_t rows = ta ? sa.cols : sa.rows, cols = tb ? sb.rows : sb.cols;
    check_memory(args, matrix_words(sa.rows, sa.cols) + " by " + matrix_words(sb.rows, sb.cols),
                 plus(plus(entries_bytes(sa.rows, sa.cols), entries_bytes(sb.rows, sb.cols)),
                      entries_bytes(rows, cols, runtime ? 48 : 16)),
                 runtime);
  };
  std::vector<Shape> shapes;
  if (declared_shapes(args, shapes)) check_fits(shapes[0], shapes[1]);
  Matrix a = read_matrix(args.files()[0], [&](int64_t r, int64_t c) { check_fits({r, c}, {0, 0}); });
  Matrix b = read_matrix(args.files()[1], [&](int64_t r, int64_t c) { check_fits({a.rows, a.cols}, {r, c}); });
  const int64_t m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols;
  const int64_t kb = tb ? b.cols : b.rows, n = tb ? b.rows : b.cols;
  if (k != kb)
    throw Failure(b.file + ":" + std::to_string(b.size_line) + ": op(B) is " + std::to_string(kb) + "x" +
                  std::to_string(n) + ", but op(A) from " + a.file + " (" + shape(a) + ") has " + std::to_string(k) +
                  " columns");
  std::vector<double> c((size_t)(m * n), 0.0);
  if (with_c) {
    Matrix cin = read_matrix(args.files()[2]);
    if (cin.rows != m || cin.cols != n)
      throw Failure(cin.file + ":" + std::to_string(cin.size_line) + ": C is " + shape(cin) + ", expected " +
                    std::to_string(m) + "x" + std::to_string(n));
    c = cin.values;
  }
  if (args.has("--plain")) {
    note_plain("gemm");
    plain_gemm(ta, tb, a, b, alpha, beta, m, n, k, c);
  } else {
    Session session(args);
    check(exstar_dgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, a.values.data(), a.rows > 0 ? a.rows : 1,
                       b.values.data(), b.rows > 0 ? b.rows : 1, beta, c.data(), m > 0 ? m : 1));
  }
  OutputFile out(out_path);
  write_matrix(out, m, n, c);
  out.commit();
  return EXIT_OK;
}

std::string help()
{
  return std::string(
             "usage: exstar gemm [options] A.mtx B.mtx [C.mtx] -o OUT.mtx\n\n"
             "Writes C := alpha op(A) op(B) + beta C with one rounding per entry: each c_ij is the\n"
             "exact value RN(sum_l alpha op(A)_il op(B)_lj + beta c_ij), every term exact (gemv's\n"
             "rules entry by entry); the same bits on every back end, scheduler and tiling.\n"
             "Without C.mtx, C = 0 and beta defaults to 0; with it, beta defaults to 1.\n"
             "beta = 0 does not read C (a NaN there is ignored, as in BLAS).\n\n"
             "options:\n"
             "  -o FILE        the result matrix (written only when the run succeeds)\n"
             "  --transa       use A^T      --transb   use B^T\n"
             "  --alpha A      scalar alpha (default 1)\n"
             "  --beta B       scalar beta (default 1 with C.mtx, 0 without)\n"
             "  --plain        baseline: plain double loops in this tool (NOT reproducible in\n"
             "                 general, NOT correctly rounded); no StarPU involved\n") +
         runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_gemm;
const Command cmd_gemm = {"gemm", "matrix-matrix product, one rounding per entry", help, options, run, UnderMpi::rank0};

} // namespace cli
