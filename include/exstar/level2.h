/** @file
 * exstar — Level 2: gemv, trsv, refined trsv.
 * Included by exstar.h; see there for the conventions (RN, strides, errors). */
#ifndef EXSTAR_LEVEL2_H
#define EXSTAR_LEVEL2_H
#ifndef EXSTAR_EXSTAR_H
#error "include <exstar/exstar.h>"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== gemv ==================================================================================== */
/** gemv: y := α·op(A)·x + β·y with ONE rounding per entry of the exact value,
 * ~~~
 *   y_i := RN( Σ_j α·op(A)_ij·x_j + β·y_i ),
 * ~~~
 * op(A) = A (trans 'N'/'n': A is m x n, x has n entries, y has m) or Aᵀ ('T'/'t'/'C'/'c': x has
 * m entries, y has n). A is column-major with lda >= max(1, m). Every α·a_ij·x_j and β·y_i is
 * an exact real term (no intermediate rounding, also when α·a_ij·x_j lies beyond the double
 * range), for every finite α and β. Special values, per term (IEEE rules for a product of three
 * factors): any NaN factor gives a NaN term; an infinite factor with a zero factor gives NaN;
 * otherwise an infinite factor gives an infinity of the product's sign; a zero factor gives a
 * zero of the product's sign; then the sum rules of exstar.h (a NaN term gives NaN, +inf with
 * -inf gives NaN, an exact zero is -0 only when every term is -0). So α == 0 still reads A and
 * x (an inf or NaN there gives NaN), unlike the reference BLAS's quick return.
 * β == 0: y is not read (it may hold NaN) and there is no β·y term (BLAS); m == 0 or n == 0
 * leaves an empty sum (+0) plus β·y. */
int exstar_dgemv(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t lda,
                 const double *x, int64_t incx, double beta, double *y, int64_t incy);
/** Task form on the user's handles: A a StarPU matrix handle (its ld), x, y vector handles, element offsets;
   split into row blocks x column blocks of at most mb x nb (0: a default), which never changes the bits.
   A's block is a(ia + i, ja + j); x and y start at element offx/offy of their handles (BLAS strides).
   Tasks are only submitted: the caller waits on y (e.g. starpu_data_acquire) as for any task.
   An operand with no element (A when m or n is 0, x or y of length 0) is not read: its handle may be NULL. */
int exstar_dgemv_insert(char trans, int64_t m, int64_t n, double alpha, starpu_data_handle_t A, int64_t ia, int64_t ja,
                        starpu_data_handle_t x, int64_t offx, int64_t incx, double beta,
                        starpu_data_handle_t y, int64_t offy, int64_t incy, int64_t mb, int64_t nb);
/* The two codelets gemv is made of, for users' graphs and for trsv/LU: */
/** Arguments of exstar_gemv_acc_cl. */
struct exstar_gemv_acc_args {
  char trans;          /**< 'N': acc[offacc+i] += α·Σ_j a(ia+i, ja+j)·x_j for i < m; 'T': acc[offacc+j] += α·Σ_i a(ia+i, ja+j)·x_i for j < n */
  int64_t m;           /**< rows of the block of the matrix handle */
  int64_t n;           /**< columns of the block */
  int64_t ia;          /**< row offset of the block (the ld comes from the handle) */
  int64_t ja;          /**< column offset of the block */
  double alpha;        /**< the scalar α, read per term */
  int64_t offx;        /**< x in its vector handle: first element (BLAS strides) */
  int64_t incx;        /**< x's stride (negative allowed) */
  int64_t offacc;      /**< first accumulator used, in the accumulator-array handle */
};
extern struct starpu_codelet exstar_gemv_acc_cl;    /**< R A (matrix), R x (vector), REDUX accs (vector of count*EXSTAR_ACC_WORDS int64) */
/** Arguments of exstar_gemv_finish_cl. */
struct exstar_gemv_finish_args {
  int64_t n;           /**< entries of y */
  double beta;         /**< the scalar β (0: y not read) */
  int64_t offy;        /**< y in its vector handle: first element */
  int64_t incy;        /**< y's stride */
  int64_t offacc;      /**< first accumulator used */
};
extern struct starpu_codelet exstar_gemv_finish_cl; /**< R accs, RW y (vector): y_i := RN(acc_{offacc+i} + β·y_i); β == 0: y not read */
/** A new zeroed array of count accumulators with the reduction methods set (for STARPU_REDUX).
   Unregister it with starpu_data_unregister_submit (or exstar_acc_unregister). count <= 2^32/EXSTAR_ACC_WORDS.
   Marked as exstar's in its user data, as exstar_acc_register's. */
int exstar_accs_register(starpu_data_handle_t *accs, int64_t count);
/* ==== end gemv ================================================================================ */

