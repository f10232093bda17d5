// exstar gesv A.mtx B.mtx -o X.mtx [--refine K]: solves A X = B by the exact LU (exstar_dgesv),
// every entry of the factors and of each substitution correctly rounded, then K refinement steps.
#include "cli.hpp"
#include "distributed.hpp"
#include "lu.hpp"
#include "memory.hpp"
#include "mmio.hpp"
#include "progress.hpp"

namespace cli {

namespace {

std::vector<OptSpec> options()
{
  std::vector<OptSpec> o = runtime_options();
  for (const char *flag : {"--plain", "--unblocked"}) o.push_back({flag, false});
  for (const char *name : {"--refine", "-o", "--nb"}) o.push_back({name, true});
  return o;
}

int run(const Args &args)
{
  args.expect_files(2, 2, "A.mtx B.mtx");
  std::string out_path = args.output();
  bool plain = args.has("--plain");
  int steps = (int)args.integer("--refine", 0, 0, 1000);
  if (plain && steps > 0) throw UsageError("--plain has no --refine");
  if (dist::active() && (plain || args.has("--unblocked")))
    throw UsageError("--plain and --unblocked have no distributed gesv (mpirun)");
  Matrix a, b;
  dist::on_root([&] {
    check_outputs({{"-o", out_path}});
    // The LU's memory, a copy of A for --refine, B and the solve's two copies of it.
    auto need = [&](int64_t n, int64_t nrhs) {
      int64_t bytes = plus(lu_bytes(n, n, plain || args.has("--unblocked")), entries_bytes(n, nrhs, 24));
      return steps > 0 ? plus(bytes, entries_bytes(n, n)) : bytes;
    };
    auto check_fits = [&](Shape sa, Shape sb) {
      std::string what = matrix_words(sa.rows, sa.cols);
      if (sb.cols > 0) what += " and " + std::to_string(sb.cols) + (sb.cols == 1 ? " right-hand side" : " right-hand sides");
      check_memory(args, what, need(sa.rows, sb.rows == sa.rows ? sb.cols : 0), true);
    };
    std::vector<Shape> shapes;
    if (declared_shapes(args, shapes)) check_fits(shapes[0], shapes[1]);
    a = read_matrix(args.files()[0], [&](int64_t m, int64_t n) { check_fits({m, n}, {0, 0}); });
    require_square(a);
    b = read_matrix(args.files()[1], [&](int64_t m, int64_t nrhs) { check_fits({a.rows, a.cols}, {m, nrhs}); });
    if (b.rows != a.rows)
      throw Failure(b.file + ":" + std::to_string(b.size_line) + ": " + std::to_string(b.rows) +
                    " rows do not match the order of " + a.file + " (" + std::to_string(a.rows) + ")");
    require_finite(a, "gesv");
    require_finite(b, "gesv");
  });
  dist::share_shape(a);
  dist::share_shape(b);
  std::vector<int32_t> ipiv((size_t)a.rows);
  int64_t n = a.rows, info = 0;
  bool overflowed = false;
  {
    Session session(args);
    lu_shape(args);
    if (plain) note_plain("gesv");
    CallResult r = run_with_progress("gesv", [&] {
      if (dist::active())
        return distributed_gesv(n, b.cols, a.values.data(), leading_dim(a), ipiv.data(), b.values.data(),
                                leading_dim(b), steps, &info);
      return plain ? exstar_dgesv_plain(n, b.cols, a.values.data(), leading_dim(a), ipiv.data(), b.values.data(),
                                        leading_dim(b), &info)
                   : exstar_dgesv(n, b.cols, a.values.data(), leading_dim(a), ipiv.data(), b.values.data(),
                                  leading_dim(b), steps, &info);
    });
    if (r.status == EXSTAR_ERR_SINGULAR)
      throw Failure("gesv: matrix is singular: U(" + std::to_string(info) + "," + std::to_string(info) + ") = 0");
    // Finite input can still overflow (growth beyond the double range): X is written with a
    // warning and exit code 4, as getrf's factors are.
    overflowed = r.status == EXSTAR_ERR_NONFINITE;
    if (r.status != EXSTAR_SUCCESS && !overflowed)
      throw Failure(r.error.empty() ? exstar_status_name(r.status) : r.error);
  }
  return dist::on_root_code([&] { // rank 0 writes; every rank returns its code
    OutputFile out(out_path);
    write_matrix(out, b.rows, b.cols, b.values);
    out.commit();
    const int64_t k = count_nonfinite(b.values);
    if (overflowed) warn_overflow("gesv: the LU factors", count_nonfinite(a.values), "the solution was written");
    if (k) warn_overflow("gesv: the solution", k, "it was written");
    return overflowed || k ? EXIT_OVERFLOW : EXIT_OK;
  });
}

std::string help()
{
  return std::string(
             "usage: exstar gesv [options] A.mtx B.mtx -o X.mtx\n\n"
             "Solves A X = B for a square A (n x n) and B with n rows and any number of columns\n"
             "(exstar_dgesv): the LU of 'exstar getrf' (every entry of L and U correctly rounded),\n"
             "then for each column two substitutions whose every entry is an exact sum rounded\n"
             "once; then K steps of iterative refinement per column: r := RN(b - A x) (exact,\n"
             "one rounding per entry), d := the LU solve of r, x := RN(x + d). The solution is\n"
             "the same bits on every back end, scheduler and number of workers.\n\n"
             "A singular A (a zero pivot U(j,j)) is an error: exit 1, nothing written. A NaN or\n"
             "infinite entry in A or B is refused before factorizing (exit 1). When the exact\n"
             "solution (or the LU of finite A) overflows the double range, X is written, holding\n"
             "±inf (and NaN where an overflowed entry meets another), with a warning, and the\n"
             "exit code is 4. On a terminal, a progress line is drawn on stderr while the solve\n"
             "runs.\n\n"
             "Under 'mpirun -np N' (an exstar built with StarPU-MPI) the LU is distributed over the N\n"
             "processes (exstar_mpi_dgesv); rank 0 reads A and B, solves and writes X, byte for byte\n"
             "one process's X.\n\n"
             "options:\n"
             "  -o FILE        the solution X, n x (columns of B) (written only when the run succeeds)\n"
             "  --refine K     K steps of iterative refinement (default 0)\n"
             "  --plain        baseline: the library's plain-double LU and substitutions\n"
             "                 (exstar_dgesv_plain; NOT reproducible in general, NOT correctly\n"
             "                 rounded); no --refine\n") +
         lu_shape_help + runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_gesv;
const Command cmd_gesv = {"gesv", "solve A X = B by the exact LU (optional refinement)",
                          help, options, run, UnderMpi::distributed};

} // namespace cli
