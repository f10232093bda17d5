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
//    ms); 8 x 2 no faster (2026-11-28). GCC's loop spends ~12 register copies a term (36
//    instructions); a hand-scheduled one (inline assembly, the 231 FMA forms, S and a temporary
//    swapping roles every term: one copy a term and column, 26 instructions) was within this
//    VM's noise (0-7%, n = 1024, one thread) and is not kept (2026-11-28, second session).
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
void micro(int64_t kc, const double *ap, const double *bp, double *s, double *r, const double *g)
{
  constexpr int W = vec::W;
  // the running sums start at S + 1.5 sigma (exstar_gemm_run_begin), exact
  const double one_half = 1.5;
  const vec::T h = vec::set1(&one_half);
  vec::T S[RV * NR], R[RV * NR];
  for (int x = 0; x < RV * NR; ++x) {
    S[x] = vec::fmadd(vec::load(g + W * x), h, vec::load(s + W * x));
    R[x] = vec::load(r + W * x);
  }
  // runs of EXSTAR_GEMM_FOLD terms (kc's blocks start at multiples of it), R folded into S
  // after each whole run (exstar_gemm_fold)
  for (int64_t l0 = 0; l0 < kc; l0 += EXSTAR_GEMM_FOLD) {
    const int64_t l1 = min64(kc, l0 + EXSTAR_GEMM_FOLD);
    for (int64_t l = l0; l < l1; ++l) {
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
    if (l1 - l0 == EXSTAR_GEMM_FOLD)
      for (int x = 0; x < RV * NR; ++x) {
        const vec::T t = vec::add(S[x], R[x]);
        R[x] = vec::sub(R[x], vec::sub(t, S[x]));
        S[x] = t;
      }
  }
  // exstar_gemm_run_end: S - 1.5 sigma, exact
  for (int x = 0; x < RV * NR; ++x) {
    vec::store(s + W * x, vec::fnmadd(vec::load(g + W * x), h, S[x]));
    vec::store(r + W * x, R[x]);
  }
}
#else
void micro(int64_t kc, const double *ap, const double *bp, double *s, double *r, const double *g)
{
  for (int x = 0; x < MR * NR; ++x) s[x] = exstar_gemm_run_begin(s[x], g[x]);
  for (int64_t l = 0; l < kc; ++l) {
    for (int c = 0; c < NR; ++c)
      for (int q = 0; q < MR; ++q) exstar_gemm_term(ap[l * MR + q], bp[l * NR + c], &s[c * MR + q], &r[c * MR + q]);
    if (exstar_gemm_folds_after(l))
      for (int x = 0; x < MR * NR; ++x) exstar_gemm_fold(&s[x], &r[x]);
  }
  for (int x = 0; x < MR * NR; ++x) s[x] = exstar_gemm_run_end(s[x], g[x]);
}
#endif

// One MR x NR tile at (i0, j0) of the sums: copied in and out around micro (edges included).
void tile(sums &out, int64_t i0, int64_t j0, int64_t kc, const double *ap, const double *bp)
{
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
  micro(kc, ap, bp, s, r, g);
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
