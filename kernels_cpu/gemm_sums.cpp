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

// The register tile: MR rows (one vector of 4 doubles in AVX2, two of 8 in the AVX-512 copy) x NR
// columns.
#ifdef EXSTAR_CPU_WIDE
constexpr int MR = 16, NR = 4;
#else
constexpr int MR = 4, NR = 4;
#endif
// Blocks (GotoBLAS's): an MC x KC block of op(A) (256 KiB) stays in L2 while the KC x NR
// panels of op(B) (8 KiB each) stream through L1; the KC x NC block of op(B) (up to 8 MiB) sits
// in L3. NC is large so that each block of op(A) is packed once per KC step, not once per 128
// columns (2-core EPYC, n = 2048: packing op(A) 16 times took a quarter of the time).
constexpr int64_t MC = 128, NC = 4096, KC = 256;
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
//  - AVX2, 4 x 4 (16 registers: 8 accumulators, a, b and the temporaries). 8 x 3 (12
//    accumulators, 15 registers) was 40% slower on Zen 4, n = 2048 on 2 cores (770 against 545
//    ms); 8 x 2 no faster (2026-11-28). GCC's loop spends ~12 register copies a term (42
//    instructions): the terms go four at a time through term_quads below (27 instructions a
//    term). A first try of that (2026-11-28) was timed in the whole benchmark, within this
//    VM's noise; the loop alone in L1 says 10.2-10.7 -> 5.1-5.4 cycles a term (2026-11-29).
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
static_assert(MR == 4 && NR == 4, "the AVX2 tile is 4 x 4");
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

#if !defined(EXSTAR_CPU_WIDE) && defined(__x86_64__) && defined(__GNUC__)
// The AVX2 tile's terms four at a time, written out. GCC's code for one_term spends 12 register
// copies a term (a, b and S are all needed after t = fma(a, b, S), and every FMA form overwrites
// an input): 42 instructions where 27 do. Per column: b broadcast into ymm15 and copied to the
// column's spare register T (a copy the renamer drops), T = a·b + S (vfmadd213pd), S := T − S = q
// (the old S is dead), S := a·b − q (vfmsub231pd, one rounding: fma(a, b, −q)), R += S. T then
// holds the new S: a column's two registers swap roles every term, so after an even number of
// terms the sums are back in the operands. exstar_gemm_term's operations on every entry, in its
// order (additions commute): one_term's bits. The loop alone in L1 (AVX2 EPYC VM, 2026-11-29):
// GCC's 10.2-10.7 cycles a term, two terms an iteration 5.9-6.7, four 5.1-5.4.
#define EXSTAR_AVX2_COLUMN(S, T, R, BOFF)                                                                    \
  "vbroadcastsd " #BOFF "(%[b]), %%ymm15\n\t"                                                                \
  "vmovapd %%ymm15, " T "\n\t"                                                                               \
  "vfmadd213pd " S ", %%ymm14, " T "\n\t"                                                                    \
  "vsubpd " S ", " T ", " S "\n\t"                                                                           \
  "vfmsub231pd %%ymm15, %%ymm14, " S "\n\t"                                                                  \
  "vaddpd " S ", " R ", " R "\n\t"
// Term l (a at ap + 32 l, b at bp + 32 l), its sums in S0..S3 and spares T0..T3.
#define EXSTAR_AVX2_TERM(L, S0, S1, S2, S3, T0, T1, T2, T3)                                                   \
  "vmovupd " #L "*32(%[a]), %%ymm14\n\t" EXSTAR_AVX2_COLUMN(S0, T0, "%[r0]", L*32)                             \
      EXSTAR_AVX2_COLUMN(S1, T1, "%[r1]", L*32+8) EXSTAR_AVX2_COLUMN(S2, T2, "%[r2]", L*32+16)                   \
          EXSTAR_AVX2_COLUMN(S3, T3, "%[r3]", L*32+24)
#define EXSTAR_AVX2_EVEN(L) EXSTAR_AVX2_TERM(L, "%[s0]", "%[s1]", "%[s2]", "%[s3]", "%%ymm10", "%%ymm11", "%%ymm12", "%%ymm13")
#define EXSTAR_AVX2_ODD(L) EXSTAR_AVX2_TERM(L, "%%ymm10", "%%ymm11", "%%ymm12", "%%ymm13", "%[s0]", "%[s1]", "%[s2]", "%[s3]")
// count quads of terms, no fold (the caller folds after each run of EXSTAR_GEMM_FOLD terms).
inline void term_quads(int64_t count, const double *ap, const double *bp, vec::T *S, vec::T *R)
{
  asm volatile("1:\n\t" EXSTAR_AVX2_EVEN(0) EXSTAR_AVX2_ODD(1) EXSTAR_AVX2_EVEN(2) EXSTAR_AVX2_ODD(3)
               "add $128, %[a]\n\t"
               "add $128, %[b]\n\t"
               "dec %[q]\n\t"
               "jnz 1b\n\t"
               : [a] "+r"(ap), [b] "+r"(bp), [q] "+r"(count), [s0] "+x"(S[0]), [s1] "+x"(S[1]), [s2] "+x"(S[2]),
                 [s3] "+x"(S[3]), [r0] "+x"(R[0]), [r1] "+x"(R[1]), [r2] "+x"(R[2]), [r3] "+x"(R[3])
               :
               : "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory", "cc");
}
#undef EXSTAR_AVX2_ODD
#undef EXSTAR_AVX2_EVEN
#undef EXSTAR_AVX2_TERM
#undef EXSTAR_AVX2_COLUMN
#define EXSTAR_HAVE_TERM_QUADS 1
#endif

