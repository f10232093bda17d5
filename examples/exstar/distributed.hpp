// 'mpirun -np N exstar getrf|gesv ...': one run as N processes over StarPU-MPI (when the tool is
// built with libexstar_mpi). Rank 0 reads the files and writes the results; every rank takes part
// in the distributed factorization; the output is byte-identical to one process's. Failures
// reach every rank: rank 0 prints the message, all ranks exit with the same code.
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
// rows and cols of a matrix rank 0 read (values stay on rank 0).
void share_shape(Matrix &a);

} // namespace dist

// The distributed factorization and solve (exstar_mpi_dgetrf[_plain], exstar_mpi_dgesv) with the
// default tile edge (--nb) and process grid; the matrices are significant on rank 0 only.
int distributed_getrf(bool plain, int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info);
int distributed_gesv(int64_t n, int64_t nrhs, double *A, int64_t lda, int32_t *ipiv, double *B, int64_t ldb,
                     int refine_steps, int64_t *info);

} // namespace cli

#endif
