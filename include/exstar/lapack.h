/** @file
 * exstar — LAPACK-style drivers: getrf, getrs, gesv, batches; potrf, potrs, posv.
 * Included by exstar.h; see there for the conventions (RN, strides, errors).
 *
 * ==== getrf: the definition =====================================================================
 * Left-looking LU with partial pivoting of the column-major m x n matrix A (Algorithm 7 of the
 * reproducible unblocked LU paper). For column j = 0 .. n-1, after the earlier row interchanges
 * (ipiv[0 .. min(j,m)-1]) are applied to column j:
 * ~~~
 *   u(i,j) := RN(a(i,j) − Σ_{k<i} l(i,k)·u(k,j))       for i < min(j, m), in increasing i;
 * and when j < m:
 *   v(i)   := RN(a(i,j) − Σ_{k<j} l(i,k)·u(k,j))       for i >= j;
 *   p      := the first i >= j with the largest |v(i)| (a NaN counts as larger than every
 *             number, so the first NaN wins: the rule of exstar_idamax);
 *   rows j and p are interchanged in columns 0..j; ipiv[j] := p + 1 (1-based, as LAPACK);
 *   u(j,j) := v(p);  l(i,j) := RN(v(i) / u(j,j)) for i > j (one IEEE division each),
 *   unless u(j,j) == ±0: then column j is left unscaled (l(i,j) = v(i)) and the factorization
 *   goes on (LAPACK dgetf2); info := j+1 for the FIRST such j.
 * ~~~
 * Each Σ is exact (every a(i,j) and −l(i,k)·u(k,j) an exact term, with the sum and zero-sign rules
 * of exstar.h), rounded once; so every entry of L and U is one correctly rounded value and any
 * back end, scheduler, worker count or block size gives the same bits. On return A holds U (on
 * and above the diagonal) and the unit lower L (below it), as LAPACK's dgetrf; there are min(m,n)
 * pivots. Special values: NaN and ±inf are factored by the IEEE rules above (no check stops the
 * factorization); the blocking calls then return EXSTAR_ERR_NONFINITE.
 *
 * ==== the tiled graph (exstar_dgetrf, exstar_dgetrf_tiled) =======================================
 * The matrix as nb x nb tiles, each its own StarPU handle, each with a GEMM-accumulate state
 * (level3.h) that holds a(i,j) − Σ l(i,k)·u(k,j) over the panels applied so far. Right-looking,
 * per panel K: the panel task runs the chain below on block column K (each entry rounded from
 * its state plus the panel's own terms when the state's bound proves the rounding, else from
 * the exact sum of all its terms, read from the tiles); laswp tasks apply its interchanges to
 * the other block columns (tiles and states); a task per tile of block row K of U; Level-3
 * state updates state(I,J) −= L(I,K)·U(K,J) for the trailing tiles. Priorities put the panel
 * path (panel, then block column K+1) first. Every entry is the definition's value, so the
 * tiled graph gives the unblocked graph's bits for every nb. The panel, U-row and laswp tasks
 * run on CPU and CUDA workers, on the GPU alone when there is a CUDA worker and the build has
 * their CUDA kernels (the updates on any worker); without either exstar_dgetrf uses the
 * unblocked graph.
 *
 * ==== the unblocked task graph (exstar_dgetrf_unblocked, exstar_dgetrf_insert) ===================
 * The matrix is ONE StarPU matrix handle; per column j the driver submits, with data
 * dependencies only (no wait inside):
 * ~~~
 *   exstar_lu_swap   earlier interchanges applied to column j            (RW A, R ipiv)
 *   exstar_lu_gemv + exstar_lu_trsv   u(0..j-1, j) by blocks of nb rows: the exact −Σ of the
 *                    solved blocks into per-row accumulators, then the unit lower diagonal
 *                    block's substitution                                 (R A, REDUX accs) / (RW A, R accs)
 *   exstar_lu_dot (row j) + exstar_lu_gemv (rows j+1.., row blocks running concurrently)
 *                    acc_i += −Σ_{k<j} l(i,k)·u(k,j)                       (R A, REDUX accs)
 *   exstar_lu_finish v(i) := RN(a(i,j) + acc_i), i >= j                  (R accs, RW A)
 *   exstar_lu_pivot  the pivot search, ipiv[j], the row interchange      (RW A, RW ipiv)
 *   exstar_lu_invscal l(i,j) := RN(v(i)/u(j,j)), skipped for a zero pivot (RW A)
 * ~~~
 * The accumulators (an array of m per column, two arrays reused in turn, zeroed by a task) are
 * exact: their merge order never matters. */
