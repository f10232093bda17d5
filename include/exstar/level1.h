/** @file
 * exstar — Level 1 elementwise operations: scal, invscal, axpy, swap, laswp, iamax.
 * Included by exstar.h; see there for the conventions (RN, strides, errors).
 *
 * scal, invscal and axpy are ONE IEEE operation per element (round to nearest even, IEEE
 * subnormals, overflow to ±inf, NaN/inf by the IEEE rules), so every back end gives the same
 * bits. Vectors given to one call must not overlap in memory (as in BLAS). */
#ifndef EXSTAR_LEVEL1_H
#define EXSTAR_LEVEL1_H
#ifndef EXSTAR_EXSTAR_H
#error "include <exstar/exstar.h>"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- blocking calls on the caller's arrays (split over exstar_set_default_nparts tasks) ---- */

/** scal: x_i := RN(alpha · x_i), i < n. */
int exstar_dscal(int64_t n, double alpha, double *x, int64_t incx);
/** invscal: x_i := RN(x_i / alpha): one correctly rounded division, NOT x_i · RN(1/alpha).
 * alpha = ±0 gives ±inf or NaN (IEEE). */
int exstar_dinvscal(int64_t n, double alpha, double *x, int64_t incx);
/** axpy: y_i := RN(alpha · x_i + y_i) with ONE rounding (fused multiply-add). Every element is
 * computed, also for alpha == 0 (so 0 · inf gives NaN, unlike the reference BLAS's quick
 * return). */
int exstar_daxpy(int64_t n, double alpha, const double *x, int64_t incx, double *y, int64_t incy);
/** swap: x_i <-> y_i. */
int exstar_dswap(int64_t n, double *x, int64_t incx, double *y, int64_t incy);
/** laswp: LAPACK dlaswp. A is column-major with leading dimension lda; in each of the columns
 * [0, n), for k = k1..k2 in order (incx > 0; for incx < 0: k = k2 down to k1), rows k and
 * ipiv[ix-1] are interchanged, where ix starts at k1 (incx > 0) or at k1 + (k1-k2)·incx
 * (incx < 0) and advances by incx (LAPACK's IX). Rows and k1, k2 are 1-BASED, as in LAPACK;
 * ipiv holds int32 values. Requires 1 <= k1, k1-1 <= k2 <= lda, incx != 0 and every used ipiv
 * entry in [1, lda] (the rows touched are the only rows read: lda bounds them). */
int exstar_dlaswp(int64_t n, double *A, int64_t lda, int64_t k1, int64_t k2, const int32_t *ipiv,
                  int64_t incx);
/** iamax: *index := the smallest 0-BASED i < n of the largest |x_i|. A NaN counts as larger than
 * every number, so the first NaN wins (LAPACK's idamax differs on NaNs); n == 0 gives -1. */
int exstar_idamax(int64_t n, const double *x, int64_t incx, int64_t *index);

/* ---- task insertion on the caller's StarPU handles ---------------------------------------- */
/** Task forms of scal and invscal (and, below, axpy and swap) on the caller's StarPU handles.
 *
 * x, y: vector handles of doubles; element i of the vector is at element offset
 * first + i·inc of the handle, first = off (inc > 0) or off + (n-1)·|inc| (inc < 0)
 * (BLAS strides, offsets in elements; core/strides.h's exstar_first_index).
 * Each call submits its tasks with data dependencies and returns without waiting. An
 * elementwise call is one task (split the work by passing sub-handles). x and y must be
 * different handles. */
///@{
int exstar_dscal_insert(int64_t n, double alpha, starpu_data_handle_t x, int64_t offx, int64_t incx);
int exstar_dinvscal_insert(int64_t n, double alpha, starpu_data_handle_t x, int64_t offx, int64_t incx);
///@}
#define EXSTAR_INVSCAL_SKIP_ZERO 1u /**< flag of exstar_dinvscal_insert_h: a ±0 divisor leaves x unchanged */
/** As exstar_dinvscal_insert with the divisor read at run time (mode R) from element off_alpha of
 * h_alpha, a vector handle of doubles (element off_alpha) or a matrix handle of doubles
 * (element (off_alpha % ld, off_alpha / ld), ld its leading dimension in main memory, as
 * registered). flags: EXSTAR_INVSCAL_SKIP_ZERO leaves x unchanged when the divisor is ±0
 * (LAPACK getrf's zero pivot), 0 divides anyway. */
int exstar_dinvscal_insert_h(int64_t n, starpu_data_handle_t h_alpha, int64_t off_alpha, starpu_data_handle_t x,
                             int64_t offx, int64_t incx, unsigned flags);
/** Task forms of axpy and swap: as exstar_dscal_insert (handles, offsets, strides; one task). */
///@{
int exstar_daxpy_insert(int64_t n, double alpha, starpu_data_handle_t x, int64_t offx, int64_t incx,
                        starpu_data_handle_t y, int64_t offy, int64_t incy);
int exstar_dswap_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx, starpu_data_handle_t y,
                        int64_t offy, int64_t incy);
