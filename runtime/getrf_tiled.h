/* The tiled exact LU's descriptor and graph (runtime/getrf_tiled.cpp), used by the LU drivers. */
#ifndef EXSTAR_RUNTIME_GETRF_TILED_H
#define EXSTAR_RUNTIME_GETRF_TILED_H
#include "include/exstar/exstar.h"
#include <vector>

namespace exstar_rt {

/* A matrix as nb x nb tiles (Chameleon's descriptor, reduced to what the LU needs): a handle
 * per tile over the user's column-major array, a GEMM-accumulate state per tile, a pivot
 * handle per panel over the user's ipiv. Drivers speak in tile indices. */
struct tiled_desc {
  int64_t m = 0, n = 0, nb = 0, mt = 0, nt = 0, kt = 0; /* kt: panels, ceil(min(m,n)/nb) */
  std::vector<starpu_data_handle_t> tiles, states, pivots; /* states: a handle per block column */
  /* The exact graph's copies of L (empty: the plain graph). lcols[K]: block column K of the
   * factors as panel K leaves it (rows [K nb, m), in the order after panel K), written once by
   * panel K and never interchanged, so a copy of it moves to a GPU or a process once: the
   * updates of step K read it, and the exact path of the later panels and U rows finds a row's
   * L in it through perms[K] (2m int32: the row order after panel K and its inverse). */
  std::vector<starpu_data_handle_t> lcols, perms;
  /* Several GPUs: the CUDA workers of each (StarPU worker bitmaps, STARPU_TASK_WORKERIDS). Every
   * task of block column J runs on GPU J mod gpus, panel K on GPU K mod gpus, so that tiles and
   * states stay where they are and only L's columns and the pivots travel. Empty: one GPU or
   * none (StarPU places every task). */
  std::vector<std::vector<uint32_t>> gpu_masks;
  /* Each GPU's first worker takes only the critical path's tasks (the panels, block column K+1's
   * at step K: chain_masks), the others the rest (rest_masks), so that the chain never waits for
   * a worker whose pipeline is full of long updates. Empty: off (EXSTAR_CUDA_CHAIN_WORKER=0), or
   * a GPU with one worker. */
  std::vector<std::vector<uint32_t>> chain_masks, rest_masks;
  /* Several GPUs (or EXSTAR_CUDA_PANEL_GATE=1): a panel closes its GPU's gate, so that the
   * other columns' updates launched there during it wait for its end (codelets/cuda_stream.cpp). */
  bool gate_panels = false;
  int64_t gpu_div = 1; /* block column J runs on GPU (J / gpu_div) mod gpus (a process's columns
                          are every Q-th under StarPU-MPI) */
  /* The factorization's status (exstar_lu_check_cl: NaN/inf seen, first zero on U's diagonal),
   * every tile's check added in where the tile is; NULL: none (the plain baseline, distributed
   * runs). One handle: the drivers wait on it once, not once a tile. */
  starpu_data_handle_t status = nullptr;
  uint64_t *status_buf = nullptr;
  /* Distributed (runtime/mpi): the MPI rank owning each tile (and its state), this process's
   * rank. Empty: one process, which owns everything. */
  std::vector<int> ranks;
  int me = 0;
  bool own_tiles = true; /* false: the caller's tile handles (exstar_desc_create_tiles), kept */
  bool at_home = false;  /* the tiles and pivots are registered over this process's A and ipiv */
  /* Where the panel, U-row and laswp tasks may run (STARPU_CUDA, ...; 0: wherever their
   * codelets can). create() sets it with panel_where(). */
  unsigned long long panel_where = 0;
  int rank(int64_t I, int64_t J) const { return ranks.empty() ? 0 : ranks[(size_t)(I + J * mt)]; }
  /* The rank of block column J's states (its diagonal tile's owner), where every task that
   * writes them runs: on a P > 1 grid the column's tiles come to it, never its states. */
  int state_rank(int64_t J) const { return rank(J % mt, J); }
  starpu_data_handle_t &tile(int64_t I, int64_t J) { return tiles[(size_t)(I + J * mt)]; }
  starpu_data_handle_t tile(int64_t I, int64_t J) const { return tiles[(size_t)(I + J * mt)]; }
  /* The GEMM-accumulate states of block column J: one handle (m x its width, 32-byte entries),
   * tile (I, J)'s at row I nb. One task then updates a whole block column (O(kt²) tasks instead
   * of O(kt³)), and every task that writes a block column runs where its states are. */
  starpu_data_handle_t &state(int64_t J) { return states[(size_t)J]; }
  starpu_data_handle_t state(int64_t J) const { return states[(size_t)J]; }
  /* with_states false: no GEMM-accumulate states (the plain-double baseline); home false: A
   * and ipiv are not in this process (the tiles and pivots are registered without a home
   * buffer, for a distributed run to fill). */
  int create(int64_t m, int64_t n, int64_t nb, double *A, int64_t lda, int32_t *ipiv, bool with_states = true,
             bool home = true);
  /* Registers the status handle (home: status_buf, {0, UINT64_MAX}). */
  int add_checks();
  /* Registers (anew) lcols and perms, scratch without a home. */
  void add_copies();
  /* Fills gpu_masks when there are several GPUs and the graph's tasks run on them (plain: the
   * plain graph's codelets), else leaves it empty. */
  void place_on_gpus(bool plain);
  /* Where the tasks of block column J run (gpu_masks; chain_masks or rest_masks when they are
   * split, by `chain`), as STARPU_TASK_WORKERIDS wants it. */
  const uint32_t *gpu_mask(int64_t J, unsigned *len, bool chain = false) const
  {
    const std::vector<std::vector<uint32_t>> &m = chain_masks.empty() ? gpu_masks : chain ? chain_masks : rest_masks;
    if (m.empty()) return *len = 0, nullptr;
    const std::vector<uint32_t> &w = m[(size_t)((J / gpu_div) % (int64_t)m.size())];
    return *len = (unsigned)w.size(), w.data();
  }
  /* Unregisters it (waits for its tasks) and frees status_buf. */
  void drop_checks();
  /* Waits for the status tasks and combines them: *info := the first zero on U's diagonal
   * (1-based, 0: none), *nonfinite := whether some entry of L or U is NaN or ±inf. */
  void check_status(int64_t *info, bool *nonfinite) const;
  /* Waits for the tiles' tasks, gathers them home and releases every handle. */
  void destroy();
};

/* Whether the exact tiled graph can run on the workers there are: its panel and U-row codelets
 * need a CPU worker, or a CUDA worker where the build has their CUDA kernels. */
bool tiled_lu_runs();
/* Whether the plain-double tiled graph can run on the workers: LAPACK/BLAS on CPU workers, or
 * cuSOLVER/cuBLAS on CUDA workers (else the plain baseline takes the older column graph). */
bool plain_tiled_lu_runs();
/* Where the exact panel path runs: on the GPU when there is a CUDA worker and the build has the
 * CUDA panel kernels (a CPU worker would pull the block column to the host and back at every
 * step, and dmda's models cannot see that the whole graph then waits on it), else 0 (any). */
unsigned long long panel_where();

/* Submits the whole LU graph on d's tiles (no wait); plain: the plain-double baseline's codelets
 * (d without states). The graph itself is runtime/getrf_tiled_graph.h, shared with the
 * distributed driver. */
int getrf_tiled_insert(const char *who, const tiled_desc &d, int exact_only, bool plain = false);

/* Pieces of the LU drivers (runtime/lu.cpp) the distributed ones reuse: the status of finished
 * factors (info, then NaN/inf), the argument checks of exstar_dgetrf, and exstar_dgesv's solves
 * (A0: the entry matrix for refinement, or NULL). */
int lu_factor_status(const char *who, int64_t m, int64_t n, const double *A, int64_t lda, int64_t *info);
int lu_check_getrf(const char *who, int64_t m, int64_t n, const double *A, int64_t lda, const int32_t *ipiv,
                   const int64_t *info);
int lu_solve(const char *who, int64_t n, int64_t nrhs, const double *LU, int64_t lda, const int32_t *ipiv, double *B,
             int64_t ldb, const double *A0, int steps);

/* A descriptor's tiles (runtime/desc.cpp), for the drivers on descriptors; NULL for NULL. */
const tiled_desc *desc_tiles(exstar_desc desc);

} // namespace exstar_rt
#endif
