/* The tiled exact Cholesky's panel codelets (runtime/potrf.cpp). Their argument block and buffer
 * list are the tiled LU's (codelets/lu_tiled.h): K the block column, J the tile row; buffers
 * EXSTAR_LU_TILE for tiles, EXSTAR_LU_TILE_STATE for their states, EXSTAR_LU_IPIV for the
 * per-column root flags (exstar_cpu_potrf_panel's fail). */
#ifndef EXSTAR_CODELETS_POTRF_TILED_H
#define EXSTAR_CODELETS_POTRF_TILED_H
#include <starpu.h>

/* J == K: RW tile (K,K), R its state, R tiles (K, 0..K-1), W flags(K). CPU. */
extern struct starpu_codelet exstar_potrf_diag_cl;
/* J > K: RW tile (J,K), R its state, R tile (K,K), R tiles (J, 0..K-1) and (K, 0..K-1). CPU. */
extern struct starpu_codelet exstar_potrf_trsm_cl;

#endif