///@}
/** laswp on handle a (RW): a matrix handle of doubles (nrows = its nx, ld its leading dimension
 * wherever the task runs) or a vector handle (one column of nx rows). Columns [col0, col0+n)
 * of it get the interchanges of exstar_dlaswp, rows counted from 1 at its first row. The
 * pivots come from h_ipiv (mode R), a vector handle of int32: LAPACK's IPIV(IX) is element
 * off_ipiv + IX - 1. Their values are known only at run time: an entry outside [1, nrows]
 * is skipped (no interchange) on every back end. */
int exstar_dlaswp_insert_h(int64_t n, starpu_data_handle_t a, int64_t col0, int64_t k1, int64_t k2,
                           starpu_data_handle_t h_ipiv, int64_t off_ipiv, int64_t incx);
/** iamax of (n, x, offx, incx) into index, a StarPU variable handle of one int64_t (mode W):
 * the 0-based index as exstar_idamax. nparts tasks read parts of x in parallel and combine
 * their (|x|, index) pairs through STARPU_REDUX on an internal handle; the combine keeps the
 * larger key, and on equal keys the smaller index (core/iamax.h), which is associative and
 * commutative, so every split and merge order gives the same index. nparts <= 0: one task per
 * worker. */
int exstar_idamax_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx, starpu_data_handle_t index,
                         int nparts);
/** The same, written as a LAPACK pivot: element off_ipiv of the int32 vector handle h_ipiv
 * (mode RW) := index + base (e.g. base = j+1 for row j+index, 1-based). Requires n >= 1. */
int exstar_idamax_ipiv_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx,
                              starpu_data_handle_t h_ipiv, int64_t off_ipiv, int64_t base, int nparts);

/* ---- codelets and their argument blocks (one STARPU_VALUE each), for users' graphs ---- */
/** Arguments of scal, invscal, axpy, swap (alpha unused by swap). */
struct exstar_level1_args {
  int64_t n;          /**< elements */
  double alpha;       /**< the scalar */
  int64_t offx;       /**< first element in buffer 0 (x) */
  int64_t incx;       /**< stride in buffer 0 */
  int64_t offy;       /**< first element in buffer 1 (y: axpy, swap) */
  int64_t incy;       /**< stride in buffer 1 */
};
/** Arguments of invscal_h: buffer 0: divisor handle (vector or matrix), buffer 1: x. */
struct exstar_invscal_h_args {
  int64_t n;          /**< elements of x */
  int64_t alpha_row;  /**< the divisor's element: row */
  int64_t alpha_col;  /**< the divisor's element: column (0 for a vector handle) */
  int64_t offx;       /**< first element of x in buffer 1 */
  int64_t incx;       /**< stride of x */
  int64_t skip_zero;  /**< nonzero: a ±0 divisor leaves x unchanged */
};
/** Arguments of laswp: buffer 0: A (vector or matrix), buffer 1: ipiv (int32 vector). */
struct exstar_laswp_args {
  int64_t n;          /**< columns */
  int64_t col0;       /**< first column */
  int64_t k1;         /**< first pivot (1-based, LAPACK's K1) */
  int64_t k2;         /**< last pivot (1-based, LAPACK's K2) */
  int64_t offipiv;    /**< LAPACK's IPIV(IX) is element offipiv + IX - 1 of buffer 1 */
  int64_t incx;       /**< LAPACK's INCX */
};
/** Arguments of iamax: buffer 0: x, buffer 1: state (REDUX). */
struct exstar_iamax_args {
  int64_t n;          /**< elements of this part */
  int64_t offx;       /**< first element in buffer 0 */
  int64_t incx;       /**< stride in buffer 0 */
  int64_t base; /**< the 0-based index of this part's element 0 within the whole vector */
};
/** Arguments of iamax_ipiv: buffer 0: state, buffer 1: ipiv (int32 vector). */
struct exstar_iamax_ipiv_args {
  int64_t off;        /**< element of the ipiv vector written */
  int64_t base;       /**< added to the 0-based index */
};
extern struct starpu_codelet exstar_scal_cl;        /**< RW x */
extern struct starpu_codelet exstar_invscal_cl;     /**< RW x */
extern struct starpu_codelet exstar_invscal_h_cl;   /**< R alpha, RW x */
extern struct starpu_codelet exstar_axpy_cl;        /**< R x, RW y */
extern struct starpu_codelet exstar_swap_cl;        /**< RW x, RW y */
extern struct starpu_codelet exstar_laswp_cl;       /**< RW A, R ipiv */
/* iamax states: vector handles of 2 int64 words {key, index} (core/iamax.h), with reduction
 * methods exstar_iamax_redux_cl / exstar_iamax_init_cl. */
extern struct starpu_codelet exstar_iamax_cl;       /**< R x, REDUX state */
extern struct starpu_codelet exstar_iamax_init_cl;  /**< W state: empty */
extern struct starpu_codelet exstar_iamax_redux_cl; /**< RW dst, R src */
extern struct starpu_codelet exstar_iamax_index_cl; /**< R state, W index (variable int64) */
extern struct starpu_codelet exstar_iamax_ipiv_cl;  /**< R state, RW ipiv (int32 vector) */

#ifdef __cplusplus
}
#endif
#endif
