/** @file
 * exstar over StarPU-MPI: the same exact operations, distributed over MPI processes, with the
 * same bits as one process (library exstar_mpi; CMake target exstar::exstar_mpi, pkg-config
 * exstar-mpi; built when Open MPI and StarPU-MPI 1.3 are found).
 *
 * Every process runs the same program and submits the same task graph
 * (starpu_mpi_task_insert); StarPU-MPI runs each task on the process owning the data it writes
 * and moves the tiles, the GEMM-accumulate states and the accumulators (plain StarPU matrix and
 * vector data) where they are read. Each entry is still rounded once from its exact value, so
 * L, U, ipiv, the solutions, the dots and the products are bitwise those of exstar_dgetrf,
 * exstar_dgesv, exstar_ddot and exstar_dgemm, for any number of processes, any process grid,
 * any scheduler and any workers.
 *
 * Tiles are distributed 2D block-cyclic over a P x Q process grid: tile (I, J) belongs to rank
 * (I mod P)·Q + (J mod Q) (exstar_mpi_tile_owner). exstar tags its StarPU-MPI data from
 * EXSTAR_MPI_TAG_BASE upwards; keep the application's own tags below it.
 *
 * The calls below are collective over MPI_COMM_WORLD: every process calls them, in the same
 * order, with the same sizes (checked: mismatched sizes give EXSTAR_ERR_ARG on every process). */
#ifndef EXSTAR_MPI_H
#define EXSTAR_MPI_H
#include <mpi.h>
#include <starpu_mpi.h>
#include "exstar/exstar.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The first StarPU-MPI tag exstar uses for its own data (tags grow from here). */
#define EXSTAR_MPI_TAG_BASE ((int64_t)1 << 40)

/** Starts MPI at MPI_THREAD_MULTIPLE (unless the application already did), StarPU-MPI and exstar
 * with cfg (NULL: exstar_config_default), as exstar_init does for one process, with one
 * difference: when CPU workers may run, CPU OpenCL devices such as PoCL are left out (StarPU's
 * default, STARPU_OPENCL_ON_CPUS=0), because StarPU-MPI's progression thread takes a core too
 * and on a small node they left no CPU worker for the distributed LU; they are used when cfg
 * requires the OpenCL back end, sets nopencl > 0 or excludes CPU workers, or when
 * STARPU_OPENCL_ON_CPUS is set. Collective.
 * An application that starts MPI itself must ask for MPI_THREAD_MULTIPLE: the distributed calls
 * make MPI collectives from the calling thread while StarPU-MPI's thread communicates
 * (EXSTAR_ERR_ARG otherwise). */
int exstar_mpi_init(int *argc, char ***argv, const exstar_config *cfg);
/** Waits for every task and communication, stops exstar, StarPU-MPI, StarPU, and MPI when
 * exstar_mpi_init started it. Collective. */
int exstar_mpi_shutdown(void);
/** This process's rank in MPI_COMM_WORLD (0 before exstar_mpi_init). */
int exstar_mpi_rank(void);
/** The number of processes in MPI_COMM_WORLD (1 before exstar_mpi_init). */
int exstar_mpi_size(void);
/** The default process grid for nranks processes: P·Q == nranks, P <= Q, P as large as that allows. */
void exstar_mpi_grid(int nranks, int *P, int *Q);
/** The rank owning tile (I, J) on a P x Q grid: (I mod P)·Q + (J mod Q). */
int exstar_mpi_tile_owner(int64_t I, int64_t J, int P, int Q);

/** Distributed exstar_dgetrf: A (m x n, lda) and the pivots live on rank 0; the factorization
 * runs on nb x nb tiles spread over the P x Q grid (nb == 0: the smallest over the processes of
 * exstar_default_tile(m, n / processes); P == Q == 0:
 * 1 x nranks, block columns round-robin over the processes, the grid on which no tile, state or
 * row interchange crosses processes: see docs/distributed.md). On return, rank 0 holds L and U in A; every rank holds ipiv (min(m, n)
 * entries) and *info. Bits, info and status are exstar_dgetrf's. A and ipiv are not read on
 * other ranks (they may be NULL there; ipiv, when given, receives the pivots). */
