// exstar posv A.mtx B.mtx -o X.mtx [--uplo L|U] [--refine K]: solves A X = B for symmetric positive
// definite A by the exact Cholesky (exstar_dposv), then K refinement steps.
#include "cli.hpp"
#include "lu.hpp"
#include "memory.hpp"
#include "mmio.hpp"
#include "progress.hpp"
#include "symmetric.hpp"
#include <cstdio>

namespace cli {

namespace {

std::vector<OptSpec> options()
{
  std::vector<OptSpec> o = runtime_options();
  for (const char *name : {"-o", "--uplo", "--refine", "--nb"}) o.push_back({name, true});
  return o;
}

int run(const Args &args)
{
  args.expect_files(2, 2, "A.mtx B.mtx");
  const std::string out_path = args.output();
  const char uplo = uplo_option(args);
  const int steps = (int)args.integer("--refine", 0, 0, 1000);
  check_outputs({{"-o", out_path}});
  // The factorization's memory, a full copy of A for --refine, B and the residuals.
  auto need = [&](int64_t n, int64_t nrhs) {
    int64_t bytes = plus(potrf_bytes(n, uplo), entries_bytes(n, nrhs, 24));
    return steps > 0 ? plus(bytes, entries_bytes(n, n)) : bytes;
  };
  Matrix a = read_matrix(args.files()[0], [&](int64_t m, int64_t n) { check_memory(args, matrix_words(m, n), need(m, 0), true); });
  require_square(a);
  Matrix b = read_matrix(args.files()[1], [&](int64_t m, int64_t nrhs) {
    check_memory(args, matrix_words(a.rows, a.cols) + " and " + std::to_string(nrhs) + " right-hand sides",
                 need(a.rows, m == a.rows ? nrhs : 0), true);
  });
  if (b.rows != a.rows)
    throw Failure(b.file + ":" + std::to_string(b.size_line) + ": " + std::to_string(b.rows) +
                  " rows do not match the order of " + a.file + " (" + std::to_string(a.rows) + ")");
  require_finite_triangle(a, uplo, "posv");
  require_finite(b, "posv");
  int64_t info = 0;
  bool overflowed = false;
  {
    Session session(args);
    lu_shape(args);
    CallResult r = run_with_progress("posv", [&] {
      return exstar_dposv(uplo, a.rows, b.cols, a.values.data(), leading_dim(a), b.values.data(), leading_dim(b),
                          steps, &info);
    });
    if (r.status == EXSTAR_ERR_NOT_POSDEF) {
      std::fprintf(stderr, "exstar: posv: the matrix is not positive definite: the exact value under the root of "
                           "%c(%lld,%lld) is <= 0 (or its root rounds to zero); info = %lld; nothing written\n",
                   uplo, (long long)info, (long long)info, (long long)info);
      return EXIT_SINGULAR;
    }
    overflowed = r.status == EXSTAR_ERR_NONFINITE;
    if (r.status != EXSTAR_SUCCESS && !overflowed) throw Failure(r.error.empty() ? exstar_status_name(r.status) : r.error);
  }
  OutputFile out(out_path);
  write_matrix(out, b.rows, b.cols, b.values);
  out.commit();
  const int64_t k = count_nonfinite(b.values);
  if (overflowed) warn_overflow("posv: the Cholesky factor", 1, "the solution was written");
  if (k) warn_overflow("posv: the solution", k, "it was written");
  return overflowed || k ? EXIT_OVERFLOW : EXIT_OK;
}

std::string help()
{
  return std::string(
             "usage: exstar posv [options] A.mtx B.mtx -o X.mtx [--uplo L|U] [--refine K]\n\n"
             "Solves A X = B for a symmetric positive definite A (n x n; only the --uplo triangle\n"
             "is read, default L) and B with n rows (exstar_dposv): the Cholesky factor of 'exstar\n"
             "potrf', then for all columns the two triangular solves, every entry an exact sum\n"
             "rounded once and divided once; then K steps of iterative refinement: R := RN(B - A X)\n"
             "(exact, one rounding per entry), D := the Cholesky solve of R, X := RN(X + D). The\n"
             "solution is the same bits on every back end, scheduler and number of workers.\n\n"
             "A matrix that is not positive definite by the exact test (see 'exstar potrf') is\n"
             "reported, nothing is written and the exit code is 3. A NaN or infinite entry in the\n"
             "triangle of A read or in B is refused (exit 1). A solution that overflows is written\n"
             "with a warning, exit code 4.\n\n"
             "options:\n"
             "  -o FILE        the solution X, n x (columns of B) (written only when the run succeeds)\n"
             "  --uplo L|U     the triangle of A read (default L)\n"
             "  --refine K     K steps of iterative refinement (default 0)\n"
             "  --nb NB        tile edge of the factorization (default: exstar_default_tile)\n") +
         runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_posv;
const Command cmd_posv = {"posv", "solve A X = B for SPD A by the exact Cholesky (optional refinement)", help,
                          options, run, UnderMpi::rank0};

} // namespace cli
