/* The tiled exact Cholesky's panel codelets (runtime/potrf.cpp). Their argument block and buffer
 * list are the tiled LU's (codelets/lu_tiled.h): K the block column, J the tile row; buffers
 * EXSTAR_LU_TILE for tiles, EXSTAR_LU_TILE_STATE for their states, EXSTAR_LU_IPIV for the
 * per-column root flags (exstar_cpu_potrf_panel's fail). */
#ifndef EXSTAR_CODELETS_POTRF_TILED_H
#define EXSTAR_CODELETS_POTRF_TILED_H
#include <starpu.h>

/* J == K: RW tile (K,K), R its state, R tiles (K, 0..K-1), W flags(K). CPU, CUDA. */
extern struct starpu_codelet exstar_potrf_diag_cl;
/* J > K: RW tile (J,K), R its state, R tile (K,K), R tiles (J, 0..K-1) and (K, 0..K-1). CPU, CUDA. */
extern struct starpu_codelet exstar_potrf_trsm_cl;
/* The column shape (runtime/potrf_tiled_graph.h): J == K, the whole block column K of L: RW tiles
 * (K..mt-1, K), RW block column K's states (spent) (one handle, EXSTAR_LU_STATE with I = K: rows from
 * K nb), R the column copies lcols[0..K-1], W lcols[K], W flags(K). CPU, CUDA. */
extern struct starpu_codelet exstar_potrf_column_cl;
/* The plain-double baseline on the same graph (LAPACK dpotrf, dtrsm; CPU; no implementation
 * without LAPACK at build time): buffers as the exact ones, no states. */
extern struct starpu_codelet exstar_potrf_plain_diag_cl;
extern struct starpu_codelet exstar_potrf_plain_trsm_cl;
/* R L(I,K), R L(J,K), RW A(I,J): A −= L(I,K)·L(J,K)ᵀ by dgemm (dsyrk when STARPU_VALUE int
 * diagonal is nonzero: I == J, the lower triangle). */
extern struct starpu_codelet exstar_potrf_plain_update_cl;

#endif
