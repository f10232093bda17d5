// The CPU kernels of Level 3 against MPFR (no StarPU): gemm and trsm bit for bit the
// definitions of level3.h, with the fast path on and with every entry forced through the exact
// repair path; the GEMM-accumulate state's checked rounding.
#include <catch2/catch.hpp>
#include "tests/level3/level3_cases.hpp"
#include "kernels_cpu/gemm.h"
#include "kernels_cpu/gemm_sums.h"
#include "kernels_cpu/acc_cpu.h" /* what core/checked_round.h builds on */
#include "core/checked_round.h"
#include "core/gemm.h"
#include <cstring>

using namespace exstar_test;

namespace {

std::vector<double> run_gemm(const gemm_case &c, int exact_only, int64_t *repaired = nullptr)
{
  std::vector<double> C = c.C;
  int64_t r = exstar_cpu_dgemm(c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A.data(), 0, c.lda, c.B.data(), 0, c.ldb,
                               c.beta, C.data(), 0, c.ldc, exact_only);
  if (repaired) *repaired = r;
  std::vector<double> out((size_t)c.m * c.n);
  for (int j = 0; j < c.n; ++j)
    for (int i = 0; i < c.m; ++i) out[(size_t)i + (size_t)j * c.m] = C[(size_t)i + (size_t)j * c.ldc];
  return out;
}

void check_bits(const std::vector<double> &got, const std::vector<double> &expected, int m)
{
  REQUIRE(got.size() == expected.size());
  for (size_t x = 0; x < got.size(); ++x) {
    INFO("entry (" << x % (size_t)std::max(m, 1) << ", " << x / (size_t)std::max(m, 1) << "): got " << got[x]
                   << " expected " << expected[x]);
    CHECK(same_bits(got[x], expected[x]));
  }
}

const std::vector<gemm_case> &gcases()
{
  static const std::vector<gemm_case> cs = gemm_cases();
  return cs;
}

const std::vector<trsm_case> &tcases()
{
  static const std::vector<trsm_case> cs = trsm_cases();
  return cs;
}

} // namespace

TEST_CASE("gemm kernel: every entry is the correctly rounded exact value", "[gemm]")
{
  for (const gemm_case &c : gcases()) {
    SECTION(c.name) { check_bits(run_gemm(c, 0), c.expected, c.m); }
  }
}

TEST_CASE("gemm kernel: the exact repair path alone gives the same bits", "[gemm]")
{
  for (const gemm_case &c : gcases()) {
    SECTION(c.name) { check_bits(run_gemm(c, 1), c.expected, c.m); }
  }
}

TEST_CASE("gemm kernel: wide exponent ranges through the second pass (every entry's own split constant)", "[gemm]")
{
  // at least 256 entries, most of them declined by the first pass: the vectorized retry of all
  // entries runs, then the exact path for what it declines; specials and zeros among them
  Rng rng(20261127);
  struct wide_class {
    const char *name;
    value_gen gen;
  };
  const wide_class classes[] = {
      {"exponents 2^-300..2^300", [](int q, Rng &r) { return gen_exp_spread(q, -300, 300, r); }},
      {"exponents 2^-1000..2^1000", [](int q, Rng &r) { return gen_exp_spread(q, -1000, 1000, r); }},
      {"exponents 2^-540..2^-480 (underflowing products)", [](int q, Rng &r) { return gen_exp_spread(q, -540, -480, r); }},
      {"specials among wide", [](int q, Rng &r) {
         std::vector<double> v = gen_exp_spread(q, -200, 200, r), sp = gen_special(q, r, 0.02);
         for (size_t x = 0; x < v.size(); x += 37) v[x] = sp[x];
         return v;
       }},
  };
  for (const wide_class &wc : classes)
    for (char ta : {'N', 'T'}) {
      gemm_case c = make_gemm(std::string(wc.name) + " " + ta + "N", ta, 'N', 24, 19, 40, ta == 'T' ? -0.5 : 1.0,
                              ta == 'T' ? 1.0 : 0.0, wc.gen, wc.gen, rng);
      SECTION(c.name)
      {
        int64_t repaired = -1;
        check_bits(run_gemm(c, 0, &repaired), c.expected, c.m);
        CHECK(repaired > 24 * 19 / 32); // the second pass did run
      }
    }
}

