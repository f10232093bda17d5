// The CRT products of core/crt.h (the integer fast path of the CUDA gemm, whose int8 GEMMs run
// on the tensor cores) emulated on the CPU: the moduli table against its definition, residues
// and the reconstruction against 128-bit integers, and the whole fast path (its int32 sums
// computed here) against MPFR: whenever it accepts, the entry is the definition's bits.
#include <catch2/catch.hpp>
#include "tests/level3/level3_cases.hpp"
#include "kernels_cpu/kernels_cpu.h"
#include "core/checked_round.h"
#include "core/gemm.h"
#include "core/crt.h"
#include <cstdint>
#include <cstring>

using namespace exstar_test;

namespace {

using u128 = unsigned __int128;

struct modulus {
  unsigned p, inv, c0, c1, c2, m[EXSTAR_CRT_LIMBS];
};

const std::vector<modulus> &moduli()
{
#define EXSTAR_TEST_ROW(p, inv, c0, c1, c2, m0, m1, m2, m3, m4, m5, m6) {p, inv, c0, c1, c2, {m0, m1, m2, m3, m4, m5, m6}},
  static const std::vector<modulus> ms = {EXSTAR_CRT_MODULI(EXSTAR_TEST_ROW)};
#undef EXSTAR_TEST_ROW
  return ms;
}

// x mod p for a number in 32-bit limbs (least significant first).
unsigned limbs_mod(const unsigned *x, int n, unsigned p)
{
  uint64_t r = 0;
  for (int t = n - 1; t >= 0; --t) r = ((r << 32) + x[t]) % p;
  return (unsigned)r;
}

TEST_CASE("crt: the moduli table holds the CRT constants", "[crt]")
{
  const auto &ms = moduli();
  REQUIRE(ms.size() == EXSTAR_CRT_COUNT);
  constexpr int L = EXSTAR_CRT_LIMBS;
  const unsigned M[L] = {EXSTAR_CRT_M0, EXSTAR_CRT_M1, EXSTAR_CRT_M2, EXSTAR_CRT_M3,
                         EXSTAR_CRT_M4, EXSTAR_CRT_M5, EXSTAR_CRT_M6};
  REQUIRE(M[L - 1] >> (EXSTAR_CRT_LOG2M_FLOOR - 32 * (L - 1)) == 1u); // 2^LOG2M_FLOOR <= M < 2^(LOG2M_FLOOR+1)
  // the widths the bound's comment states (core/crt.h): 90 bits at k = 16384, 93 at k = 512
  REQUIRE(exstar_crt_width(16384) == 90);
  REQUIRE(exstar_crt_width(512) == 93);
  REQUIRE(exstar_crt_width(1) == 95);
  for (size_t i = 0; i < ms.size(); ++i) {
    const modulus &a = ms[i];
    REQUIRE(a.p <= 256);
    // M/p times p is M (limb by limb with carries)
    uint64_t carry = 0;
    for (int t = 0; t < L; ++t) {
      const uint64_t v = (uint64_t)a.m[t] * a.p + carry;
      REQUIRE((unsigned)v == M[t]);
      carry = v >> 32;
    }
    REQUIRE(carry == 0);
    REQUIRE((uint64_t)limbs_mod(a.m, L, a.p) * a.inv % a.p == 1u); // inv = (M/p)^-1 mod p
    for (size_t j = 0; j < ms.size(); ++j)
      if (j != i) REQUIRE(limbs_mod(a.m, L, ms[j].p) == 0u); // M/p holds every other modulus
    const unsigned c[3] = {a.c0, a.c1, a.c2};
    uint64_t pw = 1 % a.p;
    for (int t = 0; t < 12; ++t, pw = pw * 256 % a.p) REQUIRE(((c[t / 4] >> (8 * (t % 4))) & 0xffu) == pw);
  }
}

// |A| and its sign as a 128-bit integer.
u128 split_value(const exstar_crt_int &x) { return ((u128)x.w2 << 64) | ((u128)x.w1 << 32) | x.w0; }

TEST_CASE("crt: the split is trunc(a 2^(w-e)) and the residues are its residues", "[crt]")
{
  Rng rng(20261127);
  for (const value_class &vc : level3_classes()) {
    std::vector<double> v = vc.gen(200, rng);
    int e = EXSTAR_GEMM_EXP_ZERO;
    for (double x : v) e = exstar_line_exp_step(e, x);
    if (e >= EXSTAR_GEMM_EXP_NONFINITE || e <= EXSTAR_GEMM_EXP_ZERO) continue;
    for (int w : {60, 83, 86, 90, 93, 95}) {
      for (double x : v) {
        const exstar_crt_int s = exstar_crt_split(x, e, w);
        const u128 A = split_value(s);
        REQUIRE(A <= ((u128)1 << w));
        // A 2^(e-w) <= |x| < (A + 1) 2^(e-w), checked exactly with scaled doubles where they are exact
        const double lo = std::ldexp((double)A, e - w), hi = std::ldexp((double)(A + 1), e - w);
        if ((A >> 53) == 0 && std::fabs(lo) > 0x1p-1000) {
          REQUIRE(lo <= std::fabs(x));
          REQUIRE(std::fabs(x) < hi);
        }
        REQUIRE(s.neg == (std::signbit(x) ? 1 : 0));
        for (const modulus &p : moduli()) {
          const int r = exstar_crt_residue(s, p.p, p.c0, p.c1, p.c2);
          REQUIRE(r >= -128);
          REQUIRE(r <= 127);
          const unsigned want = (unsigned)(A % p.p), got = (unsigned)((r % (int)p.p + (int)p.p) % (int)p.p);
          REQUIRE(got == (s.neg ? (p.p - want) % p.p : want));
        }
      }
    }
  }
}

TEST_CASE("crt: the reconstruction gives S back from int32 residues", "[crt]")
{
  Rng rng(7);
  for (int trial = 0; trial < 4000; ++trial) {
    // S = a random signed integer below 2^(LOG2M_FLOOR - 3), scaled by 2^e0 = 2^-200
    const int bits = 1 + (int)(rng() % (EXSTAR_CRT_LOG2M_FLOOR - 3));
    constexpr int NL = EXSTAR_CRT_LIMBS;
    unsigned L[NL] = {};
    for (int t = 0; t < NL; ++t) L[t] = (unsigned)rng();
    for (int t = 0; t < NL; ++t) {
      const int keep = bits - 32 * t;
      L[t] = keep <= 0 ? 0u : keep >= 32 ? L[t] : (L[t] & ((1u << keep) - 1));
    }
    const bool neg = rng() & 1;
    exstar_crt_sum s;
    exstar_crt_sum_init(&s);
    for (const modulus &p : moduli()) {
      unsigned r = limbs_mod(L, NL, p.p);
      if (neg) r = (p.p - r) % p.p;
      // any int32 congruent to it: add a multiple of p
      const int c = (int)r + (int)p.p * (int)((int)(rng() % 20001) - 10000);
      exstar_crt_sum_add(&s, c, p.p, p.inv, p.m[0], p.m[1], p.m[2], p.m[3], p.m[4], p.m[5], p.m[6]);
    }
    exstar_bdd d;
    exstar_crt_sum_to_bdd(&s, -200, &d);
    // compare with the exact value by limbs: hi + lo (exact double-double here: err bounds it)
    double want_hi = 0.0, want_rest = 0.0;
    for (int t = NL - 1; t >= 0; --t) {
      double e;
      const double term = (neg ? -1.0 : 1.0) * (double)L[t] * std::ldexp(1.0, 32 * t - 200);
      want_hi = exstar_two_sum(want_hi, term, &e);
      want_rest += e;
    }
    const double diff = (d.hi - want_hi) + (d.lo - want_rest);
    REQUIRE(std::fabs(diff) <= d.mag * EXSTAR_BDD_REL + std::fabs(want_rest) * 0x1p-50 + 0x1p-1000);
    REQUIRE(d.err == 0.0);
  }
}

// The CRT fast path of one gemm, all on the CPU: y = RN(alpha op(A) op(B) + beta C) where
// accepted, NaN where declined.
std::vector<double> crt_gemm(const gemm_case &c, long *declined)
{
  const int w = exstar_crt_width(c.k);
  std::vector<int> ea((size_t)c.m, EXSTAR_GEMM_EXP_ZERO), eb((size_t)c.n, EXSTAR_GEMM_EXP_ZERO);
  for (int i = 0; i < c.m; ++i)
    for (int l = 0; l < c.k; ++l) ea[(size_t)i] = exstar_line_exp_step(ea[(size_t)i], op_at(c.A, c.lda, c.transa, i, l));
  for (int j = 0; j < c.n; ++j)
    for (int l = 0; l < c.k; ++l) eb[(size_t)j] = exstar_line_exp_step(eb[(size_t)j], op_at(c.B, c.ldb, c.transb, l, j));
  const auto &ms = moduli();
  const size_t P = ms.size();
  std::vector<int8_t> ra(P * c.m * c.k), rb(P * c.k * c.n);
  for (int i = 0; i < c.m; ++i)
    for (int l = 0; l < c.k; ++l) {
      const exstar_crt_int s = exstar_crt_split(op_at(c.A, c.lda, c.transa, i, l), ea[(size_t)i], w);
      for (size_t r = 0; r < P; ++r)
        ra[(r * c.m + i) * c.k + l] = (int8_t)exstar_crt_residue(s, ms[r].p, ms[r].c0, ms[r].c1, ms[r].c2);
    }
  for (int j = 0; j < c.n; ++j)
    for (int l = 0; l < c.k; ++l) {
      const exstar_crt_int s = exstar_crt_split(op_at(c.B, c.ldb, c.transb, l, j), eb[(size_t)j], w);
      for (size_t r = 0; r < P; ++r)
        rb[(r * c.n + j) * c.k + l] = (int8_t)exstar_crt_residue(s, ms[r].p, ms[r].c0, ms[r].c1, ms[r].c2);
    }
  std::vector<double> y((size_t)c.m * c.n, std::numeric_limits<double>::quiet_NaN());
  *declined = 0;
  for (int j = 0; j < c.n; ++j)
    for (int i = 0; i < c.m; ++i) {
      double out = 0.0;
      const int kind = exstar_crt_entry_kind(ea[(size_t)i], eb[(size_t)j], w, c.k);
      int ok = kind != EXSTAR_CRT_DECLINE;
      exstar_bdd d{0.0, 0.0, 0.0, 0.0};
      if (kind == EXSTAR_CRT_PRODUCT) {
        exstar_crt_sum s;
        exstar_crt_sum_init(&s);
        for (size_t r = 0; r < P; ++r) {
          int32_t sum = 0;
          for (int l = 0; l < c.k; ++l) sum += (int32_t)ra[(r * c.m + i) * c.k + l] * rb[(r * c.n + j) * c.k + l];
          const modulus &p = ms[r];
          exstar_crt_sum_add(&s, sum, p.p, p.inv, p.m[0], p.m[1], p.m[2], p.m[3], p.m[4], p.m[5], p.m[6]);
        }
        exstar_crt_sum_to_bdd(&s, ea[(size_t)i] + eb[(size_t)j] - 2 * w, &d);
        d.err = exstar_crt_bound(c.k, ea[(size_t)i], eb[(size_t)j], w);
      }
      if (ok) {
        const double cin = c.beta != 0.0 ? c.C[(size_t)i + (size_t)j * c.ldc] : 0.0;
        ok = exstar_bdd_finish(&d, c.alpha, c.beta, cin, &out);
      }
      if (ok) y[(size_t)i + (size_t)j * c.m] = out;
      else ++*declined;
    }
  return y;
}

TEST_CASE("crt: every entry the CRT path accepts is the definition's (MPFR)", "[crt]")
{
  std::vector<gemm_case> cs = gemm_cases();
  Rng rng(11);
  const value_gen uni = [](int q, Rng &r) { return gen_uniform(q, r); };
  cs.push_back(make_gemm("uniform 40x30x300", 'N', 'N', 40, 30, 300, 1.0, 0.0, uni, uni, rng));
  cs.push_back(make_gemm("uniform 20x20x2000 beta", 'T', 'N', 20, 20, 2000, -1.5, 2.0, uni, uni, rng));
  cs.push_back(make_gemm("exponents 2^-40..2^40", 'N', 'T', 30, 30, 500, 1.0, 0.0,
                         [](int q, Rng &r) { return gen_exp_spread(q, -40, 40, r); },
                         [](int q, Rng &r) { return gen_exp_spread(q, -40, 40, r); }, rng));
  gemm_case z = make_gemm("zero lines, beta 1", 'N', 'N', 9, 8, 70, 1.0, 1.0, uni, uni, rng);
  for (int l = 0; l < z.k; ++l) z.A[(size_t)2 + (size_t)l * z.lda] = 0.0, z.B[(size_t)l + (size_t)5 * z.ldb] = -0.0;
  gemm_expect(z);
  cs.push_back(z);
  long total = 0, total_declined = 0;
  for (const gemm_case &c : cs) {
    if (c.m == 0 || c.n == 0 || c.k == 0) continue;
    long declined = 0;
    const std::vector<double> y = crt_gemm(c, &declined);
    for (int j = 0; j < c.n; ++j)
      for (int i = 0; i < c.m; ++i) {
        const double got = y[(size_t)i + (size_t)j * c.m], want = c.expected[(size_t)i + (size_t)j * c.m];
        if (std::isnan(got)) continue; // declined: the repair path's
        INFO(c.name << " entry (" << i << ", " << j << ")");
        REQUIRE(std::memcmp(&got, &want, sizeof got) == 0);
      }
    if (c.name.rfind("uniform", 0) == 0 && c.m * c.n >= 400) {
      INFO(c.name);
      CHECK(declined * 1000 <= (long)c.m * c.n); // uniform data: almost every entry proven
    }
    total += (long)c.m * c.n, total_declined += declined;
  }
  CHECK(total_declined < total);
}

} // namespace
