#include "generators.hpp"

#include "mpfr_value.hpp"
#include "oracle.hpp"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace exstar_test {
namespace {

void require(bool ok, const char* what)
{
    if (!ok)
        throw std::invalid_argument(std::string("exstar_test generators: ") + what);
}

double from_bits(std::uint64_t b)
{
    double d;
    std::memcpy(&d, &b, sizeof d);
    return d;
}

double random_sign(Rng& rng, double v) { return (rng() >> 63) ? -v : v; }

// RN(base^e) for real e, correctly rounded by MPFR (libm pow may differ between platforms).
double pow_rn(double base, double num, double den)
{
    MpfrValue b(53, base), e(200), r(53);
    mpfr_set_d(e.get(), num, MPFR_RNDN);
    mpfr_div_d(e.get(), e.get(), den, MPFR_RNDN);
    mpfr_pow(r.get(), b.get(), e.get(), MPFR_RNDN);
    return mpfr_get_d(r.get(), MPFR_RNDN);
}

// RN(log2(x)), correctly rounded by MPFR.
double log2_rn(double x)
{
    MpfrValue v(53, x);
    mpfr_log2(v.get(), v.get(), MPFR_RNDN);
    return mpfr_get_d(v.get(), MPFR_RNDN);
}

// A value with random mantissa in [-1,1) times 2^e, nonzero.
double nonzero_sym_pow2(Rng& rng, int e)
{
    double r = 0.0;
    while (r == 0.0)
        r = rand_sym(rng);
    return std::ldexp(r, e);
}

} // namespace

// ---- scalars and simple vectors ---------------------------------------------------------------

std::uint64_t rand_below(Rng& rng, std::uint64_t bound)
{
    require(bound > 0, "rand_below: bound == 0");
    const std::uint64_t threshold = (0 - bound) % bound; // 2^64 mod bound
    for (;;) {
        const std::uint64_t r = rng();
        if (r >= threshold)
            return r % bound;
    }
}

double rand_unit(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1p-53; }

double rand_sym(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1p-52 - 1.0; }

std::vector<double> gen_uniform(int n, Rng& rng)
{
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v)
        x = rand_sym(rng);
    return v;
}

std::vector<double> gen_exp_spread(int n, int emin, int emax, Rng& rng)
{
    require(-1074 <= emin && emin <= emax && emax <= 1023, "gen_exp_spread: bad exponent range");
    std::vector<double> v(static_cast<std::size_t>(n));
    const std::uint64_t span = static_cast<std::uint64_t>(emax - emin) + 1;
    for (double& x : v) {
        const double m = 1.0 + static_cast<double>(rng() >> 12) * 0x1p-52; // [1,2)
        const int e = emin + static_cast<int>(rand_below(rng, span));
        x = random_sign(rng, std::ldexp(m, e));
    }
    return v;
}

std::vector<double> gen_subnormal(int n, Rng& rng)
{
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v)
        x = random_sign(rng, from_bits(1 + rand_below(rng, (std::uint64_t{1} << 52) - 1)));
    return v;
}

std::vector<double> gen_near_max(int n, Rng& rng, std::uint64_t max_ulps_below)
{
    const std::uint64_t max_bits = 0x7FEFFFFFFFFFFFFFull;
    require(max_ulps_below < max_bits, "gen_near_max: too many ulps");
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v)
        x = random_sign(rng, from_bits(max_bits - rand_below(rng, max_ulps_below + 1)));
    return v;
}

std::vector<double> gen_special(int n, Rng& rng, double p_special)
{
    const double specials[] = {std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(), +0.0, -0.0};
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v)
        x = rand_unit(rng) < p_special ? specials[rand_below(rng, 5)] : rand_sym(rng);
    return v;
}

// ---- permutations -----------------------------------------------------------------------------