int exstar_mpi_dgetrf(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb, int P,
                      int Q);
/** The plain-double baseline of exstar_mpi_dgetrf (the same distributed tiled graph with LAPACK
 * and BLAS kernels: NOT exact), for the benchmarks. */
int exstar_mpi_dgetrf_plain(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb,
                            int P, int Q);
/** exstar_mpi_dgetrf on a matrix that is already distributed, as an application that never holds
 * it in one place has it (Chameleon's tile layout): tile (I, J) of the m x n matrix, rows
 * [I nb, min(m, (I+1) nb)) and columns [J nb, min(n, (J+1) nb)), column-major with leading
 * dimension ldt (0: the tile's own rows; else ldt >= min(nb, m)), lives at tiles[I + J mt]
 * (mt = ceil(m / nb)) on process exstar_mpi_tile_owner(I, J, P, Q), and only there (the other
 * entries of tiles are not read: NULL is fine). nb >= 1; P == Q == 0: 1 x nranks, as
 * exstar_mpi_dgetrf. On return each process's tiles hold their part of L and U; every process
 * holds ipiv (min(m, n) entries, the rows as exstar_dgetrf numbers them), *info and the status.
 * Bits, info and status are exstar_dgetrf's (and exstar_mpi_dgetrf's) for any grid. Nothing
 * starts or ends on rank 0: only what the tiled graph itself needs crosses processes
 * (docs/distributed.md). Collective. */
int exstar_mpi_dgetrf_tiles(int64_t m, int64_t n, int64_t nb, int P, int Q, double *const *tiles, int64_t ldt,
                            int32_t *ipiv, int64_t *info);
/** The plain-double baseline of exstar_mpi_dgetrf_tiles (NOT exact), for the benchmarks. */
int exstar_mpi_dgetrf_tiles_plain(int64_t m, int64_t n, int64_t nb, int P, int Q, double *const *tiles, int64_t ldt,
                                  int32_t *ipiv, int64_t *info);
/** Checks that every process's workers can run the tasks of exstar_mpi_dgetrf (plain != 0:
 * exstar_mpi_dgetrf_plain; exstar_mpi_dgesv factorizes as exstar_mpi_dgetrf). The LU's panels,
 * U block rows and row interchanges run on CPU workers, or on CUDA workers where exstar is built
 * with CUDA, and so do the copies that move tiles between rank 0 and their owners (the _tiles
 * forms need the same workers): a process with OpenCL workers alone cannot take part. Returns EXSTAR_SUCCESS, or
 * EXSTAR_ERR_NO_WORKER on every process with one message (exstar_last_error) naming the first
 * process that cannot and its workers. Collective; submits nothing. */
int exstar_mpi_check_lu_workers(int plain);
/** Distributed exstar_dpotrf('L', ...): the exact Cholesky of the lower triangle of the n x n
 * matrix A (lda), which lives on rank 0 (A is not read on the other processes, which pass NULL),
 * on nb x nb tiles spread 2D block-cyclic over a P x Q grid of the processes (0, 0: the
 * near-square default of exstar_mpi_grid). Every process gets *info and the status; A's lower
 * triangle on rank 0 holds the factor, bit for bit exstar_dpotrf's for any grid and tile edge.
 * Each task runs where the tile it writes lives; the exact path reads only tiles its process has
 * already received for the updates, so the exact graph moves what the plain one moves. Needs a
 * CPU worker on every process (EXSTAR_ERR_NO_WORKER on every process otherwise). Collective. */