// The tile's S, R and sigma: column c at s + c·ld (MR entries each).
void micro(int64_t kc, const double *ap, const double *bp, double *s, double *r, const double *g, int64_t ld)
{
  constexpr int W = vec::W;
  // the running sums start at S + 1.5 sigma (exstar_gemm_run_begin), exact
  const double one_half = 1.5;
  const vec::T h = vec::set1(&one_half);
  vec::T S[RV * NR], R[RV * NR];
  for (int x = 0; x < RV * NR; ++x) {
    const int64_t o = (x / RV) * ld + (x % RV) * W; // entry vector x = c·RV + v
    S[x] = vec::fmadd(vec::load(g + o), h, vec::load(s + o));
    R[x] = vec::load(r + o);
  }
  // runs of EXSTAR_GEMM_FOLD terms (kc's blocks start at multiples of it), R folded into S
  // after each whole run (exstar_gemm_fold)
  for (int64_t l0 = 0; l0 < kc; l0 += EXSTAR_GEMM_FOLD) {
    const int64_t l1 = min64(kc, l0 + EXSTAR_GEMM_FOLD);
    int64_t l = l0;
#ifdef EXSTAR_HAVE_TERM_QUADS
    if (l1 - l0 >= 4) term_quads((l1 - l0) / 4, ap + l * MR, bp + l * NR, S, R), l += (l1 - l0) / 4 * 4;
#endif
    for (; l < l1; ++l) one_term(l, ap, bp, S, R);
    if (l1 - l0 == EXSTAR_GEMM_FOLD)
      for (int x = 0; x < RV * NR; ++x) {
        const vec::T t = vec::add(S[x], R[x]);
        R[x] = vec::sub(R[x], vec::sub(t, S[x]));
        S[x] = t;
      }
  }
  // exstar_gemm_run_end: S - 1.5 sigma, exact
  for (int x = 0; x < RV * NR; ++x) {
    const int64_t o = (x / RV) * ld + (x % RV) * W;
    vec::store(s + o, vec::fnmadd(vec::load(g + o), h, S[x]));
    vec::store(r + o, R[x]);
  }
}
#else
void micro(int64_t kc, const double *ap, const double *bp, double *s, double *r, const double *g, int64_t ld)
{
  for (int c = 0; c < NR; ++c)
    for (int q = 0; q < MR; ++q) s[c * ld + q] = exstar_gemm_run_begin(s[c * ld + q], g[c * ld + q]);
  for (int64_t l = 0; l < kc; ++l) {
    for (int c = 0; c < NR; ++c)
      for (int q = 0; q < MR; ++q) exstar_gemm_term(ap[l * MR + q], bp[l * NR + c], &s[c * ld + q], &r[c * ld + q]);
    if (exstar_gemm_folds_after(l))
      for (int c = 0; c < NR; ++c)
        for (int q = 0; q < MR; ++q) exstar_gemm_fold(&s[c * ld + q], &r[c * ld + q]);
  }
  for (int c = 0; c < NR; ++c)
    for (int q = 0; q < MR; ++q) s[c * ld + q] = exstar_gemm_run_end(s[c * ld + q], g[c * ld + q]);
}
#endif

// One MR x NR tile at (i0, j0) of the sums: in place when it is whole, else (an edge) copied in
// and out around micro (a copy of every tile cost ~11% of the AVX2 gemm, n = 2048).
void tile(sums &out, int64_t i0, int64_t j0, int64_t kc, const double *ap, const double *bp)
{
  if (i0 + MR <= out.m && j0 + NR <= out.n) {
    const size_t x = (size_t)(i0 + j0 * out.m);
    return micro(kc, ap, bp, out.S.data() + x, out.R.data() + x, out.sigma.data() + x, out.m);
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
  micro(kc, ap, bp, s, r, g, MR);
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
            tile(out, ic + ir, jc + jr, kc, ap + ir * kc, bp + jr * kc);
          }
      }
    }
  }
}

} // namespace exstar_gemm