std::vector<int> random_permutation(int n, Rng& rng)
{
    std::vector<int> p(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        p[i] = i;
    for (int i = n - 1; i > 0; --i)
        std::swap(p[i], p[rand_below(rng, static_cast<std::uint64_t>(i) + 1)]);
    return p;
}

// ---- ill-conditioned sums and dot products ----------------------------------------------------

DotProblem gen_dot_cond(int n, double cond, Rng& rng)
{
    require(n >= 6 && cond >= 1.0, "gen_dot_cond: needs n >= 6 and cond >= 1");
    const int n2 = (n + 1) / 2; // MATLAB round(n/2)
    const double b = log2_rn(cond);
    std::vector<double> x(static_cast<std::size_t>(n), 0.0), y = x;
    for (int i = 0; i < n2; ++i) {
        int e = static_cast<int>(std::lround(rand_unit(rng) * b / 2));
        if (i == 0)
            e = static_cast<int>(std::lround(b / 2)) + 1;
        if (i == n2 - 1)
            e = 0;
        x[i] = nonzero_sym_pow2(rng, e);
        y[i] = nonzero_sym_pow2(rng, e);
    }
    const int k = n - n2; // second half: exponents linspace(b/2, 0, k), y chosen to cancel
    for (int i = n2; i < n; ++i) {
        const double t = k == 1 ? 1.0 : static_cast<double>(i - n2) / (k - 1);
        const int e = static_cast<int>(std::lround(b / 2 - t * (b / 2)));
        x[i] = nonzero_sym_pow2(rng, e);
        y[i] = (rand_sym(rng) * std::ldexp(1.0, e) - ref_dot(x, y)) / x[i];
    }
    const std::vector<int> perm = random_permutation(n, rng);
    DotProblem p{permuted(x, perm), permuted(y, perm), 0.0};
    p.cond = cond_dot(p.x, p.y);
    return p;
}

SumProblem gen_sum_cond(int n, double cond, Rng& rng)
{
    require(n >= 12, "gen_sum_cond: needs n >= 12");
    const DotProblem d = gen_dot_cond(n / 2, cond, rng);
    std::vector<double> s;
    for (std::size_t i = 0; i < d.x.size(); ++i) {
        const double prod = d.x[i] * d.y[i];
        s.push_back(prod);
        s.push_back(std::fma(d.x[i], d.y[i], -prod)); // exact: no under/overflow at these sizes
    }
    if (n % 2)
        s.push_back(+0.0);
    shuffle(s, rng);
    return SumProblem{s, cond_sum(s)};
}

std::vector<double> gen_sum_cancel(int n, double residual, int emin, int emax, Rng& rng)
{
    require(n >= 1, "gen_sum_cancel: needs n >= 1");
    std::vector<double> s = gen_exp_spread((n - 1) / 2, emin, emax, rng);
    const std::size_t half = s.size();
    for (std::size_t i = 0; i < half; ++i)
        s.push_back(-s[i]);
    s.push_back(residual);
    if (n % 2 == 0)
        s.push_back(+0.0);
    shuffle(s, rng);
    return s;
}

// ---- hand-computed cases ----------------------------------------------------------------------

namespace {

DotCase sum_case(std::string name, std::vector<double> x, double expected)
{
    std::vector<double> ones(x.size(), 1.0);
    return DotCase{std::move(name), std::move(x), std::move(ones), expected};
}

constexpr double kMax = DBL_MAX;
constexpr double kTiny = 0x1p-1074;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

std::vector<DotCase> extreme_dot_cases()
{
    return {
        {"2^1100 products cancel", {0x1p1000, -0x1p1000, 1}, {0x1p100, 0x1p100, 1}, 1.0},
        {"product overflows, cancels", {0x1p1023, 0x1p1023, 3}, {2, -2, 1}, 3.0},
        {"tiny*tiny rounds to +0", {kTiny}, {kTiny}, +0.0},
        {"-tiny*tiny rounds to -0", {-kTiny}, {kTiny}, -0.0},
        {"tiny/2 is a tie to 0", {kTiny}, {0.5}, 0.0},
        {"two tiny/2 make tiny", {kTiny, kTiny}, {0.5, 0.5}, kTiny},
        {"0.75 tiny rounds up", {kTiny}, {0.75}, kTiny},
        {"1.5 tiny tie to 2 tiny", {3 * kTiny}, {0.5}, 2 * kTiny},
        {"2.5 tiny tie to 2 tiny", {5 * kTiny}, {0.5}, 2 * kTiny},
        {"2^-1075 twice", {0x1p-537, 0x1p-537}, {0x1p-538, 0x1p-538}, kTiny},
        {"2^-1022 - 2^-1075 tie to 2^-1022", {0x1p-1022}, {1.0 - 0x1p-53}, 0x1p-1022},
        {"2^-1022 - 2^-1074", {0x1p-1022, -kTiny}, {1, 1}, 0x1.ffffffffffffep-1023},
        {"huge*tiny", {0x1p1000}, {0x1p-1060}, 0x1p-60},
        {"DBL_MAX*2 - DBL_MAX", {kMax, kMax}, {2, -1}, kMax},
        sum_case("0.1 + 0.2", {0.1, 0.2}, 0.30000000000000004),
        sum_case("0.1 + 0.2 - 0.3", {0.1, 0.2, -0.3}, 0x1p-55),
        sum_case("2^53 + 1 tie to even", {0x1p53, 1}, 0x1p53),
        sum_case("2^53 + 3 tie to even", {0x1p53, 3}, 0x1p53 + 4),
        sum_case("2^53 + 1 + 2^-100", {0x1p53, 1, 0x1p-100}, 0x1p53 + 2),
        sum_case("sum of subnormals", {3 * kTiny, 5 * kTiny, -kTiny, 0x1p-1030}, 0x1p-1030 + 7 * kTiny),
        sum_case("DBL_MAX + DBL_MAX - DBL_MAX", {kMax, kMax, -kMax}, kMax),
        sum_case("overflow to +inf", {kMax, kMax}, kInf),
        sum_case("overflow to -inf", {-kMax, -kMax}, -kInf),
        sum_case("DBL_MAX + half ulp ties to inf", {kMax, 0x1p970}, kInf),
        sum_case("DBL_MAX + quarter ulp", {kMax, 0x1p969}, kMax),
        sum_case("DBL_MAX + just below half ulp", {kMax, 0x1p970, -kTiny}, kMax),
    };
}

std::vector<DotCase> special_dot_cases()
{
    return {
        sum_case("NaN", {1, kNaN, 2}, kNaN),
        sum_case("NaN with inf", {kInf, kNaN}, kNaN),
        sum_case("+inf + -inf", {kInf, 1, -kInf}, kNaN),
        sum_case("+inf + finite", {kInf, -kMax, -kMax}, kInf),
        sum_case("-inf + finite", {-kInf, kMax, kMax}, -kInf),
        sum_case("+inf + +inf", {kInf, kInf}, kInf),
        sum_case("empty", {}, +0.0),
        sum_case("-0", {-0.0}, -0.0),
        sum_case("-0 + -0", {-0.0, -0.0}, -0.0),
        sum_case("-0 + +0", {-0.0, +0.0}, +0.0),
        sum_case("1 - 1", {1, -1}, +0.0),
        sum_case("-1 + 1", {-1, 1}, +0.0),
        {"0*inf", {0}, {kInf}, kNaN},
        {"inf*0 among finite", {1, kInf}, {1, -0.0}, kNaN},
        {"inf*-2", {kInf}, {-2}, -kInf},
        {"2*DBL_MAX + -inf (no overflow NaN)", {kMax, 1}, {2, -kInf}, -kInf},
        {"inf*1 + 1*-inf", {kInf, 1}, {1, -kInf}, kNaN},
        {"NaN*0", {kNaN}, {0}, kNaN},
        {"(-0)*(+5)", {-0.0}, {5}, -0.0},
        {"(+0)*(-5)", {+0.0}, {-5}, -0.0},
        {"(-0)*(+0)", {-0.0}, {+0.0}, -0.0},
        {"(-0)*(-0)", {-0.0}, {-0.0}, +0.0},
        {"(-0)*5 + (+0)*(-5)", {-0.0, +0.0}, {5, -5}, -0.0},
        {"(-0)*5 + (-0)*(-5)", {-0.0, -0.0}, {5, -5}, +0.0},
        {"-2^-2148 + -0 rounds to -0", {-kTiny, -0.0}, {kTiny, 1}, -0.0},
        {"-2^-1075 ties to -0", {-kTiny, kTiny, -0.0}, {1, 0.5, 1}, -0.0},
        {"+2^-2148 + -0 rounds to +0", {kTiny, -0.0}, {kTiny, 1}, +0.0},
        {"empty dot", {}, {}, +0.0},
    };
}

// ---- matrices ---------------------------------------------------------------------------------

namespace {

// M := H M (left) or M H (right), H = I - 2 v v^T / (v^T v), M n x n column-major.
void apply_reflector(std::vector<double>& M, int n, const std::vector<double>& v, bool left)
{
    double vv = 0.0;
    for (double vi : v)
        vv += vi * vi;
    const double f = 2.0 / vv;
    for (int k = 0; k < n; ++k) {
        double w = 0.0; // v^T M(:,k) (left) or M(k,:) v (right)
        for (int i = 0; i < n; ++i)
            w += v[i] * (left ? M[i + k * n] : M[k + i * n]);
        w *= f;
        for (int i = 0; i < n; ++i) {
            double& mik = left ? M[i + k * n] : M[k + i * n];
            mik -= v[i] * w;
        }
    }
}

// Plain double LU with partial pivoting in place; returns nothing (factors in M).
void plain_lu(std::vector<double>& M, int n)
{
    for (int j = 0; j < n; ++j) {
        int p = j;
        for (int i = j + 1; i < n; ++i)
            if (std::fabs(M[i + j * n]) > std::fabs(M[p + j * n]))
                p = i;
        for (int c = 0; c < n; ++c)
            std::swap(M[j + c * n], M[p + c * n]);
        for (int i = j + 1; i < n; ++i) {
            M[i + j * n] /= M[j + j * n];
            for (int c = j + 1; c < n; ++c)
                M[i + c * n] -= M[i + j * n] * M[j + c * n];
        }
    }
}

} // namespace

std::vector<double> gen_matrix_cond(int n, double cond, std::uint64_t seed)
{
    require(n >= 2 && cond >= 1.0, "gen_matrix_cond: needs n >= 2 and cond >= 1");
    Rng rng(seed);
    std::vector<double> M(static_cast<std::size_t>(n) * n, 0.0);
    for (int i = 0; i < n; ++i)
        M[i + i * n] = pow_rn(cond, -i, n - 1);
    for (int side = 0; side < 2; ++side)
        for (int r = 0; r < n; ++r)
            apply_reflector(M, n, gen_uniform(n, rng), side == 0);
    return M;
}

std::vector<double> gen_triangular_cond(char uplo, int n, double cond, std::uint64_t seed)
{
    require(uplo == 'L' || uplo == 'U', "gen_triangular_cond: uplo must be 'L' or 'U'");
    std::vector<double> M = gen_matrix_cond(n, cond, seed);
    plain_lu(M, n);
    std::vector<double> T(M.size(), 0.0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j; ++i) {
            if (uplo == 'U')
                T[i + j * n] = M[i + j * n];
            else
                T[j + i * n] = M[i + j * n];
        }
    return T;
}

} // namespace exstar_test
