// Self-test of the exstar test-support library: the MPFR oracles against hand-computed values,
// against single IEEE operations (which are correctly rounded), and against MPFR's own
// mpfr_get_d; and the generators' documented properties.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "generators.hpp"
#include "mpfr_value.hpp"
#include "oracle.hpp"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

using namespace exstar_test;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Same double, bit for bit (signed zeros differ), any NaN equal to any NaN.
bool same(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Independent rounding path: exact sum with mpfr_sum (target wide enough to be exact), rounded
// once by MPFR's mpfr_get_d.
double mpfr_get_d_dot(const std::vector<double>& x, const std::vector<double>& y)
{
    std::vector<std::unique_ptr<MpfrValue>> terms;
    for (std::size_t i = 0; i < x.size(); ++i) {
        terms.push_back(std::make_unique<MpfrValue>(106, x[i]));
        MpfrValue yi(53, y[i]);
        mpfr_mul(terms.back()->get(), terms.back()->get(), yi.get(), MPFR_RNDN);
    }
    std::vector<mpfr_ptr> ptrs;
    for (const auto& t : terms)
        ptrs.push_back(t->get());
    MpfrValue s(4500);
    mpfr_sum(s.get(), ptrs.data(), ptrs.size(), MPFR_RNDN);
    return mpfr_get_d(s.get(), MPFR_RNDN);
}

std::vector<double> mixed_values(Rng& rng, int n)
{
    std::vector<double> v = gen_exp_spread(n, -1074, 1023, rng);
    for (double d : gen_subnormal(n / 4, rng))
        v.push_back(d);
    for (double d : gen_near_max(n / 4, rng, 1000))
        v.push_back(d);
    for (double d : gen_special(n / 4, rng, 1.0))
        v.push_back(d);
    for (double d : gen_exp_spread(n, -600, 600, rng))
        v.push_back(d);
    return v;
}

// 1-norm of a column-major n x n matrix.
double norm1(const std::vector<double>& A, int n)
{
    double best = 0;
    for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = 0; i < n; ++i)
            s += std::fabs(A[i + j * n]);
        best = std::max(best, s);
    }
    return best;
}

// cond_1 via an inverse by long double Gauss-Jordan with partial pivoting (fine for cond << 1e15).
double cond1(std::vector<double> A, int n)
{
    std::vector<long double> M(2 * static_cast<std::size_t>(n) * n, 0.0L); // [A | I], row-major
    auto m = [&](int i, int j) -> long double& { return M[static_cast<std::size_t>(i) * 2 * n + j]; };
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j)
            m(i, j) = A[i + j * n];
        m(i, n + i) = 1;
    }
    for (int c = 0; c < n; ++c) {
        int p = c;
        for (int i = c + 1; i < n; ++i)
            if (std::fabs(m(i, c)) > std::fabs(m(p, c)))
                p = i;
        for (int j = 0; j < 2 * n; ++j)
            std::swap(m(c, j), m(p, j));
        const long double piv = m(c, c);
        for (int j = 0; j < 2 * n; ++j)
            m(c, j) /= piv;
        for (int i = 0; i < n; ++i)
            if (i != c) {
                const long double f = m(i, c);
                for (int j = 0; j < 2 * n; ++j)
                    m(i, j) -= f * m(c, j);
            }
    }
    std::vector<double> inv(static_cast<std::size_t>(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            inv[i + j * n] = static_cast<double>(m(i, n + j));
    return norm1(A, n) * norm1(inv, n);
}

} // namespace

TEST_CASE("hand-computed extreme dot and sum cases", "[oracle]")
{
    for (const DotCase& c : extreme_dot_cases()) {
        INFO(c.name);
        CHECK(same(ref_dot(c.x, c.y), c.expected));
        CHECK(same(mpfr_get_d_dot(c.x, c.y), c.expected));
        bool ones = true;
        for (double yi : c.y)
            ones = ones && yi == 1.0;
        if (ones)
            CHECK(same(ref_sum(c.x), c.expected));
    }
}

