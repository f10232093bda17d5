// Whether every process's workers can run the distributed LU's (or Cholesky's) tasks, checked before anything is
// submitted: a task that no worker of its executing process can run fails its submission there
// (ENODEV) while the other processes wait for its data, and StarPU then aborts on the handles
// the failed task left uninitialized.
#include "runtime/mpi/internal.h"
#include "runtime/getrf_tiled.h"
#include "codelets/codelets.h"
#include "codelets/lu_tiled.h"
#include "runtime/potrf_tiled_graph.h"
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// Whether a worker of this process has an implementation of cl.
bool runs_here(const starpu_codelet &cl)
{
  return (cl.cpu_funcs[0] && starpu_cpu_worker_get_count() > 0) ||
         (cl.cuda_funcs[0] && starpu_cuda_worker_get_count() > 0) ||
         (cl.opencl_funcs[0] && starpu_opencl_worker_get_count() > 0);
}

std::string implementations(const starpu_codelet &cl)
{
  std::string list;
  if (cl.cpu_funcs[0]) list += "CPU";
  if (cl.cuda_funcs[0]) list += list.empty() ? "CUDA" : " or CUDA";
  if (cl.opencl_funcs[0]) list += list.empty() ? "OpenCL" : " or OpenCL";
  return list + " workers";
}

// "worker for NAME (it runs on ...)" for the first of cls no worker of this process runs, or "".
std::string first_without_worker(const std::vector<const starpu_codelet *> &cls)
{
  for (const starpu_codelet *cl : cls)
    if (!runs_here(*cl))
      return std::string("worker for ") + (cl->name ? cl->name : "a codelet") + " (it runs on " +
             implementations(*cl) + ")";
  return "";
}

// What this process lacks to run the distributed LU (plain: its plain-double twin), "" if nothing.
// The panel path is exstar_rt::tiled_lu_runs's rule, the one-process driver's; the others are
// the codelets runtime/mpi/getrf.cpp and runtime/getrf_tiled_graph.h submit beside it (keep
// the lists in step with them).
std::string lacking(bool plain)
{
  if (!plain && !exstar_rt::tiled_lu_runs())
    return "worker for the LU's panels, U rows and row interchanges (they run on CPU workers, or on CUDA workers "
           "where exstar is built with CUDA)";
  if (plain && !exstar_rt::plain_tiled_lu_runs())
    return "worker for the plain LU's LAPACK/BLAS kernels (CPU workers, or CUDA workers where exstar is built "
           "with CUDA)";
  const std::vector<const starpu_codelet *> others =
      plain ? std::vector<const starpu_codelet *>{&exstar_matrix_copy_cl, &exstar_vector_copy_cl, &exstar_lu_laswp_cl,
                                                  &exstar_lu_laswp_host_cl, &exstar_lu_plain_gemm_cl,
                                                  &exstar_lu_plain_gemm_col_cl}
            : std::vector<const starpu_codelet *>{&exstar_matrix_copy_cl, &exstar_vector_copy_cl, &exstar_lu_laswp_cl,
                                                  &exstar_lu_laswp_host_cl, &exstar_state_init_tiles_cl,
                                                  &exstar_state_gemm_cl};
  return first_without_worker(others);
}

// What this process lacks to run the distributed Cholesky, "" if nothing: its diagonal and panel
// codelets on CPU or CUDA workers (runtime/potrf_tiled_graph.h), the copies, the states and updates.
std::string lacking_potrf(bool plain)
{
  if (!exstar_rt::potrf_runs(plain))
    return plain ? "CPU worker with LAPACK (or a CUDA worker) for the plain Cholesky's kernels" : "CPU or CUDA worker for the Cholesky's panels";
  const std::vector<const starpu_codelet *> others =
      plain ? std::vector<const starpu_codelet *>{&exstar_matrix_copy_cl, &exstar_vector_copy_cl,
                                                  &exstar_potrf_plain_update_cl}
            : std::vector<const starpu_codelet *>{&exstar_matrix_copy_cl, &exstar_vector_copy_cl, &exstar_state_init_tiles_cl,
                                                  &exstar_state_gemm_cl};
  return first_without_worker(others);
}

// EXSTAR_SUCCESS when no process lacks anything (gap empty everywhere), else EXSTAR_ERR_NO_WORKER
// on every process with the message of the lowest process that does. Collective.
int require_workers(const char *who, const std::string &gap)
{
  const int me = exstar_mpi_rank();
  int first = gap.empty() ? INT_MAX : me; // the lowest process that cannot
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == INT_MAX) return EXSTAR_SUCCESS;
  char why[512] = "";
  if (me == first)
    std::snprintf(why, sizeof why, "process %d has no %s; its workers: %d CPU, %d OpenCL, %d CUDA", me, gap.c_str(),
                  (int)starpu_cpu_worker_get_count(), (int)starpu_opencl_worker_get_count(),
                  (int)starpu_cuda_worker_get_count());
  MPI_Bcast(why, (int)sizeof why, MPI_CHAR, first, MPI_COMM_WORLD);
  why[sizeof why - 1] = '\0';
  return exstar_set_error(EXSTAR_ERR_NO_WORKER, "%s: %s", who, why);
}

} // namespace

namespace exstar_mpi_rt {

int require_lu_workers(const char *who, bool plain) { return require_workers(who, lacking(plain)); }

int require_potrf_workers(const char *who, bool plain) { return require_workers(who, lacking_potrf(plain)); }

} // namespace exstar_mpi_rt

int exstar_mpi_check_lu_workers(int plain)
{
  const char *who = "exstar_mpi_check_lu_workers";
  exstar_rt::clear_error();
  if (int s = exstar_mpi_rt::require_mpi(who)) return s;
  return exstar_mpi_rt::require_lu_workers(who, plain != 0);
}
