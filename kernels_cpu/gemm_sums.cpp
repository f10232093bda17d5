// core/gemm.h's fast sums over blocks of entries (kernels_cpu/gemm_sums.h): op(A) and op(B)
// packed into panels, a register tile of MR x NR entries whose S and R take each term in the
// order l = 0, 1, ... (every entry the same operations in the same order whatever the tile, so
// the AVX2 copy and the AVX-512 copy, kernels_cpu/wide_gemm_sums.cpp, give the same S and R).
#include "kernels_cpu/gemm_sums.h"
#include "kernels_cpu/wide.h"
#include "kernels_cpu/acc_cpu.h"
#include "core/checked_round.h" /* exstar_bdd, exstar_pow2: what core/gemm.h builds on */
#include "core/gemm.h"
#include <math.h>
#include <vector>
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace exstar_gemm {
namespace {

// The register tile: MR rows (vectors of 4 doubles in AVX2, of 8 in the AVX-512 copy) x
// NR columns; 8 x 3 is the written-out AVX2 loop's (term_runs below), 4 x 4 what the compiler
// does best alone.
#if defined(EXSTAR_CPU_WIDE)
constexpr int MR = 16, NR = 4;
#elif defined(__AVX2__) && defined(__FMA__) && defined(__x86_64__) && defined(__GNUC__)
#define EXSTAR_AVX2_ASM 1
constexpr int MR = 8, NR = 3;
#else
constexpr int MR = 4, NR = 4;
#endif
// Blocks (GotoBLAS's): an MC x KC block of op(A) (256 KiB) stays in L2 while the KC x NR
// panels of op(B) (8 KiB each) stream through L1; the KC x NC block of op(B) (up to 8 MiB) sits
// in L3. NC is large so that each block of op(A) is packed once per KC step, not once per 128
// columns (2-core EPYC, n = 2048: packing op(A) 16 times took a quarter of the time). NC is a
// whole number of panels: a block's last panel ends at the block's edge (with NC = 4096 and the
// AVX2 tile's 3 columns it ran two columns past it, and past the scratch, for n > 4096).
constexpr int64_t MC = 128, NC = 4096 / NR * NR, KC = 256;
static_assert(NC % NR == 0, "whole panels of op(B) a block");
static_assert(KC % EXSTAR_GEMM_FOLD == 0, "a block of terms starts at a fold");

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// Row scales of a view over k columns: 2^e >= max_l |X(i, l)| (core/gemm.h's exponent codes),
// from the largest magnitude's bits of each row (exstar_mag_bits_max: an integer max that the
// compiler vectorizes) and one code a row. Column by column when the rows are adjacent in
// memory (rs == 1), so that memory is read in order.
std::vector<int> row_exps(int64_t m, int64_t k, const view &X)
{
  std::vector<exstar_u64> mx((size_t)m, 0);
  exstar_u64 *const mp = mx.data();
  if (X.rs == 1) {
    for (int64_t l = 0; l < k; ++l) {
      const double *col = X.p + X.off + l * X.cs;
      for (int64_t i = 0; i < m; ++i) mp[i] = exstar_mag_bits_max(mp[i], col[i]);
    }
  } else {
    for (int64_t i = 0; i < m; ++i) {
      const double *row = X.p + X.off + i * X.rs;
      exstar_u64 r = 0;
      for (int64_t l = 0; l < k; ++l) r = exstar_mag_bits_max(r, row[l * X.cs]);
      mp[i] = r;
    }
  }
  std::vector<int> e((size_t)m);
  for (int64_t i = 0; i < m; ++i) e[(size_t)i] = exstar_exp_of_bits(mp[i]);
  return e;
}

// Scratch for the packed blocks: up to kKeep doubles kept per thread between calls (a StarPU
// worker runs many tile updates, and fresh vectors cost a zero fill and page faults each
// time), larger ones for this call only. The packs write every entry they use.
constexpr size_t kKeep = (size_t)1 << 17; // 1 MiB
thread_local std::vector<double> ap_keep, bp_keep;
double *scratch(std::vector<double> &keep, std::vector<double> &once, size_t n)
{
  std::vector<double> &v = n <= kKeep ? keep : once;
  if (v.size() < n) v.resize(n);
  return v.data();
}

// Panels of W lines (rows of op(A), or columns of op(B)) x kc terms, term-major inside a panel
// and zero-padded past the last line: line t of the panel at `first` is first[t * ls], its term l
// first[l * ts]; `lines` of them exist (the rest of the panel is zero).
template <int W>
void pack_panel(const double *first, int64_t ls, int64_t ts, int64_t lines, int64_t kc, double *dst)
{
  for (int64_t l = 0; l < kc; ++l, dst += W) {
    const double *src = first + l * ts;
    int t = 0;
    if (ls == 1)
      for (; t < lines; ++t) dst[t] = src[t];
    else
      for (; t < lines; ++t) dst[t] = src[t * ls];
    for (; t < W; ++t) dst[t] = 0.0;
  }
}

// op(A) rows [i0, i0+mc) x terms [l0, l0+kc) as panels of MR rows; op(B) terms x columns
// [j0, j0+nc) as panels of NR columns.
void pack_a(const view &A, int64_t m, int64_t i0, int64_t mc, int64_t l0, int64_t kc, double *ap)
{
  for (int64_t ir = 0; ir < mc; ir += MR, ap += MR * kc)
    pack_panel<MR>(A.p + A.off + (i0 + ir) * A.rs + l0 * A.cs, A.rs, A.cs, min64(MR, m - (i0 + ir)), kc, ap);
}

void pack_b(const view &B, int64_t n, int64_t j0, int64_t nc, int64_t l0, int64_t kc, double *bp)
{
  for (int64_t jr = 0; jr < nc; jr += NR, bp += NR * kc)
    pack_panel<NR>(B.p + B.off + l0 * B.rs + (j0 + jr) * B.cs, B.cs, B.rs, min64(NR, n - (j0 + jr)), kc, bp);
}

// The MR x NR tile's S, R += the fast sums of kc terms; s, r, g (sigma) are MR x NR, column c
// at [c*MR]. One kernel for both vector widths (vec below): per term, column and vector of rows 2
// FMAs on the FMA pipes and 2 additions on the add pipes, b broadcast once a column.
//  - AVX-512, 16 x 4: Zen 4 (a microbenchmark of the loop alone in L1): 8 x 4 with b broadcast
//    for each FMA ~3.1 cycles a vector term, 16 x 4 ~2.75 (the pipes alone would allow 2;
//    512-bit broadcasts and register copies take pipe slots too).
//  - AVX2: GCC's loop for 4 x 4 spends ~12 register copies a term (42 instructions), and 8 x 3
//    (12 accumulators) in its hands was 40% slower still on Zen 4, n = 2048 on 2 cores (770
//    against 545 ms). So the AVX2 runs of terms are written out (term_runs below, 8 x 3, 16
//    registers); one_term takes only what is left after the last whole run.
#if defined(EXSTAR_CPU_WIDE) || (defined(__AVX2__) && defined(__FMA__))
#if defined(EXSTAR_CPU_WIDE)
static_assert(MR == 16 && NR == 4, "the AVX-512 tile is 16 x 4");
struct vec {
  using T = __m512d;
  static constexpr int W = 8;
  static T load(const double *p) { return _mm512_loadu_pd(p); }
  static void store(double *p, T x) { _mm512_storeu_pd(p, x); }
  static T set1(const double *p) { return _mm512_set1_pd(*p); }
  static T fmadd(T a, T b, T c) { return _mm512_fmadd_pd(a, b, c); }
  static T fmsub(T a, T b, T c) { return _mm512_fmsub_pd(a, b, c); }
  static T fnmadd(T a, T b, T c) { return _mm512_fnmadd_pd(a, b, c); }
  static T add(T a, T b) { return _mm512_add_pd(a, b); }
  static T sub(T a, T b) { return _mm512_sub_pd(a, b); }
};
#else
struct vec {
  using T = __m256d;
  static constexpr int W = 4;
  static T load(const double *p) { return _mm256_loadu_pd(p); }
  static void store(double *p, T x) { _mm256_storeu_pd(p, x); }
  static T set1(const double *p) { return _mm256_broadcast_sd(p); }
  static T fmadd(T a, T b, T c) { return _mm256_fmadd_pd(a, b, c); }
  static T fmsub(T a, T b, T c) { return _mm256_fmsub_pd(a, b, c); }
  static T fnmadd(T a, T b, T c) { return _mm256_fnmadd_pd(a, b, c); }
  static T add(T a, T b) { return _mm256_add_pd(a, b); }
  static T sub(T a, T b) { return _mm256_sub_pd(a, b); }
};
#endif
constexpr int RV = MR / vec::W; // vectors of rows
static_assert(MR == RV * vec::W, "whole vectors of rows");

// One term of the tile (term l of the panels): exstar_gemm_term on every entry.
inline void one_term(int64_t l, const double *ap, const double *bp, vec::T *S, vec::T *R)
{
  constexpr int W = vec::W;
  vec::T a[RV];
#pragma GCC unroll 2
  for (int v = 0; v < RV; ++v) a[v] = vec::load(ap + l * MR + v * W);
#pragma GCC unroll 4
  for (int c = 0; c < NR; ++c) {
    const vec::T b = vec::set1(bp + l * NR + c);
#pragma GCC unroll 2
    for (int v = 0; v < RV; ++v) {
      const int x = c * RV + v;
      const vec::T t = vec::fmadd(a[v], b, S[x]);
      const vec::T q = vec::sub(t, S[x]);
      S[x] = t;
      R[x] = vec::add(R[x], vec::fmsub(a[v], b, q));
    }
  }
}

#ifdef EXSTAR_AVX2_ASM
static_assert(MR == 8 && NR == 3, "term_run's tile is 8 x 3");
// The AVX2 tile's runs of EXSTAR_GEMM_FOLD terms, written out. Each entry vector e (column c,
// rows 4v..4v+3: e = 2c + v) takes a term as: F := b, F := a·b + S (vfmadd213pd), S := F − S = q
// (the old S is dead), S := a·b − q (vfmsub231pd, one rounding: fma(a, b, −q)), R += S; F then
// holds the new S and S's register is free. Every FMA form overwrites an input and a, b and S
// are all needed after a·b + S, so a term needs one register more than the sums: the six S
// rotate through seven registers P0..P6, entry e taking the register its predecessor freed (e = 0
// the one left free by the last). At the start of term t of a group of 7, e's S is in
// P[(e − t) mod 7]; after 7 terms every S is home. 16 registers: 7 for S, 6 for R, a (two
// vectors) and b; GCC's code for one_term needs 12 register copies a term of the 4 x 4 tile.
// exstar_gemm_term's operations on every entry in its order: one_term's bits. The loop alone in
// L1 (Zen 3 EPYC VM, 2026-11-29, minimum of 6 runs): 0.29 cycles an entry-term, the 4 x 4 tile
// with a spare register for each S 0.34, the same 8 x 3 with the columns' order alternating
// (period 2) 0.30; the pipes allow 0.25 (2 FMAs and 2 additions a cycle).
#define EXSTAR_AVX2_ENTRY(S, F, R, A)                                                                        \
  "vmovapd %%ymm15, " F "\n\t"                                                                               \
  "vfmadd213pd " S ", " A ", " F "\n\t"                                                                      \
  "vsubpd " S ", " F ", " S "\n\t"                                                                           \
  "vfmsub231pd %%ymm15, " A ", " S "\n\t"                                                                    \
  "vaddpd " S ", " R ", " R "\n\t"
// Term L of the group (a at ap + 64 L, b at bp + 24 L); x0 is free, e's S is x(e+1), its F xe.
#define EXSTAR_AVX2_TERM(L, x0, x1, x2, x3, x4, x5, x6)                                                       \
  "vmovupd " #L "*64(%[a]), %%ymm13\n\t"                                                                    \
  "vmovupd " #L "*64+32(%[a]), %%ymm14\n\t"                                                                 \
  "vbroadcastsd " #L "*24(%[b]), %%ymm15\n\t" EXSTAR_AVX2_ENTRY(x1, x0, "%[r0]", "%%ymm13")                  \
      EXSTAR_AVX2_ENTRY(x2, x1, "%[r1]", "%%ymm14")                                                          \
  "vbroadcastsd " #L "*24+8(%[b]), %%ymm15\n\t" EXSTAR_AVX2_ENTRY(x3, x2, "%[r2]", "%%ymm13")                \
      EXSTAR_AVX2_ENTRY(x4, x3, "%[r3]", "%%ymm14")                                                          \
  "vbroadcastsd " #L "*24+16(%[b]), %%ymm15\n\t" EXSTAR_AVX2_ENTRY(x5, x4, "%[r4]", "%%ymm13")               \
      EXSTAR_AVX2_ENTRY(x6, x5, "%[r5]", "%%ymm14")
#define EXSTAR_P0 "%[s0]"
#define EXSTAR_P1 "%[s1]"
#define EXSTAR_P2 "%[s2]"
#define EXSTAR_P3 "%[s3]"
#define EXSTAR_P4 "%[s4]"
#define EXSTAR_P5 "%[s5]"
#define EXSTAR_P6 "%[f]"
#define EXSTAR_AVX2_T0(L) EXSTAR_AVX2_TERM(L, EXSTAR_P6, EXSTAR_P0, EXSTAR_P1, EXSTAR_P2, EXSTAR_P3, EXSTAR_P4, EXSTAR_P5)
#define EXSTAR_AVX2_T1(L) EXSTAR_AVX2_TERM(L, EXSTAR_P5, EXSTAR_P6, EXSTAR_P0, EXSTAR_P1, EXSTAR_P2, EXSTAR_P3, EXSTAR_P4)
#define EXSTAR_AVX2_T2(L) EXSTAR_AVX2_TERM(L, EXSTAR_P4, EXSTAR_P5, EXSTAR_P6, EXSTAR_P0, EXSTAR_P1, EXSTAR_P2, EXSTAR_P3)
#define EXSTAR_AVX2_T3(L) EXSTAR_AVX2_TERM(L, EXSTAR_P3, EXSTAR_P4, EXSTAR_P5, EXSTAR_P6, EXSTAR_P0, EXSTAR_P1, EXSTAR_P2)
#define EXSTAR_AVX2_T4(L) EXSTAR_AVX2_TERM(L, EXSTAR_P2, EXSTAR_P3, EXSTAR_P4, EXSTAR_P5, EXSTAR_P6, EXSTAR_P0, EXSTAR_P1)
#define EXSTAR_AVX2_T5(L) EXSTAR_AVX2_TERM(L, EXSTAR_P1, EXSTAR_P2, EXSTAR_P3, EXSTAR_P4, EXSTAR_P5, EXSTAR_P6, EXSTAR_P0)
#define EXSTAR_AVX2_T6(L) EXSTAR_AVX2_TERM(L, EXSTAR_P0, EXSTAR_P1, EXSTAR_P2, EXSTAR_P3, EXSTAR_P4, EXSTAR_P5, EXSTAR_P6)
static_assert(EXSTAR_GEMM_FOLD == 4 * 7 + 4, "a run is four groups of 7 terms and 4 terms");
// R folded into S (exstar_gemm_fold) for entry vector e: t = S + R in ymm13, S := t − S = q,
// R −= q, S := t.
#define EXSTAR_AVX2_FOLD(S, R)                                                                               \
  "vaddpd " R ", " S ", %%ymm13\n\t"                                                                         \
  "vsubpd " S ", %%ymm13, " S "\n\t"                                                                         \
  "vsubpd " S ", " R ", " R "\n\t"                                                                           \
  "vmovapd %%ymm13, " S "\n\t"
// runs (≥ 1) whole runs of EXSTAR_GEMM_FOLD terms, each followed by its fold; the sums stay in
// registers from the first term to the last (between separate statements GCC spilled them).
inline void term_runs(int64_t runs, const double *ap, const double *bp, vec::T *S, vec::T *R)
{
  vec::T f; // P6: free on entry and exit (an output: GCC's limit of 30 operands counts an in-out twice)
  asm volatile("mov %[n], %%r11\n\t"
               "2:\n\t"
               "mov $4, %%ecx\n\t"
               "1:\n\t" EXSTAR_AVX2_T0(0) EXSTAR_AVX2_T1(1) EXSTAR_AVX2_T2(2) EXSTAR_AVX2_T3(3) EXSTAR_AVX2_T4(4)
                   EXSTAR_AVX2_T5(5) EXSTAR_AVX2_T6(6)
               "add $448, %[a]\n\t"
               "add $168, %[b]\n\t"
               "dec %%ecx\n\t"
               "jnz 1b\n\t" EXSTAR_AVX2_T0(0) EXSTAR_AVX2_T1(1) EXSTAR_AVX2_T2(2) EXSTAR_AVX2_T3(3)
               // 4 terms on, e's S is in P[(e − 4) mod 7] and P2 is free: home again, each copy
               // into the register the previous one freed
               "vmovapd " EXSTAR_P5 ", " EXSTAR_P2 "\n\t"
               "vmovapd " EXSTAR_P1 ", " EXSTAR_P5 "\n\t"
               "vmovapd " EXSTAR_P4 ", " EXSTAR_P1 "\n\t"
               "vmovapd " EXSTAR_P0 ", " EXSTAR_P4 "\n\t"
               "vmovapd " EXSTAR_P3 ", " EXSTAR_P0 "\n\t"
               "vmovapd " EXSTAR_P6 ", " EXSTAR_P3 "\n\t"
               "add $256, %[a]\n\t"
               "add $96, %[b]\n\t" EXSTAR_AVX2_FOLD(EXSTAR_P0, "%[r0]") EXSTAR_AVX2_FOLD(EXSTAR_P1, "%[r1]")
                   EXSTAR_AVX2_FOLD(EXSTAR_P2, "%[r2]") EXSTAR_AVX2_FOLD(EXSTAR_P3, "%[r3]")
                       EXSTAR_AVX2_FOLD(EXSTAR_P4, "%[r4]") EXSTAR_AVX2_FOLD(EXSTAR_P5, "%[r5]")
               "dec %%r11\n\t"
               "jnz 2b\n\t"
               : [a] "+r"(ap), [b] "+r"(bp), [s0] "+x"(S[0]), [s1] "+x"(S[1]), [s2] "+x"(S[2]), [s3] "+x"(S[3]),
                 [s4] "+x"(S[4]), [s5] "+x"(S[5]), [f] "=&x"(f), [r0] "+x"(R[0]), [r1] "+x"(R[1]), [r2] "+x"(R[2]),
                 [r3] "+x"(R[3]), [r4] "+x"(R[4]), [r5] "+x"(R[5])
               : [n] "r"(runs)
               : "rcx", "r11", "xmm13", "xmm14", "xmm15", "memory", "cc");
}
#undef EXSTAR_AVX2_FOLD
#undef EXSTAR_AVX2_T0
#undef EXSTAR_AVX2_T1
#undef EXSTAR_AVX2_T2
#undef EXSTAR_AVX2_T3
#undef EXSTAR_AVX2_T4
#undef EXSTAR_AVX2_T5
#undef EXSTAR_AVX2_T6
#undef EXSTAR_P0
#undef EXSTAR_P1
#undef EXSTAR_P2
#undef EXSTAR_P3
#undef EXSTAR_P4
#undef EXSTAR_P5
#undef EXSTAR_P6
#undef EXSTAR_AVX2_TERM
#undef EXSTAR_AVX2_ENTRY
#define EXSTAR_HAVE_TERM_RUNS 1
#endif

// The tile's S, R and sigma: column c at s + c·ld (MR entries each). Between a tile's blocks of
// terms S stays a running sum (S + 1.5 sigma): exstar_gemm_run_end and run_begin, both exact,
// would give it back unchanged. So the first block (first: S and R are 0) begins the run and the
// last (last) ends it, and sigma is read by those two alone.
void micro(int64_t kc, const double *ap, const double *bp, double *s, double *r, const double *g, int64_t ld,
           bool first, bool last)
{
  constexpr int W = vec::W;
  const double one_half = 1.5, zero = 0.0;
  const vec::T h = vec::set1(&one_half), z = vec::set1(&zero);
  vec::T S[RV * NR], R[RV * NR];
  for (int x = 0; x < RV * NR; ++x) {
    const int64_t o = (x / RV) * ld + (x % RV) * W; // entry vector x = c·RV + v
    S[x] = first ? vec::fmadd(vec::load(g + o), h, z) : vec::load(s + o); // exstar_gemm_run_begin(0, sigma)
    R[x] = first ? z : vec::load(r + o);
  }
  // runs of EXSTAR_GEMM_FOLD terms (kc's blocks start at multiples of it), R folded into S
  // after each whole run (exstar_gemm_fold)
  int64_t l0 = 0;
#ifdef EXSTAR_HAVE_TERM_RUNS
  if (kc >= EXSTAR_GEMM_FOLD) term_runs(kc / EXSTAR_GEMM_FOLD, ap, bp, S, R), l0 = kc / EXSTAR_GEMM_FOLD * EXSTAR_GEMM_FOLD;
#endif
  for (; l0 < kc; l0 += EXSTAR_GEMM_FOLD) {
    const int64_t l1 = min64(kc, l0 + EXSTAR_GEMM_FOLD);
    for (int64_t l = l0; l < l1; ++l) one_term(l, ap, bp, S, R);
    if (l1 - l0 == EXSTAR_GEMM_FOLD)
      for (int x = 0; x < RV * NR; ++x) {
        const vec::T t = vec::add(S[x], R[x]);
        R[x] = vec::sub(R[x], vec::sub(t, S[x]));
        S[x] = t;
      }
  }
  for (int x = 0; x < RV * NR; ++x) {
    const int64_t o = (x / RV) * ld + (x % RV) * W;
    vec::store(s + o, last ? vec::fnmadd(vec::load(g + o), h, S[x]) : S[x]); // exstar_gemm_run_end
    vec::store(r + o, R[x]);
  }
}
#else
void micro(int64_t kc, const double *ap, const double *bp, double *s, double *r, const double *g, int64_t ld,
           bool first, bool last)
{
  for (int c = 0; c < NR && first; ++c)
    for (int q = 0; q < MR; ++q) s[c * ld + q] = exstar_gemm_run_begin(s[c * ld + q], g[c * ld + q]);
  for (int64_t l = 0; l < kc; ++l) {
    for (int c = 0; c < NR; ++c)
      for (int q = 0; q < MR; ++q) exstar_gemm_term(ap[l * MR + q], bp[l * NR + c], &s[c * ld + q], &r[c * ld + q]);
    if (exstar_gemm_folds_after(l))
      for (int c = 0; c < NR; ++c)
        for (int q = 0; q < MR; ++q) exstar_gemm_fold(&s[c * ld + q], &r[c * ld + q]);
  }
  for (int c = 0; c < NR && last; ++c)
    for (int q = 0; q < MR; ++q) s[c * ld + q] = exstar_gemm_run_end(s[c * ld + q], g[c * ld + q]);
}
#endif

// One MR x NR tile at (i0, j0) of the sums: in place when it is whole, else (an edge) copied in
// and out around micro (a copy of every tile cost ~11% of the AVX2 gemm, n = 2048).
void tile(sums &out, int64_t i0, int64_t j0, int64_t kc, const double *ap, const double *bp, bool first, bool last)
{
  if (i0 + MR <= out.m && j0 + NR <= out.n) {
    const size_t x = (size_t)(i0 + j0 * out.m);
    return micro(kc, ap, bp, out.S.data() + x, out.R.data() + x, out.sigma.data() + x, out.m, first, last);
  }
  double s[MR * NR], r[MR * NR], g[MR * NR];
  for (int c = 0; c < NR; ++c)
    for (int q = 0; q < MR; ++q) {
      const int64_t i = i0 + q, j = j0 + c;
      const bool in = i < out.m && j < out.n;
      const size_t x = (size_t)(i + j * out.m);
      s[c * MR + q] = in ? out.S[x] : 0.0;
      r[c * MR + q] = in ? out.R[x] : 0.0;
      g[c * MR + q] = in ? out.sigma[x] : 1.0;
    }
  micro(kc, ap, bp, s, r, g, MR, first, last);
  for (int c = 0; c < NR; ++c)
    for (int q = 0; q < MR; ++q) {
      const int64_t i = i0 + q, j = j0 + c;
      if (i >= out.m || j >= out.n) continue;
      const size_t x = (size_t)(i + j * out.m);
      out.S[x] = s[c * MR + q];
      out.R[x] = r[c * MR + q];
    }
}

} // namespace

#ifndef EXSTAR_CPU_WIDE
double sums::bound(int64_t i, int64_t j) const { return exstar_gemm_bound(k, sigma[(size_t)(i + j * m)]); }
#endif

void EXSTAR_CPU_ENTRY(product_sigmas)(int64_t m, int64_t n, int64_t k, const view &A, const view &B,
                                      std::vector<double> &sigma)
{
#if defined(EXSTAR_CPU_HAVE_WIDE) && !defined(EXSTAR_CPU_WIDE)
  if (exstar_cpu_wide_enabled()) return product_sigmas_wide(m, n, k, A, B, sigma);
#endif
  // codes of op(A) term-major (ea[l*m + i]) and of op(B) column-major (eb[j*k + l]); every code
  // is in [-4000, 4000], so a sum of two fits 16 bits
  std::vector<int16_t> ea((size_t)(m * k)), eb((size_t)(k * n));
  for (int64_t l = 0; l < k; ++l)
    for (int64_t i = 0; i < m; ++i) ea[(size_t)(l * m + i)] = (int16_t)exstar_exp_above(A.at(i, l));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t l = 0; l < k; ++l) eb[(size_t)(j * k + l)] = (int16_t)exstar_exp_above(B.at(l, j));
  const int ep = exstar_gemm_count_exp(k);
  sigma.resize((size_t)(m * n));
  constexpr int64_t RB = 256; // rows a block: their k codes (k * 512 bytes) stay in L2 across the columns
  int16_t e[RB];
  for (int64_t ib = 0; ib < m; ib += RB) {
    const int64_t mb = min64(RB, m - ib);
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t t = 0; t < mb; ++t) e[t] = (int16_t)(2 * EXSTAR_GEMM_EXP_ZERO);
      const int16_t *bj = eb.data() + j * k;
      for (int64_t l = 0; l < k; ++l) {
        const int16_t b = bj[l], *a = ea.data() + l * m + ib;
        for (int64_t t = 0; t < mb; ++t) {
          const int16_t s = (int16_t)(a[t] + b);
          e[t] = e[t] > s ? e[t] : s;
        }
      }
      for (int64_t t = 0; t < mb; ++t) sigma[(size_t)(ib + t + j * m)] = exstar_gemm_sigma(e[t], 0, ep);
    }
  }
}