TEST_CASE("special-value rules", "[oracle]")
{
    for (const DotCase& c : special_dot_cases()) {
        INFO(c.name);
        CHECK(same(ref_dot(c.x, c.y), c.expected));
        bool ones = true;
        for (double yi : c.y)
            ones = ones && yi == 1.0;
        if (ones)
            CHECK(same(ref_sum(c.x), c.expected));
    }
    CHECK(same(ref_scal(0.0, kInf), kNaN));
    CHECK(same(ref_scal(-0.0, 5.0), -0.0));
    CHECK(same(ref_scal(2.0, DBL_MAX), kInf));
    CHECK(same(ref_scal(0.5, 0x1p-1074), 0.0));
    CHECK(same(ref_scal(-0.5, 0x1p-1074), -0.0));
    CHECK(same(ref_invscal(0.0, 1.0), kInf));
    CHECK(same(ref_invscal(-0.0, 1.0), -kInf));
    CHECK(same(ref_invscal(0.0, 0.0), kNaN));
    CHECK(same(ref_invscal(2.0, 0x1p-1074), 0.0));
    CHECK(same(ref_invscal(0.5, DBL_MAX), kInf));
    CHECK(same(ref_axpy(2.0, DBL_MAX, -DBL_MAX), DBL_MAX));
    CHECK(same(ref_axpy(-0.0, 1.0, -0.0), -0.0));
    CHECK(same(ref_axpy(kInf, 0.0, 1.0), kNaN));
}

TEST_CASE("single operations agree with IEEE hardware (correctly rounded)", "[oracle]")
{
    Rng rng(12345);
    const std::vector<double> v = mixed_values(rng, 400);
    for (int t = 0; t < 20000; ++t) {
        const double a = v[rand_below(rng, v.size())], b = v[rand_below(rng, v.size())],
                     c = v[rand_below(rng, v.size())];
        INFO(a << " " << b << " " << c);
        REQUIRE(same(ref_sum({a, b}), a + b));
        REQUIRE(same(ref_dot({a}, {b}), a * b));
        REQUIRE(same(ref_scal(a, b), a * b));
        REQUIRE(same(ref_invscal(a, b), b / a));
        REQUIRE(same(ref_axpy(a, b, c), std::fma(a, b, c)));
    }
}

TEST_CASE("long dots agree with mpfr_sum + mpfr_get_d, in any order", "[oracle]")
{
    Rng rng(777);
    for (int t = 0; t < 300; ++t) {
        const int n = 1 + static_cast<int>(rand_below(rng, 40));
        std::vector<double> x = t % 2 ? gen_exp_spread(n, -1074, 1023, rng) : gen_subnormal(n, rng);
        std::vector<double> y = gen_exp_spread(n, -1074, 1023, rng);
        const double d = ref_dot(x, y);
        REQUIRE(same(d, mpfr_get_d_dot(x, y)));
        const std::vector<int> p = random_permutation(n, rng);
        REQUIRE(same(d, ref_dot(permuted(x, p), permuted(y, p))));
    }
    for (int t = 0; t < 100; ++t) { // tiny exact sums near the subnormal range
        std::vector<double> x = gen_exp_spread(20, -560, -500, rng);
        std::vector<double> y = gen_exp_spread(20, -560, -500, rng);
        REQUIRE(same(ref_dot(x, y), mpfr_get_d_dot(x, y)));
    }
}

TEST_CASE("strided gather/scatter", "[oracle]")
{
    const double a[] = {0, 1, 2, 3, 4, 5, 6};
    CHECK(gather(3, a, 2) == std::vector<double>{0, 2, 4});
    CHECK(gather(3, a, -2) == std::vector<double>{4, 2, 0});
    CHECK(gather(2, a + 3, 0) == std::vector<double>{3, 3});
    double b[7] = {};
    scatter({7, 8, 9}, b, -3);
    CHECK(b[0] == 9);
    CHECK(b[3] == 8);
    CHECK(b[6] == 7);
}

