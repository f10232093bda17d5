/** @file
 * exstar — Level 3: gemm, trsm, and the GEMM-accumulate state that factorizations build on.
 * Included by exstar.h; see there for the conventions (RN, errors) and level2.h for gemv's
 * per-term rules, which gemm follows entry by entry. */
#ifndef EXSTAR_LEVEL3_H
#define EXSTAR_LEVEL3_H
#ifndef EXSTAR_EXSTAR_H
#error "include <exstar/exstar.h>"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== gemm ==================================================================================== */
/** gemm: C := α·op(A)·op(B) + β·C with ONE rounding per entry of the exact value,
 * ~~~
 *   c_ij := RN( Σ_l α·op(A)_il·op(B)_lj + β·c_ij ),
 * ~~~
 * op(X) = X ('N'/'n') or Xᵀ ('T'/'t'/'C'/'c'); op(A) is m x k, op(B) k x n, C m x n, all
 * column-major with lda >= max(1, rows of A as stored) (m for 'N', k for 'T'), likewise ldb,
 * and ldc >= max(1, m). Entry by entry this is exstar_dgemv's definition: every α·a·b and β·c
 * is an exact real term, with the IEEE special-value rules of level2.h (a NaN factor gives a
 * NaN term, inf·0 NaN, an exact zero is −0 only when every term is −0), so α == 0 still reads
 * A and B; β == 0: C is not read (BLAS); k == 0 leaves the empty sum (+0) plus β·c.
 * How it is computed never shows in the bits: each entry is either proven correctly rounded
 * by a cheap bounded sum (core/gemm.h) or recomputed exactly. */
int exstar_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double *A,
                 int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
/** Task form: ONE task on the caller's StarPU matrix handles (tiles): the block of C at
 * C(ic + i, jc + j), i < m, j < n, with op(A)'s block starting at A(ia, ja) as stored (m x k
 * for 'N', k x m for 'T') and op(B)'s at B(ib, jb). C is accessed STARPU_RW (STARPU_W when
 * β == 0 and the block is the whole handle). Split a large product into tiles yourself (or use
 * exstar_dgemm); tiles never change the bits. */
int exstar_dgemm_insert(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                        starpu_data_handle_t A, int64_t ia, int64_t ja, starpu_data_handle_t B, int64_t ib,
                        int64_t jb, double beta, starpu_data_handle_t C, int64_t ic, int64_t jc);

/* ==== trsm ==================================================================================== */
/** trsm: side 'L': op(T)·X = α·B (T m x m); side 'R': X·op(T) = α·B (T n x n); X overwrites
 * B (m x n, ldb >= max(1, m)); uplo, transa, diag as in trsv. Every column of X (side L) or
 * row (side R) is bit for bit what exstar_dtrsv computes for it from α·b:
 * ~~~
 *   x_i := RN( RN(α·b_i − Σ_j op_e(T)_ij·x_j) / op_e(T)_ii )     (diag 'U': no division)
 * ~~~
 * in substitution order, where α·b_i and every −op_e(T)_ij·x_j are exact terms (α is applied
 * as one exact factor of b, not by a rounded scaling first) and op_e = op for side L, its
 * transpose for side R. α == 1 gives exactly exstar_dtrsv's results. α == 0: X := +0, neither
 * B nor T read (BLAS). A zero on the diagonal (diag 'N') is EXSTAR_ERR_SINGULAR (the message
 * names the first one), checked before any task, B unchanged. */
int exstar_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                 const double *T, int64_t ldt, double *B, int64_t ldb);
/** Task form: ONE task; T's triangle starts at T(it, jt), B's block at B(ib, jb) of the caller's
 * matrix handles. The diagonal is not checked (a zero gives the IEEE quotient). */
int exstar_dtrsm_insert(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                        starpu_data_handle_t T, int64_t it, int64_t jt, starpu_data_handle_t B, int64_t ib,
                        int64_t jb);

