// 'mpirun -np N exstar ...' (when the tool is built with libexstar_mpi). getrf, gesv and potrf run as
// N processes over StarPU-MPI: rank 0 reads the files and writes the results, every rank takes
// part in the distributed factorization, the output is byte-identical to one process's. Every
// other subcommand runs on rank 0 alone (alone_on_root). Failures reach every rank: rank 0
// prints the message, all ranks exit with the same code.
#ifndef EXSTAR_TOOL_DISTRIBUTED_HPP
#define EXSTAR_TOOL_DISTRIBUTED_HPP

#include "mmio.hpp"
#include <functional>

namespace cli {
namespace dist {

// Ends a rank other than 0 with rank 0's exit code, silently (rank 0 printed the message).
struct Quiet {
  int code;
};

// From main, before anything else: starts MPI when a launcher started several processes
// (throws Failure when this build has no StarPU-MPI, rather than letting N copies race on the
// output files); stop() ends it.
void start(int *argc, char ***argv);
void stop();
// Whether this run is one of several MPI processes, this process's rank, and whether it is rank
// 0 (true when not distributed): the process that reads, writes and prints.
bool active();
int rank();
bool root();
// Runs f on rank 0 only; if it throws, rank 0 rethrows and the other ranks throw Quiet with the
// exit code main will give rank 0's exception.
void on_root(const std::function<void()> &f);
// Runs f on rank 0 only (it writes the outputs) and returns its exit code on every rank; if f
// throws, as on_root.
int on_root_code(const std::function<int()> &f);
// A whole run on rank 0 alone: rank 0 runs f as one process (active() is false meanwhile, so
// its library session is exstar_init's, not StarPU-MPI's); the other ranks start nothing and
// wait, without spinning, for f's exit code, which every rank returns. f must not throw.
int alone_on_root(const std::function<int()> &f);
// rows and cols of a matrix rank 0 read (values stay on rank 0).
void share_shape(Matrix &a);

} // namespace dist

// The distributed factorization and solve (exstar_mpi_dgetrf[_plain], exstar_mpi_dgesv) with the
// default tile edge (--nb) and process grid; the matrices are significant on rank 0 only. First
// every process checks that its workers can run the distributed LU (exstar_mpi_check_lu_workers):
// EXSTAR_ERR_NO_WORKER on every process, with a message naming the process that cannot.
int distributed_getrf(bool plain, int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info);
// The distributed Cholesky (exstar_mpi_dpotrf[_plain], the default tile edge and grid) of the
// uplo triangle of A (significant on rank 0; 'U': through its mirror, the other triangle
// overwritten). Every process needs a CPU worker (EXSTAR_ERR_NO_WORKER on every process).
int distributed_potrf(bool plain, char uplo, int64_t n, double *A, int64_t lda, int64_t *info);
int distributed_gesv(int64_t n, int64_t nrhs, double *A, int64_t lda, int32_t *ipiv, double *B, int64_t ldb,
                     int refine_steps, int64_t *info);

} // namespace cli

#endif
