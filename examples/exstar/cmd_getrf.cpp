// exstar getrf A.mtx -o LU.mtx --ipiv P.mtx: LU with partial pivoting, every entry of L and U
// one correctly rounded value (exstar_dgetrf), the factors stored as LAPACK's dgetrf leaves them.
#include "cli.hpp"
#include "distributed.hpp"
#include "lu.hpp"
#include "memory.hpp"
#include "mmio.hpp"
#include "progress.hpp"
#include <algorithm>
#include <cstdio>

namespace cli {

namespace {

std::vector<OptSpec> options()
{
  std::vector<OptSpec> o = runtime_options();
  for (const char *flag : {"--plain", "--unblocked"}) o.push_back({flag, false});
  for (const char *name : {"-o", "--ipiv", "--nb"}) o.push_back({name, true});
  return o;
}

int run(const Args &args)
{
  args.expect_files(1, 1, "one matrix file A.mtx");
  std::string lu_path = args.output(), piv_path = args.output("--ipiv");
  bool plain = args.has("--plain");
  if (dist::active() && args.has("--unblocked")) throw UsageError("--unblocked has no distributed form (mpirun)");
  Matrix a;
  dist::on_root([&] {
    check_outputs({{"-o", lu_path}, {"--ipiv", piv_path}});
    a = read_matrix(args.files()[0], [&](int64_t m, int64_t n) {
      check_memory(args, matrix_words(m, n), lu_bytes(m, n, plain || args.has("--unblocked")), true);
    });
    require_finite(a, "the LU factorization");
  });
  dist::share_shape(a);
  std::vector<int32_t> ipiv((size_t)std::min(a.rows, a.cols));
  int64_t info = 0;
  {
    Session session(args);
    lu_shape(args);
    if (plain && dist::root()) note_plain("getrf");
    CallResult r = run_with_progress("getrf", [&] {
      if (dist::active())
        return distributed_getrf(plain, a.rows, a.cols, a.values.data(), leading_dim(a), ipiv.data(), &info);
      return (plain ? exstar_dgetrf_plain : exstar_dgetrf)(a.rows, a.cols, a.values.data(), leading_dim(a),
                                                           ipiv.data(), &info);
    });
    // Finite input can still overflow (growth beyond the double range): the factors are written
    // with a warning and exit code 4, as gesv's solution is.
    if (r.status != EXSTAR_ERR_SINGULAR && r.status != EXSTAR_SUCCESS && r.status != EXSTAR_ERR_NONFINITE)
      throw Failure(r.error.empty() ? exstar_status_name(r.status) : r.error);
  }
  // As LAPACK: a zero pivot does not stop the factorization; the factors are written and the
  // exit code (3) says that U is singular. Rank 0 writes; every rank returns its code.
  return dist::on_root_code([&] {
    OutputFile lu(lu_path), piv(piv_path);
    write_matrix(lu, a.rows, a.cols, a.values,
                 std::string(plain ? "plain-double" : "exact") + " LU (LAPACK dgetrf layout): unit L below the "
                 "diagonal, U on and above");
    write_pivots(piv, ipiv);
    commit_together({&lu, &piv});
    if (info > 0)
      std::fprintf(stderr, "exstar: warning: getrf: matrix is singular: U(%lld,%lld) = 0 (info = %lld); "
                           "the factors were written\n", (long long)info, (long long)info, (long long)info);
    if (const int64_t k = count_nonfinite(a.values)) {
      warn_overflow("getrf: the factors", k, "the factors were written");
      return EXIT_OVERFLOW;
    }
    return info > 0 ? EXIT_SINGULAR : EXIT_OK;
  });
}

std::string help()
{
  return std::string(
             "usage: exstar getrf [options] A.mtx -o LU.mtx --ipiv P.mtx\n\n"
             "LU factorization with partial pivoting, P A = L U, of the m x n matrix A (exstar_dgetrf):\n"
             "tiled, each entry of L and U one exact sum rounded once (and one division for\n"
             "L), so the factors and pivots are the same bits on every back end, scheduler and\n"
             "number of workers. LU.mtx holds them as LAPACK's dgetrf does: the unit lower L\n"
             "below the diagonal (its 1s not stored), U on and above it. P.mtx holds the min(m,n)\n"
             "pivots, 1-based integers: row i was interchanged with row ipiv(i), in order.\n\n"
             "A NaN or infinite entry in A is refused (exit 1, nothing written). A zero pivot\n"
             "does not stop the factorization (as LAPACK): the factors are written, a warning\n"
             "names the first zero U(j,j), and the exit code is 3. If the factors of finite\n"
             "input overflow (growth beyond the double range), they are written with a warning\n"
             "and the exit code is 4 (ahead of 3). On a terminal, a progress line is drawn on\n"
             "stderr while the factorization runs.\n\n"
             "Under 'mpirun -np N' (an exstar built with StarPU-MPI) the factorization is\n"
             "distributed over the N processes (exstar_mpi_dgetrf, tiles 2D block-cyclic); rank 0\n"
             "reads and writes the files, which are byte-identical to one process's.\n\n"
             "options:\n"
             "  -o FILE        the factors L and U (written only when the run succeeds)\n"
             "  --ipiv FILE    the pivots (written with the factors)\n"
             "  --plain        baseline: the library's plain-double LU (exstar_dgetrf_plain: the same\n"
             "                 tiled graph and pivoting rule with LAPACK/BLAS kernels; NOT\n"
             "                 reproducible in general, NOT correctly rounded)\n") +
         lu_shape_help + runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_getrf;
const Command cmd_getrf = {"getrf", "LU factorization, every entry of L and U correctly rounded", help, options,
                           run, UnderMpi::distributed};

} // namespace cli
