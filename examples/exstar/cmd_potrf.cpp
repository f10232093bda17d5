// exstar potrf A.mtx -o L.mtx [--uplo L|U]: the exact Cholesky factor (exstar_dpotrf), every entry
// one correctly rounded value, and the exact test of positive definiteness.
#include "cli.hpp"
#include "distributed.hpp"
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
  o.push_back({"--plain", false});
  for (const char *name : {"-o", "--uplo", "--nb"}) o.push_back({name, true});
  return o;
}

int run(const Args &args)
{
  args.expect_files(1, 1, "one matrix file A.mtx");
  const std::string out_path = args.output();
  const char uplo = uplo_option(args);
  const bool plain = args.has("--plain");
  Matrix a;
  dist::on_root([&] {
    check_outputs({{"-o", out_path}});
    a = read_matrix(args.files()[0], [&](int64_t m, int64_t n) {
      check_memory(args, matrix_words(m, n), potrf_bytes(m, uplo), true);
    });
    require_square(a);
    require_finite_triangle(a, uplo, "potrf");
  });
  dist::share_shape(a);
  int64_t info = 0;
  {
    Session session(args);
    lu_shape(args);
    if (plain && dist::root()) note_plain("potrf");
    CallResult r = run_with_progress("potrf", [&] {
      if (dist::active()) return distributed_potrf(plain, uplo, a.rows, a.values.data(), leading_dim(a), &info);
      return (plain ? exstar_dpotrf_plain : exstar_dpotrf)(uplo, a.rows, a.values.data(), leading_dim(a), &info);
    });
    if (r.status == EXSTAR_ERR_NOT_POSDEF) {
      if (dist::root())
        std::fprintf(stderr, "exstar: potrf: the matrix is not positive definite: the %s value under the root of "
                             "%c(%lld,%lld) is <= 0%s; info = %lld; nothing written\n",
                     plain ? "rounded" : "exact", uplo, (long long)info, (long long)info,
                     plain ? "" : " (or its root rounds to zero)", (long long)info);
      return EXIT_SINGULAR;
    }
    if (r.status != EXSTAR_SUCCESS && r.status != EXSTAR_ERR_NONFINITE)
      throw Failure(r.error.empty() ? exstar_status_name(r.status) : r.error);
  }
  return dist::on_root_code([&] { // rank 0 writes; every rank returns its code
    keep_triangle(a, uplo);
    OutputFile out(out_path);
    write_matrix(out, a.rows, a.cols, a.values,
                 std::string(plain ? "plain-double" : "exact") +
                     (uplo == 'L' ? " Cholesky factor L, A = L L^T (zeros above the diagonal)"
                                  : " Cholesky factor U, A = U^T U (zeros below the diagonal)"));
    out.commit();
    if (const int64_t k = count_nonfinite(a.values)) {
      warn_overflow("potrf: the factor", k, "it was written");
      return EXIT_OVERFLOW;
    }
    return EXIT_OK;
  });
}

std::string help()
{
  return std::string(
             "usage: exstar potrf [options] A.mtx -o L.mtx [--uplo L|U]\n\n"
             "Cholesky factorization of the symmetric positive definite n x n matrix A\n"
             "(exstar_dpotrf): A = L L^T (--uplo L, the default) or A = U^T U (--uplo U). Only that\n"
             "triangle of A is read (a 'symmetric' MatrixMarket file holds the lower one; the tool\n"
             "mirrors it). Each diagonal entry is the square root of an exact value rounded once,\n"
             "each other entry an exact sum rounded once then divided once, so the factor is the\n"
             "same bits on every back end, scheduler, tile size and number of workers. L.mtx holds\n"
             "the factor with zeros in the other triangle.\n\n"
             "Whether A is positive definite is decided on the exact values under the roots, not on\n"
             "rounding noise: when one is <= 0 (or so small that its root rounds to zero), the tool\n"
             "says which, writes nothing and exits with code 3. A NaN or infinite entry in the\n"
             "triangle read is refused (exit 1). A factor that overflows is written with a warning,\n"
             "exit code 4.\n\n"
             "Under 'mpirun -np N' (an exstar built with StarPU-MPI) the factorization is\n"
             "distributed over the N processes (exstar_mpi_dpotrf, tiles 2D block-cyclic); rank 0\n"
             "reads and writes the files, which are byte-identical to one process's.\n\n"
             "options:\n"
             "  -o FILE        the factor (written only when the run succeeds)\n"
             "  --plain        baseline: the library's plain-double Cholesky (exstar_dpotrf_plain: the\n"
             "                 same tiled graph with LAPACK/BLAS kernels; NOT reproducible in\n"
             "                 general, NOT correctly rounded)\n"
             "  --uplo L|U     the triangle read and factored (default L)\n"
             "  --nb NB        tile edge (default: exstar_default_tile); never changes a bit\n") +
         runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_potrf;
const Command cmd_potrf = {"potrf", "Cholesky factor, every entry correctly rounded; exact definiteness test", help,
                           options, run, UnderMpi::distributed};

} // namespace cli
