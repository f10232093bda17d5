/* The tiled exact Cholesky's panel codelet (runtime/potrf.cpp). Its argument block and buffer
 * list are the tiled LU's (codelets/lu_tiled.h): EXSTAR_LU_TILE for the panel's tiles,
 * EXSTAR_LU_STATE for its states, EXSTAR_LU_LCOL for the column copies of L, EXSTAR_LU_IPIV
 * for the per-column root flags (exstar_cpu_potrf_panel's fail). */
#ifndef EXSTAR_CODELETS_POTRF_TILED_H
#define EXSTAR_CODELETS_POTRF_TILED_H
#include <starpu.h>

/* RW tiles (I >= K, K), R state(K), R lc(0..K-1), W lc(K), W flags(K). CPU. */
extern struct starpu_codelet exstar_potrf_panel_cl;

#endif