#ifndef EXSTAR_LAPACK_H
#define EXSTAR_LAPACK_H
#ifndef EXSTAR_EXSTAR_H
#error "include <exstar/exstar.h>"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- getrf ------------------------------------------------------------------------------------ */
/** LU of the m x n column-major A (lda >= max(1, m)) as defined above; ipiv gets min(m,n) int32
 * pivots (1-based). Returns EXSTAR_SUCCESS (*info = 0); EXSTAR_ERR_SINGULAR with *info = j+1 for
 * the first zero u(j,j) (the factorization is complete, as LAPACK's with info > 0); or
 * EXSTAR_ERR_NONFINITE when L or U holds a NaN or ±inf (from NaN/inf input, or overflow), *info
 * as before. Bad arguments (m or n < 0, lda < max(1,m), A, ipiv or info NULL with work to do):
 * EXSTAR_ERR_ARG before any task. m == 0 or n == 0: nothing to do, as LAPACK's dgetrf:
 * EXSTAR_SUCCESS, *info = 0 when info is not NULL, A and ipiv untouched (and may be NULL). */
int exstar_dgetrf(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info);
/** The same factorization (the same bits) by the tiled graph, explicitly with tiles of nb x nb
 * (nb == 0: exstar_default_tile; exstar_dgetrf uses that). See "the tiled graph" below. */
int exstar_dgetrf_tiled(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb);
/** The same factorization by the unblocked graph on one matrix handle ("the task graph" above):
 * the reference the tiled one is tested against, and the path of exstar_dgetrf_insert. */
int exstar_dgetrf_unblocked(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info);
/** The default tile edge of the tiled LU: the one set by exstar_set_lu_tile, else, when there
 * is a CUDA worker and the build has the CUDA panel kernels (the panel path then runs on the
 * GPU, CPU workers or not), 2048 if min(m, n) / (the GPUs StarPU drives) >= 32768, 1024 if
 * it is >= 16384, 768 on exactly two GPUs when it is >= 8192, and 512 otherwise; else 128. */
int64_t exstar_default_tile(int64_t m, int64_t n);
/** The tile edge exstar_dgetrf, exstar_dgesv and the batches use from now on: nb > 0, 0 (the
 * default above) or -1 (the unblocked graph). Never changes a bit of the results. */
void exstar_set_lu_tile(int64_t nb);
/** Task form on the user's handles: A is the m x n top-left block of the matrix handle hA (its
 * ld), ipiv the first min(m,n) entries of hipiv, a vector handle of int32. nb: rows per trsv
 * block and per gemv task (<= 0: a default); it never changes the bits. Tasks are only
 * submitted (wait on hA / hipiv as for any task); the caller reads info from the diagonal. */
int exstar_dgetrf_insert(int64_t m, int64_t n, starpu_data_handle_t hA, starpu_data_handle_t hipiv, int64_t nb);
/** A batch of count independent m x n matrices A[b] (each lda) with pivots ipiv[b] and info[b]:
 * every matrix's graph is submitted before any wait, so the tasks of all matrices interleave on
 * all workers. Each result is bit for bit exstar_dgetrf's. Returns the most severe status over
 * the batch (EXSTAR_ERR_NONFINITE, then EXSTAR_ERR_SINGULAR, then EXSTAR_SUCCESS). */
int exstar_dgetrf_batch(int64_t count, int64_t m, int64_t n, double **A, int64_t lda, int32_t **ipiv,
                        int64_t *info);

