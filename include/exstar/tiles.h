/** @file
 * Tiled matrices and the tiled LU on them, for users' own StarPU graphs (Chameleon's
 * descriptors, reduced to what exstar needs).
 *
 * A descriptor (exstar_desc) is an m x n matrix cut into nb x nb tiles (the last tile row and
 * column smaller), tile (I, J) covering rows [I·nb, ..) and columns [J·nb, ..), each tile its own
 * StarPU matrix handle of doubles. Either exstar registers the tiles over a column-major array of
 * the caller (exstar_desc_create), or the caller hands in tile handles of its own
 * (exstar_desc_create_tiles), which it may already use in its own tasks. The tiled exact LU is
 * then submitted on the tiles (exstar_dgetrf_desc_insert) without any wait, so it composes with
 * the caller's tasks through StarPU's data dependencies: tasks the caller submitted before that
 * write tiles run before the LU reads them, and tasks submitted after that read tiles see the
 * factors. Every entry of L and U and every pivot are bitwise those of exstar_dgetrf (the
 * definition in lapack.h), for every nb.
 *
 * ~~~
 *   exstar_desc A;
 *   exstar_desc_create(&A, n, n, 256, a, lda);      // or exstar_desc_create_tiles(&A, n, n, 256, handles)
 *   exstar_dgetrf_desc_insert(A, ipiv);             // tasks only
 *   ... the caller's own tasks on exstar_desc_tile(A, I, J) ...
 *   exstar_dgetrf_desc_info(A, &info);               // waits for the tiles, LAPACK's info
 *   exstar_desc_destroy(A);                          // a's memory holds L and U
 * ~~~ */
#ifndef EXSTAR_TILES_H
#define EXSTAR_TILES_H
#ifndef EXSTAR_EXSTAR_H
#error "include <exstar/exstar.h>"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** A matrix as nb x nb tiles, one StarPU handle each (opaque). */
typedef struct exstar_desc_s *exstar_desc;

/** Registers the column-major m x n array A (lda >= max(1, m)) as tiles of nb x nb (nb >= 1):
 * the tiles are views of A (home node main memory), so A holds the results once the tiles'
 * tasks are done and the descriptor is destroyed (or the tiles acquired). */
int exstar_desc_create(exstar_desc *desc, int64_t m, int64_t n, int64_t nb, double *A, int64_t lda);
/** A descriptor over the caller's own tile handles: tiles[I + J·mt] (mt = ⌈m/nb⌉ tile rows,
 * nt = ⌈n/nb⌉ tile columns), each a StarPU matrix handle of doubles of exactly
 * min(nb, m − I·nb) x min(nb, n − J·nb). They stay the caller's: exstar_desc_destroy does not
 * unregister them. */
int exstar_desc_create_tiles(exstar_desc *desc, int64_t m, int64_t n, int64_t nb, const starpu_data_handle_t *tiles);
/** The handle of tile (I, J) (NULL outside the grid). */
starpu_data_handle_t exstar_desc_tile(exstar_desc desc, int64_t I, int64_t J);
/** The number of tile rows (mt) and tile columns (nt). */
int64_t exstar_desc_mt(exstar_desc desc);
/** The number of tile columns. */
int64_t exstar_desc_nt(exstar_desc desc);
/** Waits for every task on the descriptor's data, unregisters what exstar registered (the tiles
 * of exstar_desc_create, which writes them back into A; the pivots into ipiv), frees desc. */
int exstar_desc_destroy(exstar_desc desc);

/** Submits the exact tiled LU (partial pivoting) of the matrix desc describes, in place: L and
 * U in the tiles as LAPACK's dgetrf leaves them, ipiv (min(m, n) int32, 1-based, in host memory
 * that stays valid until the tasks are done: after exstar_dgetrf_desc_info or
 * exstar_desc_destroy) the pivots. No wait. The panels and U rows need a CPU worker, or a CUDA
 * worker where the build has their CUDA kernels (else EXSTAR_ERR_NO_WORKER). */
int exstar_dgetrf_desc_insert(exstar_desc desc, int32_t *ipiv);
/** After exstar_dgetrf_desc_insert: waits for the factors and the pivots, and gives LAPACK's info
 * (the first j + 1 with u(j,j) == 0, else 0) and the status of exstar_dgetrf (EXSTAR_SUCCESS,
 * EXSTAR_ERR_SINGULAR, EXSTAR_ERR_NONFINITE when a factor is NaN or ±inf). The factors stay
 * where the tasks left them: the tiles are checked there, and 16 bytes a tile come to the host.
 * On a descriptor where no LU was inserted: EXSTAR_ERR_ARG ("no LU was inserted"). */
int exstar_dgetrf_desc_info(exstar_desc desc, int64_t *info);

#ifdef __cplusplus
}
#endif
#endif
