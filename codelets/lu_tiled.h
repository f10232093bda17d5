/* The tiled exact LU's codelets and their argument block, shared by codelets/lu_tiled.cpp and
 * runtime/getrf_tiled.cpp (internal: the tiled LU is used through its drivers). */
#ifndef EXSTAR_CODELETS_LU_TILED_H
#define EXSTAR_CODELETS_LU_TILED_H
#include <starpu.h>
#include <stdint.h>

/* The buffers of a task: tiles of the matrix, their states, the panel's pivots, the column
 * copies of L (lc) and the row orders (perm) of exstar_tile_view (block column J of each). */
enum { EXSTAR_LU_TILE = 0, EXSTAR_LU_STATE = 1, EXSTAR_LU_IPIV = 2, EXSTAR_LU_LCOL = 3, EXSTAR_LU_PERM = 4 };
/* One tile's own state handle (I, J) (the Cholesky's states: a handle a tile, not a block column). */
enum { EXSTAR_LU_TILE_STATE = 5 };
struct exstar_lu_tiled_buf {
  int32_t I, J, kind;
};
/* Followed in memory by nbuf exstar_lu_tiled_buf, one per buffer in order. */
struct exstar_lu_tiled_args {
  int64_t m, n, nb, mt, nt;
  int64_t K, J; /* the panel; the block column (urow, laswp) */
  int32_t exact_only, nbuf;
  int32_t gate; /* a panel: closes its GPU's gate (exstar_codelet_cuda_gate_close) behind its kernels */
  int32_t reserved;
};

/* The panel and U-row codelets run on CPU workers, and on CUDA workers when the build has the
 * CUDA kernels (cuda_funcs[0] set). */
extern struct starpu_codelet exstar_lu_panel_cl; /* RW panel tiles and states, R tiles above, R lc and perm left,
                                                    W lc(K), perm(K), ipiv (or R tiles left: no copies) */
extern struct starpu_codelet exstar_lu_urow_cl;  /* RW tile (K,J), RW its state (the GPU may spend it), R lc
                                                    and perm 0..K (or tiles L(K, 0..K)), R U(0..K-1, J) */
extern struct starpu_codelet exstar_lu_laswp_cl; /* RW tiles (and states) of block column J, rows >= K nb; R ipiv; CPU or CUDA */
extern struct starpu_codelet exstar_lu_laswp_host_cl; /* the same for any number of tiles: CPU or CUDA */
#define EXSTAR_LU_LASWP_DEVICE_TILES 96
/* R a finished tile of the factors, RW|COMMUTE the factorization's status (a vector of 2 uint64,
 * exstar_cpu_lu_check); STARPU_VALUE int64 ndiag, int64 diag0. CPU or CUDA. */
extern struct starpu_codelet exstar_lu_check_cl;

/* The plain-double baseline on the same graph (LAPACK dgetrf panel, dtrsm, dgemm; CPU only;
 * without LAPACK at build time they have no implementation). */
extern struct starpu_codelet exstar_lu_plain_panel_cl;
extern struct starpu_codelet exstar_lu_plain_urow_cl;
extern struct starpu_codelet exstar_lu_plain_gemm_cl; /* R L(I,K), R U(K,J), RW A(I,J) */
/* The same for a whole block column: R L(I, K) for I > K, R U(K, J), RW A(I, J) for I > K (a
 * tiled task: args and buffers as the panel's). */
extern struct starpu_codelet exstar_lu_plain_gemm_col_cl;

#endif