/* ---- getrs, gesv -------------------------------------------------------------------------------- */
/** Solves op(A)·X = B with the factors of exstar_dgetrf (n x n, lda) for the nrhs columns of B
 * (ldb >= max(1,n)), each column independently (their graphs run concurrently):
 * ~~~
 *   trans 'N': x := U⁻¹ (L⁻¹ (P b))      laswp (ipiv forward), exstar_dtrsv('L','N','U'), ('U','N','N')
 *   trans 'T': x := P (L⁻ᵀ (U⁻ᵀ b))      exstar_dtrsv('U','T','N'), ('L','T','U'), laswp backward
 * ~~~
 * every entry of each solve correctly rounded as exstar_dtrsv defines. The diagonal of U is not
 * checked (a zero gives the IEEE quotient): check getrf's info first. */
int exstar_dgetrs(char trans, int64_t n, int64_t nrhs, const double *LU, int64_t lda, const int32_t *ipiv,
                  double *B, int64_t ldb);
/** A·X = B: exstar_dgetrf on A (overwritten by its factors, ipiv filled), then, when *info == 0,
 * exstar_dgetrs('N') on B, then refine_steps >= 0 steps of iterative refinement per column,
 * with b the entry value of the column and A the entry value of A:
 * ~~~
 *   r := RN(b − A·x)   exact gemv, one rounding per entry;
 *   d := getrs(r);     x := RN(x + d) (one rounding per entry).
 * ~~~
 * *info > 0 (singular): B is left unchanged and EXSTAR_ERR_SINGULAR returned (LAPACK dgesv);
 * EXSTAR_ERR_NONFINITE: as exstar_dgetrf, B is solved anyway. */
int exstar_dgesv(int64_t n, int64_t nrhs, double *A, int64_t lda, int32_t *ipiv, double *B, int64_t ldb,
                 int refine_steps, int64_t *info);

/* ---- potrf, potrs, posv: Cholesky ---------------------------------------------------------------- */
/** Cholesky factorization A = L·Lᵀ (uplo 'L') or A = Uᵀ·U (uplo 'U') of the symmetric n x n
 * matrix whose uplo triangle A holds (column-major, lda >= max(1,n); the other strict triangle
 * is neither read nor written, as LAPACK's dpotrf). The definition, left-looking, for column
 * j = 0 .. n-1 of L (uplo 'U': row j of U, u(j,i) = l(i,j), read from the upper triangle):
 * ~~~
 *   s      := a(j,j) − Σ_{k<j} l(j,k)²                       exact (every −l·l an exact term)
 *   l(j,j) := RN(sqrt(s))                                    one rounding of the exact root
 *   l(i,j) := RN( RN(a(i,j) − Σ_{k<j} l(i,k)·l(j,k)) / l(j,j) )   i > j: one rounding of the
 *             exact sum, then one IEEE division
 * ~~~
 * so every entry is the same bits on every back end, scheduler, worker count and tile size.
 * The exact test of definiteness: *info := j+1 for the FIRST j whose l(j,j) is not a positive
 * number — the exact s is <= 0 or NaN (LAPACK's test, decided on the exact value, not on
 * rounding noise), or s > 0 so tiny that its root rounds to 0 — and the call returns
 * EXSTAR_ERR_NOT_POSDEF: A is then not positive definite by the definition's exact test (or
 * numerically singular at the bottom of the double range). The columns after j are still the
 * definition's values (NaN or ±inf from that root): do not use them (LAPACK leaves them
 * unspecified). EXSTAR_ERR_NONFINITE when info == 0 and L holds NaN or ±inf (NaN or inf input,
 * or overflow). Each s is summed exactly, so a square that overflows a double never spoils it.
 *
 * The tiled graph (exstar_dpotrf: tiles of exstar_default_tile; exstar_dpotrf_tiled: nb, 0 for
 * the default), Chameleon's tiled Cholesky with a GEMM-accumulate state per lower tile: per
 * block column K, a task on the diagonal tile runs the chain above on it (every root from the
 * exact value), then a task per tile below it (concurrently: each off-diagonal sum rounded from
 * the tile's state plus the panel's own terms where the state's bound proves it, else exactly
 * from all its terms), then state(I, J) −= L(I, K)·L(J, K)ᵀ for the trailing lower tiles, the
 * Level-3 state codelet on any worker (CPU, CUDA, OpenCL). The diagonal and panel tasks run on
 * CPU or CUDA workers (EXSTAR_ERR_NO_WORKER with neither); with CUDA workers every task of the
 * graph runs on them, so that no state leaves the GPU. uplo 'U' factors a transposed copy of the
 * upper triangle (n² doubles more). */
