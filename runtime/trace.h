/* A timeline of the tiled graphs' tasks, for measurements (EXSTAR_TRACE=FILE): the LU graph's
 * panels, interchanges, U rows and updates (one process), the states' initialization before them
 * (step trace::kSetup), and the Cholesky's panel tasks (J: the
 * tile row), record their codelet, step K, block column J, worker and start and end times
 * (StarPU's profiling, turned on by exstar_init when the variable is set), and exstar_shutdown
 * writes them to FILE as CSV (under StarPU-MPI each process the tasks it ran, to FILE.<rank>;
 * the times of processes on one node share a clock). StarPU 1.3 built without FxT has no other timeline of a multi-GPU
 * run; bench/lu_trace.py reads the file. */
#ifndef EXSTAR_RUNTIME_TRACE_H
#define EXSTAR_RUNTIME_TRACE_H
#include <cstdint>

namespace exstar_rt {
namespace trace {

/* Whether EXSTAR_TRACE names a file (read once). */
bool wanted();
/* Turns StarPU's task profiling on when wanted(). */
void start();
/* The callback argument of a task of step K, block column J, of a matrix of m rows. */
void *tag(int64_t m, int64_t K, int64_t J);
/* The step of the tasks before step 0 (the states' initialization). */
constexpr int64_t kSetup = (1 << 20) - 1;
/* STARPU_CALLBACK_WITH_ARG's function: records the finished task. */
void done(void *tag);
/* Under StarPU-MPI: this process writes FILE.<rank> (exstar_mpi_init). */
void set_rank(int rank);
/* Writes what was recorded to the file, and forgets it. */
void write();

} // namespace trace
} // namespace exstar_rt
#endif
