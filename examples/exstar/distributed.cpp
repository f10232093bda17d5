// The tool as N MPI processes (distributed.hpp). Without libexstar_mpi in the build, a launch of
// several processes is refused with a clear error.
#include "distributed.hpp"
#include "cli.hpp"
#include <chrono>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#ifdef EXSTAR_TOOL_HAVE_MPI
#include <exstar/mpi.h>
#endif

namespace cli {
namespace dist {

namespace {

bool distributed = false;
int my_rank = 0;

// The number of processes an MPI launcher started (Open MPI, PMIx, MPICH's PMI), else 1, and
// this process's rank among them, else 0.
int launched(const char *ompi, const char *pmix, const char *pmi, int fallback)
{
  for (const char *name : {ompi, pmix, pmi}) {
    const char *v = std::getenv(name);
    if (v && *v) return std::atoi(v);
  }
  return fallback;
}
int launched_size() { return launched("OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", 1); }
#ifndef EXSTAR_TOOL_HAVE_MPI
int launched_rank() { return launched("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", 0); }
#endif

#ifdef EXSTAR_TOOL_HAVE_MPI
// *value := rank 0's. The other ranks poll and sleep instead of waiting in MPI_Bcast: Open MPI's
// blocking calls spin, and a rank spinning on a core it shares with rank 0 (mpirun
// --oversubscribe) would slow rank 0 down while it reads files or computes alone.
void share_from_root(int *value)
{
  MPI_Request request;
  MPI_Ibcast(value, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
  if (my_rank == 0) {
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    return;
  }
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}
#endif

} // namespace

void start(int *argc, char ***argv)
{
  if (launched_size() <= 1) return;
#ifdef EXSTAR_TOOL_HAVE_MPI
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  distributed = true;
#else
  (void)argc, (void)argv;
  my_rank = launched_rank(); // rank 0 alone says it
  throw Failure("started as " + std::to_string(launched_size()) +
                " MPI processes, but this exstar was built without StarPU-MPI (libexstar_mpi): run it "
                "without mpirun, or build it where Open MPI and StarPU-MPI are installed");
#endif
}

void stop()
{
#ifdef EXSTAR_TOOL_HAVE_MPI
  if (distributed) MPI_Finalize();
#endif
  distributed = false;
}

bool active() { return distributed; }
int rank() { return my_rank; }
bool root() { return my_rank == 0; }

void on_root(const std::function<void()> &f)
{
  if (!distributed) return f();
#ifdef EXSTAR_TOOL_HAVE_MPI
  int code = EXIT_OK;
  std::exception_ptr error;
  if (root()) {
    try {
      f();
    } catch (const UsageError &) {
      code = EXIT_USAGE, error = std::current_exception();
    } catch (...) {
      code = EXIT_FAIL, error = std::current_exception();
    }
  }
  share_from_root(&code);
  if (error) std::rethrow_exception(error);
  if (code != EXIT_OK) throw Quiet{code};
#endif
}

int on_root_code(const std::function<int()> &f)
{
  if (!distributed) return f();
  int code = EXIT_OK;
  on_root([&] { code = f(); });
#ifdef EXSTAR_TOOL_HAVE_MPI
  share_from_root(&code);
#endif
  return code;
}

int alone_on_root(const std::function<int()> &f)
{
  if (!distributed) return f();
  int code = EXIT_FAIL;
#ifdef EXSTAR_TOOL_HAVE_MPI
  if (root()) {
    distributed = false; // one process's run: Session starts exstar_init, not StarPU-MPI
    try {
      code = f();
    } catch (...) { // f does not throw; were it to, the other ranks must still get a code
      code = EXIT_FAIL;
    }
    distributed = true;
  }
  share_from_root(&code);
#endif
  return code;
}

void share_shape(Matrix &a)
{
  (void)a; // without MPI there is nothing to share
  if (!distributed) return;
#ifdef EXSTAR_TOOL_HAVE_MPI
  int64_t shape[2] = {a.rows, a.cols};
  MPI_Bcast(shape, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
  a.rows = shape[0], a.cols = shape[1];
#endif
}

} // namespace dist

#ifdef EXSTAR_TOOL_HAVE_MPI
int distributed_getrf(bool plain, int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info)
{
  if (int s = exstar_mpi_check_lu_workers(plain ? 1 : 0)) return s;
  return (plain ? exstar_mpi_dgetrf_plain : exstar_mpi_dgetrf)(m, n, A, lda, ipiv, info, 0, 0, 0);
}

int distributed_gesv(int64_t n, int64_t nrhs, double *A, int64_t lda, int32_t *ipiv, double *B, int64_t ldb,
                     int refine_steps, int64_t *info)
{
  if (int s = exstar_mpi_check_lu_workers(0)) return s;
  return exstar_mpi_dgesv(n, nrhs, A, lda, ipiv, B, ldb, refine_steps, info, 0, 0, 0);
}

int distributed_potrf(bool plain, char uplo, int64_t n, double *A, int64_t lda, int64_t *info)
{
  // uplo 'U': the upper triangle, mirrored into the lower one on rank 0 (the tool keeps only the
  // factor's triangle), factored as L = Uᵀ, mirrored back
  auto mirror = [&](bool to_lower) {
    if (uplo != 'U' || !dist::root()) return;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = j + 1; i < n; ++i)
        if (to_lower) A[i + j * lda] = A[j + i * lda];
        else A[j + i * lda] = A[i + j * lda];
  };
  mirror(true);
  const int s = (plain ? exstar_mpi_dpotrf_plain : exstar_mpi_dpotrf)(n, A, lda, info, 0, 0, 0);
  mirror(false);
  return s;
}
#else
int distributed_potrf(bool, char, int64_t, double *, int64_t, int64_t *) { return EXSTAR_ERR_ARG; }
int distributed_getrf(bool, int64_t, int64_t, double *, int64_t, int32_t *, int64_t *) { return EXSTAR_ERR_ARG; }
int distributed_gesv(int64_t, int64_t, double *, int64_t, int32_t *, double *, int64_t, int, int64_t *)
{
  return EXSTAR_ERR_ARG;
}
#endif

} // namespace cli