TEST_CASE("iamax", "[oracle]")
{
    CHECK(ref_iamax({}) == -1);
    CHECK(ref_iamax({-3, 3}) == 0);
    CHECK(ref_iamax({1, -kInf, kInf}) == 1);
    CHECK(ref_iamax({1, kNaN, 5, kNaN}) == 1);
    CHECK(ref_iamax({kNaN, kInf}) == 0);
    CHECK(ref_iamax({-0.0, 0.0}) == 0);
}

TEST_CASE("gemv", "[oracle]")
{
    // 1 x 3 matrix, products overflow in double but the exact row sum is 1.
    const std::vector<double> A = {0x1p1000, -0x1p1000, 1}, x = {0x1p100, 0x1p100, 1};
    CHECK(same(ref_gemv('N', 1, 3, 1.0, A, 1, x, 0.0, {kNaN})[0], 1.0)); // y not read
    CHECK(same(ref_gemv('T', 3, 1, 1.0, A, 3, x, 0.0, {})[0], 1.0));
    CHECK(same(ref_gemv('N', 1, 3, 0x1p-1074, A, 1, x, 1.0, {DBL_MAX})[0], DBL_MAX));
    CHECK(same(ref_gemv('N', 1, 3, 1.0, A, 1, x, -1.0, {1.0})[0], +0.0));
    CHECK(same(ref_gemv('N', 1, 3, 1.0, A, 1, x, 1.0, {kNaN})[0], kNaN));
    CHECK(same(ref_gemv('N', 1, 3, 3.0, A, 1, x, 0x1p-1074, {0.5})[0], 3.0));
    // alpha = inf with a zero product: the two documented readings differ.
    CHECK(same(ref_gemv('N', 1, 2, kInf, {1, 0}, 1, {1, 1}, 0.0, {})[0], kInf));
    CHECK(same(ref_gemv('N', 1, 2, kInf, {1, 0}, 1, {1, 1}, 0.0, {}, GemvAlpha::per_term)[0], kNaN));

    Rng rng(99);
    const int m = 7, n = 5, lda = 9;
    const std::vector<double> M = gen_exp_spread(lda * n, -40, 40, rng);
    const std::vector<double> xn = gen_uniform(n, rng), xt = gen_uniform(m, rng);
    const std::vector<double> yn = gen_uniform(m, rng), yt = gen_uniform(n, rng);
    const double alpha = 0.5, beta = -3.25;
    const std::vector<double> rn = ref_gemv('N', m, n, alpha, M, lda, xn, beta, yn);
    const std::vector<double> rt = ref_gemv('T', m, n, alpha, M, lda, xt, beta, yt);
    for (int i = 0; i < m; ++i) { // alpha a_ij exact: the row is one dot product
        std::vector<double> a, b;
        for (int j = 0; j < n; ++j) {
            a.push_back(alpha * M[i + j * lda]);
            b.push_back(xn[j]);
        }
        a.push_back(beta);
        b.push_back(yn[i]);
        CHECK(same(rn[i], ref_dot(a, b)));
    }
    for (int j = 0; j < n; ++j) {
        std::vector<double> a, b;
        for (int i = 0; i < m; ++i) {
            a.push_back(alpha * M[i + j * lda]);
            b.push_back(xt[i]);
        }
        a.push_back(beta);
        b.push_back(yt[j]);
        CHECK(same(rt[j], ref_dot(a, b)));
    }
}