/* ==== the GEMM-accumulate state ================================================================ */
/* A factorization adds many tiles of products into the same entries and rounds each entry
 * once, where the algorithm decides. exstar keeps for every such entry a STATE: a bounded
 * double-double (hi + lo and a rigorous bound of everything lost, 32 bytes), registered as a
 * StarPU matrix handle of those 32-byte elements. Adding a tile's terms into it is Level-3
 * fast and order-free within its bound; rounding it either proves RN(exact) or declines, and
 * a declined entry must be recomputed exactly by the caller from its terms (which a
 * factorization still has: the entries of L and U). A full exact accumulator is 1.6 KB an
 * entry; the state is 32 bytes. */
/** Bytes of one entry of a GEMM-accumulate state (a bounded double-double: hi, lo, err, mag). */
#define EXSTAR_STATE_ENTRY_BYTES 32
/** A new m x n state handle, all zero (no home buffer: StarPU allocates it where it is used and
 * fills it with exstar_state_zero_cl on first use). Unregister it with starpu_data_unregister
 * (or _submit). */
int exstar_state_register(starpu_data_handle_t *st, int64_t m, int64_t n);
/** st(is + i, js + j) := C(ic + i, jc + j) as one exact term, i < m, j < n. */
int exstar_state_init_insert(int64_t m, int64_t n, starpu_data_handle_t C, int64_t ic, int64_t jc,
                             starpu_data_handle_t st, int64_t is, int64_t js);
/** st(is + i, js + j) += sign·Σ_l op(A)_il·op(B)_lj (sign +1 or −1), blocks as exstar_dgemm_insert. */
int exstar_state_gemm_insert(char transa, char transb, int64_t m, int64_t n, int64_t k, double sign,
                             starpu_data_handle_t A, int64_t ia, int64_t ja, starpu_data_handle_t B, int64_t ib,
                             int64_t jb, starpu_data_handle_t st, int64_t is, int64_t js);
/** C(ic + i, jc + j) := RN(st(is + i, js + j)) where the state proves it; mask (a StarPU vector
 * handle of m*n bytes, index i + j*m, or NULL) receives 1 for each entry left unchanged
 * because its rounding was declined. */
int exstar_state_round_insert(int64_t m, int64_t n, starpu_data_handle_t st, int64_t is, int64_t js,
                              starpu_data_handle_t C, int64_t ic, int64_t jc, starpu_data_handle_t mask);

/* ==== codelets, for users' own graphs ========================================================== */
/** Arguments of exstar_gemm_cl, exstar_gemm_w_cl and exstar_state_gemm_cl (one STARPU_VALUE). */
struct exstar_gemm_args {
  char transa;         /**< 'N' or 'T': op(A) */
  char transb;         /**< 'N' or 'T': op(B) */
  int64_t m;           /**< rows of op(A) and of the C block */
  int64_t n;           /**< columns of op(B) and of the C block */
  int64_t k;           /**< terms of each entry */
  double alpha;        /**< gemm: α; state_gemm: the sign (+1 or −1) */
  double beta;         /**< gemm: β (0: C not read); state_gemm: unused */
  int64_t ia;          /**< row of op(A)'s block origin in buffer 0, as stored */
  int64_t ja;          /**< column of that origin */
  int64_t ib;          /**< row of op(B)'s block origin in buffer 1, as stored */
  int64_t jb;          /**< column of that origin */
  int64_t ic;          /**< row of the C (or state) block in buffer 2 */
  int64_t jc;          /**< column of that block */
  int exact_only;      /**< nonzero: every entry by the exact path (tests; same bits) */
  char uplo;           /**< state_gemm only: 'L': only the entries i >= j of the block are needed
                            (the others may be left as they are: the CPU kernel skips them, CUDA
                            and OpenCL compute them all); 0 or anything else: all. gemm: unused */
};
/** Arguments of exstar_gemm_tiles_cl (one STARPU_VALUE). Its buffers (a variable number, modes
 * given by the task: STARPU_DATA_MODE_ARRAY) are kt matrix tiles of op(A) as stored (R), kt tiles
 * of op(B) (R), then C's tile (RW, or W when β == 0), kt >= 1 when k > 0: tile l of op(A) holds
 * the terms [l·kb, min(k, (l+1)·kb)) of its m rows, tile l of op(B) the same terms of its n
 * columns. C := RN(α·op(A)·op(B) + β·C) entry by entry, exstar_dgemm's bits. */