TEST_CASE("gemm kernel: uniform data takes the fast path", "[gemm]")
{
  Rng rng(5);
  const value_gen uni = [](int q, Rng &r) { return gen_uniform(q, r); };
  gemm_case c;
  c.transa = 'N', c.transb = 'N', c.m = c.n = c.k = 96, c.alpha = 1.0, c.beta = 0.0;
  c.A = stored_matrix(96, 96, 0, uni, rng, &c.lda);
  c.B = stored_matrix(96, 96, 0, uni, rng, &c.ldb);
  c.ldc = 96;
  c.C.assign(96 * 96, 0.0);
  int64_t repaired = -1;
  run_gemm(c, 0, &repaired);
  CHECK(repaired <= 96 * 96 / 1000);
}

// The register tiles (AVX2 8 x 3 with its written-out runs of terms, AVX-512 16 x 4; the test
// runs under both ISAs) against core/gemm.h's loop of one entry, term by term with its folds: S
// and R bit for bit, for sizes off every tile, run, fold and block edge.
static void check_fast_sums(int64_t m, int64_t n, int64_t k, Rng &rng)
{
  const std::vector<double> A = gen_uniform((int)(m * k), rng), B = gen_uniform((int)(k * n), rng);
  exstar_gemm::sums out;
  exstar_gemm::fast_sums(m, n, k, exstar_gemm::view{A.data(), 0, 1, m}, exstar_gemm::view{B.data(), 0, 1, k}, out);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const size_t x = (size_t)(i + j * m);
      const double sigma = out.sigma[x];
      double S = exstar_gemm_run_begin(0.0, sigma), R = 0.0;
      for (int64_t l = 0; l < k; ++l) {
        exstar_gemm_term(A[(size_t)(i + l * m)], B[(size_t)(l + j * k)], &S, &R);
        if (exstar_gemm_folds_after(l)) exstar_gemm_fold(&S, &R);
      }
      S = exstar_gemm_run_end(S, sigma);
      INFO("m " << m << " n " << n << " k " << k << " entry (" << i << ", " << j << ")");
      CHECK(same_bits(out.S[x], S));
      CHECK(same_bits(out.R[x], R));
    }
}

TEST_CASE("fast sums: every entry's S and R are core/gemm.h's loop's, bit for bit", "[gemm][sums]")
{
  Rng rng(23);
  for (int64_t k : {1, 2, 3, 31, 32, 33, 63, 65, 255, 256, 257, 513})
    for (int64_t m : {1, 5, 17}) check_fast_sums(m, 7, k, rng);
}

// More columns than one block of packed op(B) (4095 with the AVX2 tile's 3 columns, 4096 with
// AVX-512's 4): the block's last panel stays inside its scratch (it overran it by two columns
// before 2026-11-29, found by AddressSanitizer), and every entry still has the loop's bits.
TEST_CASE("fast sums: more columns than a block of op(B)", "[gemm][sums]")
{
  Rng rng(29);
  for (int64_t n : {4097, 4100, 8200}) check_fast_sums(3, n, 40, rng);
}

TEST_CASE("GEMM-accumulate state: tiles added in any split round to the gemm bits or decline", "[gemm][state]")
{
  for (const gemm_case &c : gcases()) {
    if (c.alpha != 1.0 || (c.beta != 0.0 && c.beta != 1.0) || c.k == 0 || c.m == 0 || c.n == 0) continue;
    SECTION(c.name)
    {
      // st := C (beta 1) or 0, then += op(A) op(B) in three pieces of k, then rounded.
      std::vector<exstar_gemm_state_entry> st((size_t)c.m * c.n);
      std::vector<double> zero((size_t)c.m * c.n, 0.0), C0((size_t)c.m * c.n);
      for (int j = 0; j < c.n; ++j)
        for (int i = 0; i < c.m; ++i) C0[(size_t)i + (size_t)j * c.m] = c.beta != 0.0 ? c.C[(size_t)i + (size_t)j * c.ldc] : 0.0;
      exstar_cpu_gemm_state_init(c.m, c.n, C0.data(), 0, c.m, st.data(), 0, c.m);
      const int cuts[] = {0, c.k / 3, c.k / 2, c.k};
      for (int p = 0; p < 3; ++p) {
        const int l0 = cuts[p], len = cuts[p + 1] - cuts[p];
        const int64_t offa = c.transa == 'N' ? (int64_t)l0 * c.lda : l0, offb = c.transb == 'N' ? l0 : (int64_t)l0 * c.ldb;
        exstar_cpu_gemm_state_add(c.transa, c.transb, c.m, c.n, len, 1.0, c.A.data(), offa, c.lda, c.B.data(), offb,
                                  c.ldb, st.data(), 0, c.m, 0);
      }
      std::vector<double> got = C0;
      std::vector<unsigned char> mask((size_t)c.m * c.n, 7);
      const int64_t declined = exstar_cpu_gemm_state_round(c.m, c.n, st.data(), 0, c.m, got.data(), 0, c.m, mask.data());
      int64_t masked = 0;
      for (size_t x = 0; x < got.size(); ++x) {
        REQUIRE(mask[x] <= 1);
        masked += mask[x];
        if (mask[x]) continue; // declined: the caller repairs it
        INFO(c.name << " entry " << x);
        CHECK(same_bits(got[x], c.expected[x]));
      }
      CHECK(masked == declined);
      if (c.name.rfind("uniform", 0) == 0) CHECK(declined == 0);
    }
  }
}