TEST_CASE("trsv", "[oracle]")
{
    // L = [2 0 0; 1 3 0; 1 1 4], column-major with ldt = 4 (row 3 is padding).
    const std::vector<double> L = {2, 1, 1, -99, 0, 3, 1, -99, 0, 0, 4, -99};
    CHECK(ref_trsv('L', 'N', 'N', 3, L, 4, {2, 4, 10}) == std::vector<double>{1, 1, 2});
    // L^T x = (5,5,8) has x = (1,1,2); the same system stored as upper U = L^T.
    CHECK(ref_trsv('L', 'T', 'N', 3, L, 4, {5, 5, 8}) == std::vector<double>{1, 1, 2});
    const std::vector<double> U = {2, 0, 0, 1, 3, 0, 1, 1, 4};
    CHECK(ref_trsv('U', 'N', 'N', 3, U, 3, {5, 5, 8}) == std::vector<double>{1, 1, 2});
    CHECK(ref_trsv('U', 'T', 'N', 3, U, 3, {2, 4, 10}) == std::vector<double>{1, 1, 2});
    // Unit diagonal: the stored diagonal (2, 3, 4) is not read.
    CHECK(ref_trsv('L', 'N', 'U', 3, L, 4, {1, 2, 5}) == std::vector<double>{1, 1, 3});
    // Rounded steps: x0 = RN(1/3); x1 = RN(RN(1 - x0) / 3), here 1 - x0 is exact (Sterbenz).
    const std::vector<double> T = {3, 1, 0, 3};
    const std::vector<double> r = ref_trsv('L', 'N', 'N', 2, T, 2, {1, 1});
    CHECK(same(r[0], 1.0 / 3.0));
    CHECK(same(r[1], (1.0 - 1.0 / 3.0) / 3.0));
    // RN(b - sum) then divide: b - t*x rounds before the division.
    const std::vector<double> T2 = {1, 0x1p-60, 0, 3};
    CHECK(same(ref_trsv('L', 'N', 'N', 2, T2, 2, {1, 1})[1], 1.0 / 3.0));
}

TEST_CASE("getrf 3x3 with known pivots", "[oracle]")
{
    // A = [1 2 3; 4 5 6; 7 8 10] (rows), column-major.
    std::vector<double> A = {1, 4, 7, 2, 5, 8, 3, 6, 10};
    std::vector<int> ipiv;
    REQUIRE(ref_getrf(3, 3, A, 3, ipiv) == 0);
    CHECK(ipiv == std::vector<int>{3, 3, 3});
    auto a = [&](int i, int j) { return A[i + 3 * j]; };
    CHECK(a(0, 0) == 7);
    CHECK(a(0, 1) == 8);
    CHECK(a(0, 2) == 10);
    CHECK(same(a(1, 0), 1.0 / 7.0));
    CHECK(same(a(2, 0), 4.0 / 7.0));
    const double u11 = 2.0 - (1.0 / 7.0) * 8.0; // exact steps (power-of-two product, Sterbenz)
    CHECK(same(a(1, 1), u11));
    CHECK(same(a(2, 1), (5.0 - (4.0 / 7.0) * 8.0) / u11));
    CHECK(same(a(1, 2), std::fma(-(1.0 / 7.0), 10.0, 3.0)));
    // Row 2 is the original (4 5 6): u22 = RN(6 - l20*u02 - l21*u12). In binary128 every
    // term and the sum are exact (their bits span < 113), so one conversion is the one RN.
    const __float128 v22 = (__float128)6 - (__float128)a(2, 0) * a(0, 2) - (__float128)a(2, 1) * a(1, 2);
    CHECK(same(a(2, 2), (double)v22));

    // Zero column: info = first zero pivot, LAPACK continues.
    std::vector<double> S = {0, 0, 0, 1, 2, 3, 4, 5, 7};
    CHECK(ref_getrf(3, 3, S, 3, ipiv) == 1);
    CHECK(ipiv[0] == 1);

    // NaN pivot: first NaN wins.
    std::vector<double> N = {1, kNaN, kNaN, 1, 1, 1, 1, 1, 1};
    ref_getrf(3, 3, N, 3, ipiv);
    CHECK(ipiv[0] == 2);
}