struct exstar_gemm_tiles_args {
  char transa;    /**< 'N' or 'T': op(A) */
  char transb;    /**< 'N' or 'T': op(B) */
  int64_t m;      /**< rows of op(A) and of C's tile */
  int64_t n;      /**< columns of op(B) and of C's tile */
  int64_t k;      /**< terms of each entry */
  int64_t kb;     /**< terms a tile (the last may hold fewer) */
  int64_t kt;     /**< tiles of each operand: ceil(k / kb), 0 when k == 0 */
  double alpha;   /**< α */
  double beta;    /**< β (0: C not read) */
  int exact_only; /**< nonzero: every entry by the exact path (tests; same bits) */
};
extern struct starpu_codelet exstar_gemm_tiles_cl; /**< kt x R op(A), kt x R op(B), RW or W C */
extern struct starpu_codelet exstar_gemm_cl;       /**< R A, R B, RW C */
extern struct starpu_codelet exstar_gemm_w_cl;     /**< R A, R B, W C (β == 0, whole handle) */
extern struct starpu_codelet exstar_state_gemm_cl; /**< R A, R B, RW st */
/** Arguments of the state codelets below (one STARPU_VALUE). */
struct exstar_state_args {
  int64_t m;  /**< rows of the block */
  int64_t n;  /**< columns of the block */
  int64_t ic; /**< row of the block in the C buffer */
  int64_t jc; /**< column of the block in the C buffer */
  int64_t is; /**< row of the block in the state buffer */
  int64_t js; /**< column of the block in the state buffer */
};
extern struct starpu_codelet exstar_state_init_cl;  /**< R C, RW st: st := C */
/** Arguments of exstar_state_init_tiles_cl (one STARPU_VALUE). Its buffers (a variable number,
 * modes given by the task: STARPU_DATA_MODE_ARRAY) are `count` matrix tiles stacked top to
 * bottom (R), then the state (W or RW) of their rows and columns: the state's rows from the
 * first tile's on take each tile's values, one task for a block column (a task a tile
 * serializes on the state's handle). */
struct exstar_state_init_tiles_args {
  int64_t count; /**< tiles, >= 1; the state is buffer `count` */
};
extern struct starpu_codelet exstar_state_init_tiles_cl; /**< count x R C, W st: st := the tiles */
extern struct starpu_codelet exstar_state_round_cl; /**< R st, RW C, W mask: C := RN(st) where proven */
extern struct starpu_codelet exstar_state_round_nomask_cl; /**< R st, RW C: the same without a mask */
extern struct starpu_codelet exstar_state_zero_cl;  /**< W st: every entry 0 (a state handle's init method) */
/** Arguments of exstar_trsm_cl (one STARPU_VALUE). */
struct exstar_trsm_args {
  char side;       /**< 'L' or 'R' */
  char uplo;       /**< 'L' or 'U': the triangle of T read */
  char transa;     /**< 'N' or 'T' */
  char diag;       /**< 'N' or 'U' (unit: the diagonal not read) */
  int64_t m;       /**< rows of B */
  int64_t n;       /**< columns of B */
  double alpha;    /**< α, one exact factor of b */
  int64_t it;      /**< row of T's origin in buffer 0 */
  int64_t jt;      /**< column of T's origin */
  int64_t ib;      /**< row of B's block in buffer 1 */
  int64_t jb;      /**< column of B's block */
  int exact_only;  /**< nonzero: every row by the exact path (tests; same bits) */
};
extern struct starpu_codelet exstar_trsm_cl; /**< R T, RW B */

/** Diagnostics: nonzero sends every Level-3 entry, and every gemv entry and trsv row, through
 * the exact path for the calls and insertions that follow (the bits are the same; tests prove
 * it). Also set by the environment variable EXSTAR_EXACT_ONLY=1 at exstar_init. */
void exstar_set_exact_only(int exact_only);

#ifdef __cplusplus
}
#endif
#endif