// st += sign·op(A)·op(B) with uplo 'L' and with every entry, twice (both signs): the entries
// i >= j must agree bit for bit, the others keep their start.
static void check_uplo_lower(char ta, char tb, int m, int n, int k, const double *A, int lda, const double *B, int ldb)
{
  const size_t mn = (size_t)m * n;
  std::vector<exstar_gemm_state_entry> all(mn), low(mn);
  for (size_t x = 0; x < mn; ++x) // a recognizable start, so that untouched entries show
    all[x] = low[x] = exstar_gemm_state_entry{(double)x, 0.25, 0.0, 0.0};
  for (double sign : {1.0, -1.0}) {
    exstar_cpu_gemm_state_add(ta, tb, m, n, k, sign, A, 0, lda, B, 0, ldb, all.data(), 0, m, 0);
    exstar_cpu_gemm_state_add(ta, tb, m, n, k, sign, A, 0, lda, B, 0, ldb, low.data(), 0, m, 'L');
  }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      const size_t x = (size_t)i + (size_t)j * m;
      const exstar_gemm_state_entry want = i >= j ? all[x] : exstar_gemm_state_entry{(double)x, 0.25, 0.0, 0.0};
      INFO("entry (" << i << ", " << j << ")");
      CHECK(same_bits(low[x].hi, want.hi));
      CHECK(same_bits(low[x].lo, want.lo));
      CHECK(same_bits(low[x].err, want.err));
      CHECK(same_bits(low[x].mag, want.mag));
    }
}

TEST_CASE("GEMM-accumulate state, uplo 'L': the entries i >= j as with every entry, the others untouched", "[gemm][state]")
{
  for (const gemm_case &c : gcases()) {
    if (c.k == 0 || c.m == 0 || c.n == 0) continue;
    SECTION(c.name) { check_uplo_lower(c.transa, c.transb, c.m, c.n, c.k, c.A.data(), c.lda, c.B.data(), c.ldb); }
  }
  // Square and past the kernel's blocks (MC = 128 rows, KC = 256 terms), as the Cholesky's
  // diagonal tiles: A·Bᵀ.
  for (int nn : {1, 9, 64, 131, 300}) {
    SECTION("square " + std::to_string(nn))
    {
      Rng rng(nn);
      const int k = nn + 7;
      const std::vector<double> A = gen_uniform(nn * k, rng), B = gen_uniform(nn * k, rng);
      check_uplo_lower('N', 'T', nn, nn, k, A.data(), nn, B.data(), nn);
      check_uplo_lower('T', 'N', nn, nn, nn, A.data(), k, B.data(), k);
    }
  }
}

TEST_CASE("trsm kernel: every column (side L) or row (side R) is trsv's result", "[trsm]")
{
  for (const trsm_case &c : tcases()) {
    for (int exact_only : {0, 1}) {
      SECTION(c.name + (exact_only ? " (exact path)" : ""))
      {
        std::vector<double> B = c.B;
        exstar_cpu_dtrsm(c.side, c.uplo, c.transa, c.diag, c.m, c.n, c.alpha, c.T.data(), 0, c.ldt, B.data(), 0, c.ldb,
                         exact_only);
        std::vector<double> got((size_t)c.m * c.n);
        for (int j = 0; j < c.n; ++j)
          for (int i = 0; i < c.m; ++i) got[(size_t)i + (size_t)j * c.m] = B[(size_t)i + (size_t)j * c.ldb];
        check_bits(got, c.expected, c.m);
      }
    }
  }
}