int exstar_mpi_dpotrf(int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb, int P, int Q);
/** exstar_mpi_dpotrf on a matrix already spread over the processes: its lower tiles (I >= J),
 * tile (I, J) of rows [I nb, min(n, (I+1) nb)) and columns alike, column-major with leading
 * dimension ldt (0: the tile's own rows; else ldt >= min(nb, n)), at tiles[I + J mt]
 * (mt = ceil(n / nb)) on process exstar_mpi_tile_owner(I, J, P, Q), and only there (other
 * entries, and the upper tiles, are not read). nb >= 1; P == Q == 0: the near-square default.
 * On return each process's lower tiles hold their part of L (the strict upper triangle of a
 * diagonal tile is left as it was); every process gets *info and the status. Bits are
 * exstar_dpotrf's. Nothing passes through rank 0. Collective. */
int exstar_mpi_dpotrf_tiles(int64_t n, int64_t nb, int P, int Q, double *const *tiles, int64_t ldt, int64_t *info);
/** The plain-double baseline on the same distributed graph (exstar_dpotrf_plain's kernels). */
int exstar_mpi_dpotrf_plain(int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb, int P, int Q);
/** Distributed exstar_dgesv: the factorization by exstar_mpi_dgetrf, the solves (and
 * refine_steps of refinement) on rank 0, where A and B live. Bits as exstar_dgesv. */
int exstar_mpi_dgesv(int64_t n, int64_t nrhs, double *A, int64_t lda, int32_t *ipiv, double *B, int64_t ldb,
                     int refine_steps, int64_t *info, int64_t nb, int P, int Q);

/** Distributed dot: each rank holds its own part (nlocal elements of x and y, strides incx,
 * incy; nlocal may differ between ranks, and be 0); *result := RN(Σ over all ranks' parts of
 * x_i·y_i) on every rank: one rounding of the exact sum, whatever the split. */
int exstar_mpi_ddot(int64_t nlocal, const double *x, int64_t incx, const double *y, int64_t incy, double *result);

/** Task form of the distributed dot on the application's StarPU-MPI data: x[b] and y[b]
 * (b < count) are vector handles of doubles registered with starpu_mpi_data_register, x[b]
 * and y[b] of the same length and owner; result is a variable handle of one double
 * (registered with StarPU-MPI too). result := RN(Σ_b Σ_i x[b]_i·y[b]_i), computed where result
 * lives: each part's exact sum on the part's owner, the exact accumulators (1.6 KB each) sent
 * to result's owner, added exactly, rounded once. Collective (every rank submits the same). */
int exstar_mpi_ddot_insert(MPI_Comm comm, int64_t count, const starpu_data_handle_t *x, const starpu_data_handle_t *y,
                           starpu_data_handle_t result);

/** Task form of a distributed exact gemv: y[I] := RN(α·Σ_j A[I](i,j)·x_j + β·y[I]_i) for the mt
 * row panels A[I] (m_I x n matrix handles of doubles) and pieces y[I] (vector handles of m_I
 * doubles), x a vector handle of n doubles; all registered with StarPU-MPI. Each piece is
 * computed on y[I]'s owner (the panel and x are brought there): the bits are exstar_dgemv's.
 * Collective. */
int exstar_mpi_dgemv_insert(MPI_Comm comm, int64_t mt, double alpha, const starpu_data_handle_t *A,
                            starpu_data_handle_t x, double beta, starpu_data_handle_t *y);

/** Task form of a distributed exact gemm: C(I, J) := RN(α·Σ_l A_I(i,l)·B_J(l,j) + β·C(I, J)(i,j))
 * for the mt x nt tiles C[I + J·mt] (matrix handles of doubles registered with StarPU-MPI),
 * A_I = A[I] the row panel of op(A) for tile row I (m_I x k, stored m_I x k for transa 'N',
 * k x m_I for 'T'), B_J = B[J] the column panel for tile column J (k x n_J for 'N', n_J x k
 * for 'T'). Each tile is one exstar_gemm_cl task on its owner: the bits are exstar_dgemm's.
 * Collective. */
int exstar_mpi_dgemm_insert(MPI_Comm comm, char transa, char transb, int64_t mt, int64_t nt, double alpha,
                            const starpu_data_handle_t *A, const starpu_data_handle_t *B, double beta,
                            starpu_data_handle_t *C);

#ifdef __cplusplus
}
#endif
#endif
