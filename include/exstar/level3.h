/* exstar — Level 3: gemm, trsm, and the GEMM-accumulate state that factorizations build on.
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
/* gemm: C := α·op(A)·op(B) + β·C with ONE rounding per entry of the exact value,
 *   c_ij := RN( Σ_l α·op(A)_il·op(B)_lj + β·c_ij ),
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
/* Task form: ONE task on the caller's StarPU matrix handles (tiles): the block of C at
 * C(ic + i, jc + j), i < m, j < n, with op(A)'s block starting at A(ia, ja) as stored (m x k
 * for 'N', k x m for 'T') and op(B)'s at B(ib, jb). C is accessed STARPU_RW (STARPU_W when
 * β == 0 and the block is the whole handle). Split a large product into tiles yourself (or use
 * exstar_dgemm); tiles never change the bits. */
int exstar_dgemm_insert(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                        starpu_data_handle_t A, int64_t ia, int64_t ja, starpu_data_handle_t B, int64_t ib,
                        int64_t jb, double beta, starpu_data_handle_t C, int64_t ic, int64_t jc);

/* ==== trsm ==================================================================================== */
/* trsm: side 'L': op(T)·X = α·B (T m x m); side 'R': X·op(T) = α·B (T n x n); X overwrites
 * B (m x n, ldb >= max(1, m)); uplo, transa, diag as in trsv. Every column of X (side L) or
 * row (side R) is bit for bit what exstar_dtrsv computes for it from α·b:
 *   x_i := RN( RN(α·b_i − Σ_j op_e(T)_ij·x_j) / op_e(T)_ii )     (diag 'U': no division)
 * in substitution order, where α·b_i and every −op_e(T)_ij·x_j are exact terms (α is applied
 * as one exact factor of b, not by a rounded scaling first) and op_e = op for side L, its
 * transpose for side R. α == 1 gives exactly exstar_dtrsv's results. α == 0: X := +0, neither
 * B nor T read (BLAS). A zero on the diagonal (diag 'N') is EXSTAR_ERR_SINGULAR (the message
 * names the first one), checked before any task, B unchanged. */
int exstar_dtrsm(char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                 const double *T, int64_t ldt, double *B, int64_t ldb);
/* Task form: ONE task; T's triangle starts at T(it, jt), B's block at B(ib, jb) of the caller's
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
#define EXSTAR_STATE_ENTRY_BYTES 32
/* A new m x n state handle, all zero (no home buffer: StarPU allocates it where it is used and
 * fills it with exstar_state_zero_cl on first use). Unregister it with starpu_data_unregister
 * (or _submit). */
int exstar_state_register(starpu_data_handle_t *st, int64_t m, int64_t n);
/* st(is + i, js + j) := C(ic + i, jc + j) as one exact term, i < m, j < n. */
int exstar_state_init_insert(int64_t m, int64_t n, starpu_data_handle_t C, int64_t ic, int64_t jc,
                             starpu_data_handle_t st, int64_t is, int64_t js);
/* st(is + i, js + j) += sign·Σ_l op(A)_il·op(B)_lj (sign +1 or −1), blocks as exstar_dgemm_insert. */
int exstar_state_gemm_insert(char transa, char transb, int64_t m, int64_t n, int64_t k, double sign,
                             starpu_data_handle_t A, int64_t ia, int64_t ja, starpu_data_handle_t B, int64_t ib,
                             int64_t jb, starpu_data_handle_t st, int64_t is, int64_t js);
/* C(ic + i, jc + j) := RN(st(is + i, js + j)) where the state proves it; mask (a StarPU vector
 * handle of m*n bytes, index i + j*m, or NULL) receives 1 for each entry left unchanged
 * because its rounding was declined. */
int exstar_state_round_insert(int64_t m, int64_t n, starpu_data_handle_t st, int64_t is, int64_t js,
                              starpu_data_handle_t C, int64_t ic, int64_t jc, starpu_data_handle_t mask);

/* ==== codelets, for users' own graphs ========================================================== */
struct exstar_gemm_args {
  char transa, transb;
  int64_t m, n, k;
  double alpha, beta;  /* gemm; state_gemm: alpha is the sign, beta unused */
  int64_t ia, ja, ib, jb, ic, jc; /* block origins in buffers 0, 1, 2 */
  int exact_only;      /* nonzero: every entry by the exact path (tests; same bits) */
};
extern struct starpu_codelet exstar_gemm_cl;       /* R A, R B, RW C */
extern struct starpu_codelet exstar_gemm_w_cl;     /* R A, R B, W C (β == 0, whole handle) */
extern struct starpu_codelet exstar_state_gemm_cl; /* R A, R B, RW st */
struct exstar_state_args {
  int64_t m, n;
  int64_t ic, jc, is, js; /* block origins in the C buffer and the state buffer */
};
extern struct starpu_codelet exstar_state_init_cl;  /* R C, W|RW st */
extern struct starpu_codelet exstar_state_round_cl; /* R st, RW C, W mask */
extern struct starpu_codelet exstar_state_round_nomask_cl; /* R st, RW C */
extern struct starpu_codelet exstar_state_zero_cl;  /* W st: every entry 0 */
struct exstar_trsm_args {
  char side, uplo, transa, diag;
  int64_t m, n;
  double alpha;
  int64_t it, jt, ib, jb;
  int exact_only;
};
extern struct starpu_codelet exstar_trsm_cl; /* R T, RW B */

/* Diagnostics: nonzero sends every Level-3 entry through the exact path for the calls and
 * insertions that follow (the bits are the same; tests prove it). Also set by the environment
 * variable EXSTAR_EXACT_ONLY=1 at exstar_init. */
void exstar_set_exact_only(int exact_only);

#ifdef __cplusplus
}
#endif
#endif