void EXSTAR_CPU_ENTRY(fast_sums)(int64_t m, int64_t n, int64_t k, const view &A, const view &B, sums &out, bool lower,
                                 const std::vector<double> *sigma)
{
#if defined(EXSTAR_CPU_HAVE_WIDE) && !defined(EXSTAR_CPU_WIDE)
  if (exstar_cpu_wide_enabled()) return fast_sums_wide(m, n, k, A, B, out, lower, sigma);
#endif
  out.m = m, out.n = n, out.k = k;
  const size_t mn = (size_t)(m * n);
  out.S.assign(mn, 0.0), out.R.assign(mn, 0.0);
  if (sigma) {
    out.sigma = *sigma;
  } else {
    out.sigma.assign(mn, 0.0);
    const std::vector<int> ea = row_exps(m, k, A);
    const view Bt{B.p, B.off, B.cs, B.rs}; // columns of op(B) as rows
    const std::vector<int> eb = row_exps(n, k, Bt);
    const int ep = exstar_gemm_count_exp(k);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) out.sigma[(size_t)(i + j * m)] = exstar_gemm_sigma(ea[(size_t)i], eb[(size_t)j], ep);
  }
  const int64_t ncmax = min64(NC, (n + NR - 1) / NR * NR);
  std::vector<double> ap_once, bp_once;
  double *const ap = scratch(ap_keep, ap_once, (size_t)(MC * KC)), *const bp = scratch(bp_keep, bp_once, (size_t)(ncmax * KC));
  for (int64_t jc = 0; jc < n; jc += NC) {
    const int64_t nc = min64(NC, n - jc);
    for (int64_t pc = 0; pc < k; pc += KC) {
      const int64_t kc = min64(KC, k - pc);
      pack_b(B, n, jc, (nc + NR - 1) / NR * NR, pc, kc, bp);
      for (int64_t ic = 0; ic < m; ic += MC) {
        const int64_t mc = min64(MC, m - ic);
        pack_a(A, m, ic, (mc + MR - 1) / MR * MR, pc, kc, ap);
        for (int64_t jr = 0; jr < nc; jr += NR)
          for (int64_t ir = 0; ir < mc; ir += MR) {
            if (lower && ic + ir + MR - 1 < jc + jr) continue; // every entry of the tile has i < j
            tile(out, ic + ir, jc + jr, kc, ap + ir * kc, bp + jr * kc, pc == 0, pc + kc == k);
          }
      }
    }
  }
}

} // namespace exstar_gemm