/* ==== trsv ==================================================================================== */
/** trsv: solves op(T)·x = b, op(T) = T (trans 'N') or Tᵀ ('T'; 'C' is 'T'), T n x n triangular
 * (uplo 'L'/'U': the triangle read; the other is never read), column-major, ldt >= max(1, n).
 * x holds b on entry. In substitution order (first to last row of op(T) when op(T) is lower,
 * last to first when upper), with the sum over the already computed x_j only:
 * ~~~
 *   x_i := RN( RN(b_i − Σ_j op(T)_ij·x_j) / op(T)_ii )      (diag 'N')
 *   x_i := RN(b_i − Σ_j op(T)_ij·x_j)                         (diag 'U': op(T)_ii = 1, not read)
 * ~~~
 * The Σ is exact: b_i and every −op(T)_ij·x_j are exact terms with the sum rules of exstar.h
 * (so the exact zero is −0 only when b_i and every −op(T)_ij·x_j are −0), rounded once; the
 * division is one IEEE division. A zero op(T)_ii with diag 'N' is not divided by:
 * EXSTAR_ERR_SINGULAR, *info = i+1 for the first (smallest) such i, x unchanged, checked before
 * any task is submitted; otherwise *info = 0. (NaN or inf on the diagonal are not zero.)
 * Blocked as a task graph (blocks of nb rows: the exact accumulators of each block row take the
 * solved blocks' contributions through exstar_gemv_acc_cl with α = −1, then a diagonal-block
 * task substitutes); the block size, scheduler and workers never change the bits. With CPU
 * workers only, the blocks' contributions go into bounded double-doubles instead, and a row
 * whose rounding they cannot prove is recomputed exactly (the same bits; exstar_set_exact_only). */
int exstar_dtrsv(char uplo, char trans, char diag, int64_t n, const double *T, int64_t ldt, double *x,
                 int64_t incx, int64_t *info);
/** Task form: T is T(it + i, jt + j) of a StarPU matrix handle (its ld), x starts at element offx
 * of a vector handle (BLAS strides); nb <= 0: a default block size (256 rows, 512 when CUDA
 * workers run). The diagonal is NOT checked here (the data may not exist yet): a zero op(T)_ii
 * gives the IEEE quotient (±inf or NaN). Tasks are only submitted; wait on x as for any task. */
int exstar_dtrsv_insert(char uplo, char trans, char diag, int64_t n, starpu_data_handle_t T, int64_t it,
                        int64_t jt, starpu_data_handle_t x, int64_t offx, int64_t incx, int64_t nb);

/** Refined trsv (Algorithm 6 of the reproducible unblocked LU paper). With b the entry value of x:
 * ~~~
 *   x := trsv(T, b); then `steps` times:
 *     r := RN(b − op(T)·x)   one rounding per entry of the exact value, the product over the
 *                            stored triangle only (the unit diagonal's term is x_i itself):
 *                            r_i := RN(b_i − Σ_{j in the triangle of row i} op(T)_ij·x_j);
 *     d := trsv(T, r)        as exstar_dtrsv;
 *     x := RN(x + d)         x_i := RN(x_i + d_i), one rounding (axpy with α = 1).
 * ~~~
 * steps >= 0 (0: exstar_dtrsv). Errors and info as exstar_dtrsv. */
int exstar_dtrsv_refined(char uplo, char trans, char diag, int64_t n, const double *T, int64_t ldt, double *x,
                         int64_t incx, int steps, int64_t *info);
/** Task form of the same (workspaces registered and released inside; diagonal not checked). */
int exstar_dtrsv_refined_insert(char uplo, char trans, char diag, int64_t n, starpu_data_handle_t T,
                                int64_t it, int64_t jt, starpu_data_handle_t x, int64_t offx, int64_t incx,
                                int steps, int64_t nb);

/* The codelets trsv is made of (with exstar_gemv_acc_cl), for users' graphs: */
/** Arguments of exstar_trsv_diag_cl and exstar_trsv_resid_cl. */
struct exstar_trsv_block_args {
  char uplo;                 /**< 'L'/'U' (upper case) */
  char trans;                /**< 'N'/'T' (upper case) */
  char diag;                 /**< 'N'/'U' (upper case) */
  int64_t nb;                /**< rows of the diagonal block */
  int64_t it;                /**< its element (0,0) is T(it, jt) of the matrix handle: row */
  int64_t jt;                /**< column of that element */
  int64_t offx;              /**< x of the block in its vector handle: first element */
  int64_t incx;              /**< x's stride */
  int64_t offb;              /**< trsv_resid only: b of the block, first element */
  int64_t incb;              /**< trsv_resid only: b's stride */
  int64_t offr;              /**< trsv_resid only: r of the block, first element */
  int64_t incr;              /**< trsv_resid only: r's stride */
};
/** R T, R accs (nb accumulators: the exact −Σ over the other blocks of each row), RW x:
 * x_r := RN(RN(acc_r + x_r − Σ_{k in block, solved before r} op(T)_rk·x_k) / op(T)_rr) in
 * substitution order (no division for diag 'U'). */
extern struct starpu_codelet exstar_trsv_diag_cl;
/** R T, R accs, R x, R b, RW r: r_i := RN(acc_i + b_i − Σ_{k in block, triangle} op(T)_ik·x_k). */
extern struct starpu_codelet exstar_trsv_resid_cl;
/** Arguments of exstar_trsv_update_cl and exstar_trsv_copy_cl. */
struct exstar_trsv_update_args {
  int64_t n;                 /**< entries */
  int add;                   /**< 1: x_i := RN(x_i + d_i); 0: x_i := d_i (copy) */
  int64_t offd;              /**< d in its vector handle: first element */
  int64_t incd;              /**< d's stride */
  int64_t offx;              /**< x in its vector handle: first element */
  int64_t incx;              /**< x's stride */
};
extern struct starpu_codelet exstar_trsv_update_cl; /**< R d, RW x */
extern struct starpu_codelet exstar_trsv_copy_cl;   /**< R d, W x: x_i := d_i whatever add */
/* ==== end trsv ================================================================================ */

#ifdef __cplusplus
}
#endif
#endif
