/** @file
 * Tiled matrices and the tiled LU and Cholesky on them, for users' own StarPU graphs (Chameleon's
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
 * definition in lapack.h), for every nb. The pivots are a StarPU handle of the descriptor
 * (exstar_desc_ipiv), so tasks can depend on them too, and exstar_dgetrs_desc_insert solves on
 * descriptors with the same tasks-only contract.
 *
 * ~~~
 *   exstar_desc A, B;
 *   exstar_desc_create(&A, n, n, 256, a, lda);      // or exstar_desc_create_tiles(&A, n, n, 256, handles)
 *   exstar_desc_create(&B, n, nrhs, 256, b, ldb);
 *   exstar_dgetrf_desc_insert(A, NULL);             // tasks only; the pivots in exstar_desc_ipiv(A)
 *   ... the caller's own tasks on exstar_desc_tile(A, I, J), exstar_desc_ipiv(A) ...
 *   exstar_dgetrs_desc_insert('N', A, B);           // tasks only: B := A⁻¹B
 *   exstar_dgetrf_desc_info(A, &info);               // waits for the tiles, LAPACK's info
 *   exstar_desc_destroy(B), exstar_desc_destroy(A);  // b holds X, a holds L and U
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
/** Waits for the tasks submitted so far that write desc's tiles (its LU's, its Cholesky's, a
 * product into it, the caller's own), moving no tile, and returns the first error a codelet of
 * exstar raised since the last call that reported one (EXSTAR_SUCCESS when none). */
int exstar_desc_wait(exstar_desc desc);
/** The number of tile rows (mt) and tile columns (nt). */
int64_t exstar_desc_mt(exstar_desc desc);
/** The number of tile columns. */
int64_t exstar_desc_nt(exstar_desc desc);
/** The pivots of the descriptor's LU: a StarPU vector handle of min(m, n) int32, LAPACK's
 * 1-based ipiv (row i was interchanged with row ipiv[i] − 1, i increasing), registered by the
 * descriptor (home: main memory) and owned by it (valid until exstar_desc_destroy; do not
 * unregister it). exstar_dgetrf_desc_insert's tasks write it: a task the caller submits on it
 * afterwards (STARPU_R) runs once the pivots are final, with no wait, and one submitted before
 * it runs before they are written. Before the first LU it holds zeros. NULL when min(m, n) == 0
 * or desc is NULL. */
starpu_data_handle_t exstar_desc_ipiv(exstar_desc desc);
/** Waits for every task on the descriptor's data, unregisters what exstar registered (the tiles
 * of exstar_desc_create, which writes them back into A; the pivot handle), frees desc. */
int exstar_desc_destroy(exstar_desc desc);

/** Submits the exact tiled LU (partial pivoting) of the matrix desc describes, in place: L and
 * U in the tiles as LAPACK's dgetrf leaves them, the pivots (LAPACK's 1-based ipiv) in the
 * handle exstar_desc_ipiv(desc). No wait. ipiv may be NULL; when it is not (min(m, n) int32 of
 * host memory that stays valid until then), the pivots are also copied into it as soon as the
 * LU has written them (a callback of StarPU's, no wait): at the latest when
 * exstar_dgetrf_desc_info or exstar_desc_destroy returns. Tasks that need them read the handle.
 * The panels and U rows need a CPU worker, or a CUDA worker where the build has their CUDA
 * kernels (else EXSTAR_ERR_NO_WORKER). */
int exstar_dgetrf_desc_insert(exstar_desc desc, int32_t *ipiv);
/** The plain-double baseline of exstar_dgetrf_desc_insert (NOT exact, NOT reproducible): the same
 * graph on the same tiles with vendor kernels (exstar_dgetrf_plain_tiled's), for benchmarks on
 * tiles that already live where they are computed. Pivots and exstar_dgetrf_desc_info as there. */
int exstar_dgetrf_plain_desc_insert(exstar_desc desc, int32_t *ipiv);
/** After exstar_dgetrf_desc_insert: waits for the factors and the pivots, and gives LAPACK's info
 * (the first j + 1 with u(j,j) == 0, else 0) and the status of exstar_dgetrf (EXSTAR_SUCCESS,
 * EXSTAR_ERR_SINGULAR, EXSTAR_ERR_NONFINITE when a factor is NaN or ±inf). The factors stay
 * where the tasks left them: the tiles are checked there, and 16 bytes a tile come to the host.
 * On a descriptor where no LU was inserted: EXSTAR_ERR_ARG ("no LU was inserted"). */
int exstar_dgetrf_desc_info(exstar_desc desc, int64_t *info);