///@{
int exstar_dpotrf(char uplo, int64_t n, double *A, int64_t lda, int64_t *info);
int exstar_dpotrf_tiled(char uplo, int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb);
///@}
/** Solves A·X = B with the factor of exstar_dpotrf (uplo as given to it) for the nrhs columns of
 * B (ldb >= max(1,n)): two exact triangular solves, each column bit for bit exstar_dtrsv's,
 * ~~~
 *   uplo 'L': X := L⁻ᵀ (L⁻¹ B)      exstar_dtrsm('L','L','N','N'), then ('L','L','T','N')
 *   uplo 'U': X := U⁻¹ (U⁻ᵀ B)      exstar_dtrsm('L','U','T','N'), then ('L','U','N','N')
 * ~~~
 * The diagonal is not checked (a zero gives the IEEE quotient): check potrf's info first. */
int exstar_dpotrs(char uplo, int64_t n, int64_t nrhs, const double *A, int64_t lda, double *B, int64_t ldb);
/** A·X = B for symmetric positive definite A: exstar_dpotrf on A (its uplo triangle overwritten
 * by the factor), then, when *info == 0, exstar_dpotrs on B, then refine_steps >= 0 steps of
 * iterative refinement on all columns, b and A their entry values (A the full symmetric matrix
 * of the uplo triangle):
 * ~~~
 *   R := RN(B − A·X)   exact gemm, one rounding per entry;
 *   D := potrs(R);     X := RN(X + D) (exact axpy, one rounding per entry).
 * ~~~
 * *info > 0: B is left unchanged and EXSTAR_ERR_NOT_POSDEF returned (LAPACK dposv);
 * EXSTAR_ERR_NONFINITE: B is solved anyway, as exstar_dgesv does. */
int exstar_dposv(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda, double *B, int64_t ldb,
                 int refine_steps, int64_t *info);

/* ---- the plain-double baseline (NOT exact, NOT reproducible) ------------------------------------ */
/** The plain-double baseline of getrf, getrs and gesv (NOT exact, NOT reproducible).
 *
 * exstar_dgetrf_plain: the tiled graph of exstar_dgetrf with vendor kernels in plain double
 * (LAPACK dgetrf on each gathered panel, dtrsm for U's block rows, dgemm updates: OpenBLAS on
 * Debian on CPU workers; cuSOLVER's dgetrf, cublasDtrsm and cublasDgemm on CUDA workers), the
 * honest price of exactness on the same graph. With neither (no CPU worker or no LAPACK at build
 * time, and no CUDA worker), the older naive graph: the column update by naive double loops
 * (a(i,j) −= l(i,k)·u(k,j), k increasing, every product and difference rounded) in ONE task
 * per column. getrs: a naive double substitution. For comparison only (CLI --plain,
 * benchmarks, the accuracy study). Arguments, statuses and info as the exact calls. */
///@{
int exstar_dgetrf_plain(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info);
int exstar_dgetrf_plain_tiled(int64_t m, int64_t n, double *A, int64_t lda, int32_t *ipiv, int64_t *info, int64_t nb);
int exstar_dgetrf_plain_insert(int64_t m, int64_t n, starpu_data_handle_t hA, starpu_data_handle_t hipiv);
int exstar_dgetrf_plain_batch(int64_t count, int64_t m, int64_t n, double **A, int64_t lda, int32_t **ipiv,
                              int64_t *info);