TEST_CASE("getrf rectangular reconstructs P*A = L*U", "[oracle]")
{
    Rng rng(5);
    for (int shape = 0; shape < 2; ++shape) {
        const int m = shape ? 4 : 7, n = shape ? 7 : 4, lda = m + 2;
        const std::vector<double> A0 = gen_uniform(lda * n, rng);
        std::vector<double> A = A0;
        std::vector<int> ipiv;
        REQUIRE(ref_getrf(m, n, A, lda, ipiv) == 0);
        REQUIRE(ipiv.size() == static_cast<std::size_t>(std::min(m, n)));
        std::vector<double> PA = A0;
        for (int j = 0; j < std::min(m, n); ++j)
            for (int c = 0; c < n; ++c)
                std::swap(PA[j + c * lda], PA[ipiv[j] - 1 + c * lda]);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                double s = 0;
                for (int k = 0; k <= std::min(i, j) && k < std::min(m, n); ++k)
                    s += (k == i ? 1.0 : A[i + k * lda]) * A[k + j * lda];
                CHECK(s == Approx(PA[i + j * lda]).margin(1e-13));
            }
    }
}

TEST_CASE("GenDot reaches the requested condition number", "[generators]")
{
    Rng rng(2024);
    for (double cond : {1e3, 1e8, 1e16, 1e25, 1e32, 1e40}) {
        for (int n : {6, 50, 500}) {
            const DotProblem p = gen_dot_cond(n, cond, rng);
            INFO("cond " << cond << " n " << n << " achieved " << p.cond);
            CHECK(p.cond == cond_dot(p.x, p.y));
            CHECK(p.cond > cond / 1e3);
            CHECK(p.cond < cond * 1e3);
        }
    }
    for (double cond : {1e5, 1e20, 1e35}) {
        const SumProblem s = gen_sum_cond(100, cond, rng);
        INFO("sum cond " << cond << " achieved " << s.cond);
        CHECK(s.cond > cond / 1e3);
        CHECK(s.cond < cond * 1e3);
    }
}

TEST_CASE("generators: cancellation, ranges, determinism", "[generators]")
{
    Rng rng(1);
    CHECK(same(ref_sum(gen_sum_cancel(101, 0x1p-1074, -1074, 1023, rng)), 0x1p-1074));
    CHECK(same(ref_sum(gen_sum_cancel(100, -0.1, -300, 300, rng)), -0.1));
    for (double d : gen_subnormal(1000, rng))
        CHECK((d != 0 && std::fabs(d) < DBL_MIN));
    for (double d : gen_near_max(1000, rng, 10))
        CHECK(std::fabs(d) >= DBL_MAX - 10 * 0x1p971);
    for (double d : gen_uniform(1000, rng))
        CHECK((d >= -1 && d < 1));
    for (double d : gen_exp_spread(1000, 3, 5, rng))
        CHECK((std::fabs(d) >= 8 && std::fabs(d) < 64));
    Rng r1(42), r2(42);
    CHECK(gen_exp_spread(100, -1074, 1023, r1) == gen_exp_spread(100, -1074, 1023, r2));
    CHECK(gen_matrix_cond(8, 1e5, 3) == gen_matrix_cond(8, 1e5, 3));
    std::vector<int> p = random_permutation(50, rng);
    std::sort(p.begin(), p.end());
    for (int i = 0; i < 50; ++i)
        CHECK(p[i] == i);
}

TEST_CASE("matrices with a prescribed condition number", "[generators]")
{
    for (double cond : {1e2, 1e6, 1e10}) {
        const int n = 30;
        const double k = cond1(gen_matrix_cond(n, cond, 7), n);
        INFO("general cond " << cond << " achieved cond_1 " << k);
        CHECK(k > cond / n);
        CHECK(k < cond * n);
        for (char uplo : {'L', 'U'}) {
            const std::vector<double> T = gen_triangular_cond(uplo, n, cond, 7);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    if (uplo == 'L' ? j > i : j < i)
                        CHECK(T[i + j * n] == 0);
            const double kt = cond1(T, n);
            INFO("triangular " << uplo << " cond " << cond << " achieved cond_1 " << kt);
            CHECK(kt > cond / (10 * n));
            CHECK(kt < cond * 10 * n);
        }
    }
}