/** Solves op(A)·X = B on descriptors, X overwriting B's tiles, with the factors and pivots that
 * exstar_dgetrf_desc_insert left in A (n x n) for the nrhs columns of B (n x nrhs, the same
 * tile size nb as A). Its definition is exstar_dgetrs's (lapack.h), so X is bit for bit what
 * exstar_dgetrs(trans, n, nrhs, LU, lda, ipiv, B, ldb) gives on the same factors and pivots:
 * ~~~
 *   trans 'N': x := U⁻¹ (L⁻¹ (P b))      laswp (ipiv forward), trsm ('L','L','N','U'), ('L','U','N','N')
 *   trans 'T': x := P (L⁻ᵀ (U⁻ᵀ b))      trsm ('L','U','T','N'), ('L','L','T','U'), laswp backward
 * ~~~
 * every entry of each column correctly rounded as exstar_dtrsv defines. Tasks only, no wait:
 * they read A's tiles and exstar_desc_ipiv(A) and read and write B's tiles, so they run after
 * the LU's tasks (and the caller's earlier tasks on those handles) through StarPU's data
 * dependencies, and the caller's later tasks on B's tiles see X. How: copy tasks gather A's
 * tiles into one n x n copy and each block column of B into an n x nb copy (kept by the
 * descriptors until exstar_desc_destroy: n² + n·nrhs doubles of host memory), exstar_dgetrs's
 * laswp and exact trsm tasks run on them, one chain a block column of B, and copy tasks write
 * X back into B's tiles. The diagonal of U is not checked (a zero gives the IEEE quotient):
 * check exstar_dgetrf_desc_info first. Errors, before any task (EXSTAR_ERR_ARG, the message
 * naming the argument): trans not 'N'/'T' ('C' is 'T'), A or B NULL or the same descriptor, A
 * not square, B's rows not A's order, B's tile size not A's, no LU inserted on A. */
int exstar_dgetrs_desc_insert(char trans, exstar_desc A, exstar_desc B);

/** Submits the exact product on descriptors, C := α·op(A)·op(B) + β·C with exstar_dgemm's
 * definition: every entry ONE rounding of its exact value, RN(Σ_l α·op(A)_il·op(B)_lj + β·c_ij),
 * bitwise exstar_dgemm's for every tile size, device and scheduler. op(A) is m x k, op(B) k x n
 * and C m x n as the descriptors give them; A, B and C must share one tile size nb. No wait:
 * tasks only (wait for them with exstar_desc_wait(C), which also reports a failed task, or with
 * the caller's own tasks on C's tiles). One task a tile of C reads its whole tile row of op(A) and
 * tile column of op(B) (an entry's k terms take one rounding; exstar_gemm_tiles_cl). On several
 * GPUs tile (I, J) of C is computed on GPU (I mod P)·Q + J mod Q of a P x Q grid as square as
 * the GPU count allows (P the largest divisor at most its square root; GPUs in the order of
 * their first StarPU worker), whatever the scheduler: keep C's tiles there, and A(I, L) and
 * B(L, J) where C(I, L) and C(L, J) would be, and each GPU receives only the tiles of A's rows
 * and B's columns its own tiles of C need. Errors, before any task (EXSTAR_ERR_ARG, the message
 * naming the argument): transa or transb not 'N'/'T'/'C', a NULL descriptor, C the same as A or
 * B, shapes that do not match, different tile sizes. */
int exstar_dgemm_desc_insert(char transa, char transb, double alpha, exstar_desc A, exstar_desc B, double beta,
                             exstar_desc C);

/** Submits the exact tiled Cholesky (exstar_dpotrf's definition, uplo 'L') of the lower
 * triangle of the square matrix desc describes, in place: L in the lower tiles (the strictly
 * upper part of the diagonal tiles and the upper tiles untouched). No wait: tasks only, composed
 * with the caller's through the tiles' data dependencies, as exstar_dgetrf_desc_insert's.
 * Every entry is bitwise exstar_dpotrf's for every nb. The panel tasks need a CPU or CUDA worker
 * (EXSTAR_ERR_NO_WORKER). A second insertion on the same descriptor first waits for the first. */
int exstar_dpotrf_desc_insert(exstar_desc desc);
/** After exstar_dpotrf_desc_insert: waits for the factorization and gives exstar_dpotrf's info
 * and status (EXSTAR_SUCCESS, EXSTAR_ERR_NOT_POSDEF with the first column whose exact value
 * under the root is <= 0, EXSTAR_ERR_NONFINITE when L holds NaN or ±inf: known from the roots,
 * no tile is read or moved). EXSTAR_ERR_ARG when no Cholesky was inserted since the last info. */
int exstar_dpotrf_desc_info(exstar_desc desc, int64_t *info);

#ifdef __cplusplus
}
#endif
#endif