///@}
/** Plain-double getrs, trans 'N' only: x := U⁻¹(L⁻¹(P b)) with naive double substitutions. */
int exstar_dgetrs_plain(int64_t n, int64_t nrhs, const double *LU, int64_t lda, const int32_t *ipiv, double *B,
                        int64_t ldb);
/** Plain-double Cholesky (NOT exact, NOT reproducible): the tiled graph of exstar_dpotrf with
 * LAPACK dpotrf on the diagonal tiles, dtrsm below them and dsyrk/dgemm updates (OpenBLAS on
 * Debian) on CPU workers, cuSOLVER's dpotrf, cublasDtrsm and cublasDsyrk/cublasDgemm on CUDA
 * workers; the honest price of exactness on the same graph. EXSTAR_ERR_NO_WORKER with neither
 * (no CPU worker, or no LAPACK at build time, and no CUDA worker). Arguments, statuses and info
 * as exstar_dpotrf (info from the vendor's rounded test). */
int exstar_dpotrf_plain(char uplo, int64_t n, double *A, int64_t lda, int64_t *info);
/** Plain-double gesv: exstar_dgetrf_plain on A, then, unless it is singular, exstar_dgetrs_plain on B
 * (no refinement); statuses and info as exstar_dgesv. */
int exstar_dgesv_plain(int64_t n, int64_t nrhs, double *A, int64_t lda, int32_t *ipiv, double *B, int64_t ldb,
                       int64_t *info);

/* ---- codelets of the LU graph, for users' graphs ---------------------------------------------- */
/** Argument block of the codelets of the LU graph (one STARPU_VALUE).
 *
 * Buffer 0 (or 1 for finish) is the whole matrix as ONE StarPU matrix handle: element (r, c) at
 * r + c·ld. accs: an array of at least m accumulators (exstar_accs_register), accumulator r for
 * row r. ipiv: int32 vector handle. */
struct exstar_lu_args {
  int64_t m;          /**< rows of the matrix */
  int64_t j;          /**< the column */
  int64_t r0;         /**< trsv, gemv, dot, finish: rows [r0, r0+rlen) */
  int64_t rlen;       /**< number of those rows */
  int64_t k0;         /**< gemv, dot: terms k in [k0, k0+klen) */
  int64_t klen;       /**< number of those terms */
  int64_t npiv;       /**< swap: ipiv[0..npiv-1] applied to column j */
};
extern struct starpu_codelet exstar_lu_swap_cl;    /**< RW A, R ipiv: laswp of column j, k = 1..npiv */
extern struct starpu_codelet exstar_lu_trsv_cl;    /**< RW A, R accs: a(r,j) := RN(acc_r + a(r,j) − Σ_{r0<=k<r} a(r,k)·a(k,j)), r increasing */
extern struct starpu_codelet exstar_lu_gemv_cl;    /**< R A, REDUX accs: acc_r += −Σ_{k0<=k<k0+klen} a(r,k)·a(k,j) */
extern struct starpu_codelet exstar_lu_dot_cl;     /**< the same, for the one row j (its own model) */
extern struct starpu_codelet exstar_lu_finish_cl;  /**< R accs, RW A: a(r,j) := RN(acc_r + a(r,j)) */
extern struct starpu_codelet exstar_lu_pivot_cl;   /**< RW A, RW ipiv: pivot of rows [j, m), ipiv[j], interchange in columns 0..j */
extern struct starpu_codelet exstar_lu_invscal_cl; /**< RW A: a(r,j) := RN(a(r,j)/a(j,j)), r in (j, m), unless a(j,j) == 0 */
extern struct starpu_codelet exstar_lu_plain_cl;   /**< RW A: the plain-double column update (baseline) */
extern struct starpu_codelet exstar_lu_plain_getrs_cl; /**< R LU, R ipiv, RW B (matrix n x nrhs): plain solve, m = n */

#ifdef __cplusplus
}
#endif
#endif
