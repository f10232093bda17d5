/** @file
 * libexstar_blas — a drop-in reproducible BLAS and LAPACK subset on exstar.
 *
 * The library exports the standard symbols of the double-precision real BLAS (Fortran ABI:
 * `ddot_`, `dgemm_`, ...; CBLAS: `cblas_ddot`, `cblas_dgemm`, ...), of LAPACK's `dgetrf_`,
 * `dgetrs_`, `dgesv_`, `dlaswp_`, `dpotrf_`, `dpotrs_`, `dposv_` and of their LAPACKE forms. Use: link with `-lexstar_blas`
 * ahead of the system BLAS, or run an unmodified program with `LD_PRELOAD=libexstar_blas.so`.
 * Single, complex and double-complex routines are NOT defined here, so the system's BLAS keeps
 * serving them. Fortran INTEGER is 32-bit (LP64); CHARACTER arguments' hidden lengths are
 * accepted and ignored.
 *
 * Every result is one correct rounding (RN: to nearest, ties to even) of an exact value
 * defined below, so it has the same bits on every machine, worker count and back end. Where
 * exstar has the operation, the routine calls exstar's public function and gives its bits:
 *
 * | symbol | exstar call | definition (exstar's headers) |
 * | --- | --- | --- |
 * | ddot_   | exstar_ddot   | RN(Σ x_i·y_i) |
 * | dnrm2_  | exstar_dnrm2  | RN(sqrt(Σ x_i²)) |
 * | dscal_  | exstar_dscal  | x_i := RN(α·x_i) |
 * | daxpy_  | exstar_daxpy  | y_i := RN(α·x_i + y_i), ONE rounding (the reference rounds twice) |
 * | dswap_, dcopy_ | exstar_dswap, a copy | no arithmetic |
 * | idamax_ | exstar_idamax | first largest |x_i| (1-based; see below for NaN) |
 * | dgemv_  | exstar_dgemv  | y_i := RN(Σ_j α·a_ij·x_j + β·y_i) |
 * | dtrsv_  | exstar_dtrsv  | x_i := RN(RN(b_i − Σ_j t_ij·x_j) / t_ii) in substitution order |
 * | dgemm_  | exstar_dgemm  | c_ij := RN(Σ_l α·a_il·b_lj + β·c_ij) |
 * | dtrsm_  | exstar_dtrsm  | trsv's definition per column (row) from α·b |
 * | dgetrf_, dgetrs_, dgesv_, dlaswp_ | exstar_dgetrf, exstar_dgetrs, exstar_dgesv (no refinement), exstar_dlaswp | lapack.h |
 * | dpotrf_, dpotrs_, dposv_ | exstar_dpotrf, exstar_dpotrs, exstar_dposv (no refinement) | lapack.h |
 *
 * Reference BLAS semantics win where they differ from exstar's definitions, so that programs
 * and the reference testers see the BLAS they expect:
 * - Quick returns exactly as the reference: n <= 0; dgemv/dgemm with m or n == 0 leave y/C
 *   untouched; α == 0 and β == 1 returns without reading or writing; α == 0 (gemv, gemm,
 *   symv, symm, syrk, syr2k ...) scales the output by β (y_i := RN(β·y_i), or +0 when β == 0)
 *   without reading A, B or x (exstar would read them: 0·inf = NaN); daxpy with α == 0,
 *   dscal/dnrm2/dasum/idamax with incx <= 0 return as the reference does; dtrsm with α == 0
 *   gives +0 (as exstar).
 * - A zero diagonal in dtrsv/dtrsm/dtbsv/dtpsv is divided by (IEEE ±inf or NaN, as the
 *   reference), where exstar's own call refuses (EXSTAR_ERR_SINGULAR); that case is computed on
 *   the calling thread by the same definition.
 * - Negative increments: element i of (n, x, incx < 0) is x[(n-1-i)·|incx|], as in exstar's
 *   API, which takes them directly. Increment 0 (allowed by the reference Level 1, rejected by
 *   exstar): ddot and dnrm2 use a contiguous copy of the vector; daxpy, dswap, dcopy, drot,
 *   drotm run the reference loop order element by element (each element by the same
 *   definition); Level 2 rejects it through xerbla_ as the reference.
 * - idamax_: exstar's rule (the first NaN wins) differs from the reference (NaNs never win,
 *   unless first); the first largest finite or infinite |x_i| is the same.
 * - Argument errors call xerbla_(name, &info, len) with the reference's parameter numbers:
 *   the program's own (the reference testers have one) or the system BLAS's. The library only
 *   REFERENCES xerbla_ (weakly) and never defines it, so under LD_PRELOAD it does not shadow a
 *   program's override (NumPy's); with no xerbla_ anywhere it prints the reference message to
 *   stderr itself. Either way the library never exits or aborts. Errors inside a CBLAS call go
 *   to cblas_xerbla(info + 1, "cblas_<name>") as the reference CBLAS's xerbla does; the
 *   library's cblas_xerbla (and LAPACKE_xerbla) are weak definitions that print and return
 *   (the reference's exits), with RowMajorStrg / CBLAS_CallFromC set as the reference CBLAS
 *   sets them (the CBLAS testers read them).
 *
 * Routines exstar does not have are computed here on the calling thread from exstar's exact
 * accumulator (core/accumulator.h) or exstar's exact CPU kernels (exstar_cpu_dgemm/_dgemv),
 * each with one rounding per output entry of an exact value. Every product α·a·b and every
 * β·c is an exact term; special values follow exstar.h (a NaN term gives NaN, +inf with −inf
 * gives NaN, 0·inf gives NaN, an exact zero is −0 only when every term is −0):
 *
 * | routine | definition (sums over the stored band / triangle / packed entries only) |
 * | --- | --- |
 * | dasum   | RN(Σ \|x_i\|) |
 * | dsdot   | RN(Σ x_i·y_i) (float inputs, exact products, result double) |
 * | drot    | x_i := RN(c·x_i + s·y_i), y_i := RN(c·y_i − s·x_i) (old x_i, y_i) |
 * | drotm   | flag −1: x_i := RN(h11·x_i + h12·y_i), y_i := RN(h21·x_i + h22·y_i); flags 0 and 1 with the reference's implicit ±1 and 0 entries (a term with an implicit 1 is x_i or y_i itself; implicit zeros are no term) |
 * | drotg, drotmg | the reference formulas in IEEE double, operation for operation (scalar constructions, deterministic as written) |
 * | dger    | a_ij := RN(a_ij + α·x_i·y_j) |
 * | dsyr    | a_ij := RN(a_ij + α·x_i·x_j), stored triangle |
 * | dsyr2   | a_ij := RN(a_ij + α·x_i·y_j + α·y_i·x_j), stored triangle |
 * | dspr, dspr2 | the same on the packed triangle |
 * | dsymv, dspmv, dsbmv | y_i := RN(Σ_j α·a_ij·x_j + β·y_i), a_ij read from the stored triangle (a_ij = a_ji), over all j (dsbmv: \|i−j\| <= k) |
 * | dgbmv   | y_i := RN(Σ_j α·op(A)_ij·x_j + β·y_i), j over the band |
 * | dtrmv, dtpmv, dtbmv | x_i := RN(Σ_j op(T)_ij·x_j), j over the triangle (band), t_ii = 1 not read for diag 'U' (the term is x_i) |
 * | dtbsv, dtpsv | exstar_dtrsv's definition, the sum over the band / packed triangle |
 * | dtrmm   | b_ij := RN(Σ_l α·op(T)_il·b_lj) (side L) or RN(Σ_l α·b_il·op(T)_lj) (side R), l over the triangle; the unit diagonal's term is α·b_ij |
 * | dsymm   | c_ij := RN(Σ_l α·a_il·b_lj + β·c_ij) (side L; side R: α·b_il·a_lj), A symmetric from its stored triangle |
 * | dsyrk   | c_ij := RN(Σ_l α·op(A)_il·op(A)_jl + β·c_ij), stored triangle of C |
 * | dsyr2k  | c_ij := RN(Σ_l (α·op(A)_il·op(B)_jl + α·op(B)_il·op(A)_jl) + β·c_ij), stored triangle |
 *
 * StarPU: the first call starts exstar with exstar_init(NULL) (StarPU reads the user's
 * STARPU_* variables), or, when the program already runs StarPU, attaches to it and never
 * stops it; a StarPU started here is stopped at exit. Calls smaller than 2^21 multiply-adds
 * (dgemm up to n = 127, dgemv up to n = 1447, ddot up to 2^21 entries; also dscal, daxpy,
 * dswap, idamax, dtrsv and dtrsm by the same measure) run exstar's CPU kernels on the calling
 * thread instead of submitting StarPU tasks: the same kernels, so the same bits (tests prove
 * both paths), without StarPU's per-call cost (about 140 µs for exstar_dgemm at n = 8 against
 * 4 µs for dgemm_ on the calling thread; bench/bench_blas.cpp). The routines computed here
 * (second table) always run on the calling thread (dsymm, dsyrk, dsyr2k, dtrmm and dger use
 * exstar's gemm, through StarPU when large). Small LAPACK calls too: getrf by the tiled LU's
 * panel kernel on one tile holding the whole matrix (what a CPU worker runs for a one-tile
 * exstar_dgetrf), getrs by exstar's trsm kernel, laswp by the reference loop.
 */
#ifndef EXSTAR_BLAS_H
#define EXSTAR_BLAS_H

#ifdef __cplusplus
extern "C" {
#endif

/** Starts exstar now (otherwise the first BLAS call does); 0 on success. */
int exstar_blas_init(void);
/** Multiply-adds under which a call skips StarPU (default 2^21, or the environment variable
 * EXSTAR_BLAS_SMALL; a negative value restores that default). Tests set 0 (every call through
 * StarPU) or a huge value (none) to prove both paths give the same bits. */
void exstar_blas_set_small(double work);

#ifdef __cplusplus
}
#endif
#endif
