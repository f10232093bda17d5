#include "oracle.hpp"

#include "mpfr_value.hpp"

#include <cmath>
#include <limits>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace exstar_test {
namespace {

// Bits of a double: from 2^-1074 (smallest subnormal) up to below 2^1024.
constexpr mpfr_prec_t kDoubleSpan = 1074 + 1024;
// An exact sum of n <= 2^64 products of two doubles lies on the grid 2^-2148 and below 2^2048*n.
constexpr mpfr_prec_t kDotPrec = 2 * kDoubleSpan + 64 + 200;  // 4460 bits
// gemv: alpha * (exact sum of products) + beta*y lies on the grid 2^-3222, below 2^3072*n.
constexpr mpfr_prec_t kGemvPrec = 3 * kDoubleSpan + 64 + 200; // 6558 bits
// Holds the product of up to three doubles exactly.
constexpr mpfr_prec_t kTermPrec = 3 * 53;

void require_exact(int ternary, const char* what)
{
    if (ternary != 0)
        throw std::logic_error(std::string("exstar_test oracle: inexact MPFR step in ") + what);
}

void require(bool ok, const char* what)
{
    if (!ok)
        throw std::invalid_argument(std::string("exstar_test oracle: ") + what);
}

// Rounds an exact MPFR value to the nearest double (ties to even, subnormals, overflow to inf).
double round_to_double(mpfr_srcptr v)
{
    if (!mpfr_regular_p(v)) // NaN, +-inf, signed zero: exact in a double
        return mpfr_get_d(v, MPFR_RNDN);
    MpfrValue t(53);
    int inex = mpfr_set(t.get(), v, MPFR_RNDN); // 53 bits, unbounded exponent
    DoubleExponentRange range;
    inex = mpfr_check_range(t.get(), inex, MPFR_RNDN);    // overflow -> inf, underflow
    inex = mpfr_subnormalize(t.get(), inex, MPFR_RNDN);   // fewer bits below 2^-1022
    return mpfr_get_d(t.get(), MPFR_RNDN);
}

// RN(sqrt(v)) of an exact MPFR value, one rounding: mpfr_sqrt to 53 bits with MPFR's wide
// exponent range, then the double range and subnormals from its ternary value (IEEE: a negative
// v or NaN gives NaN, +inf +inf, a zero keeps its sign).
double sqrt_to_double(mpfr_srcptr v)
{
    if (mpfr_nan_p(v))
        return std::numeric_limits<double>::quiet_NaN();
    MpfrValue root(53);
    int inex = mpfr_sqrt(root.get(), v, MPFR_RNDN);
    if (!mpfr_regular_p(root.get()))
        return mpfr_get_d(root.get(), MPFR_RNDN);
    DoubleExponentRange range;
    inex = mpfr_check_range(root.get(), inex, MPFR_RNDN);
    inex = mpfr_subnormalize(root.get(), inex, MPFR_RNDN);
    return mpfr_get_d(root.get(), MPFR_RNDN);
}

// RN(x / a) with one rounding, computed directly in the double exponent range.
double div_round(double x, double a)
{
    DoubleExponentRange range;
    MpfrValue num(53, x), den(53, a), q(53);
    int inex = mpfr_div(q.get(), num.get(), den.get(), MPFR_RNDN);
    inex = mpfr_check_range(q.get(), inex, MPFR_RNDN);
    inex = mpfr_subnormalize(q.get(), inex, MPFR_RNDN);
    return mpfr_get_d(q.get(), MPFR_RNDN);
}

// An exact sum of terms in one MPFR variable. It starts at -0, the neutral element of IEEE
// addition for the zero-sign rule: the result is -0 only if every term is -0. An empty sum is +0.
class ExactSum {
public:
    explicit ExactSum(mpfr_prec_t prec) : acc_(prec), term_(kTermPrec)
    {
        mpfr_set_zero(acc_.get(), -1);
    }

    void add(double a)
    {
        require_exact(mpfr_set_d(term_.get(), a, MPFR_RNDN), "set_d");
        add_term();
    }
    void add_product(double a, double b) { add_product3(a, b, 1.0); }
    void sub_product(double a, double b) { add_product3(-a, b, 1.0); }
    void add_product3(double a, double b, double c)
    {
        MpfrValue bv(53, b), cv(53, c);
        require_exact(mpfr_set_d(term_.get(), a, MPFR_RNDN), "set_d");
        require_exact(mpfr_mul(term_.get(), term_.get(), bv.get(), MPFR_RNDN), "mul");
        if (c != 1.0)
            require_exact(mpfr_mul(term_.get(), term_.get(), cv.get(), MPFR_RNDN), "mul");
        add_term();
    }
    // acc := a * acc (IEEE rules for specials; an empty sum counts as +0 first).
    void scale(double a)
    {
        if (count_ == 0)
            mpfr_set_zero(acc_.get(), +1);
        MpfrValue av(53, a);
        require_exact(mpfr_mul(acc_.get(), acc_.get(), av.get(), MPFR_RNDN), "scale");
        count_ = 1;
    }
    double round() const { return count_ == 0 ? +0.0 : round_to_double(acc_.get()); }
    // RN(sqrt(exact sum)): the IEEE root of the exact value (a negative value or NaN gives
    // NaN, +inf +inf, a zero keeps its sign), rounded once to double.
    double round_sqrt() const
    {
        if (count_ == 0)
            return +0.0;
        return sqrt_to_double(acc_.get());
    }

private:
    void add_term()
    {
        require_exact(mpfr_add(acc_.get(), acc_.get(), term_.get(), MPFR_RNDN), "add");
        ++count_;
    }

    MpfrValue acc_;
    MpfrValue term_;
    long count_ = 0;
};

bool is_lower_solve(char uplo, char trans) { return (uplo == 'L') != (trans == 'T'); }

} // namespace

// ---- strided access ---------------------------------------------------------------------------

std::vector<double> gather(int n, const double* x, int incx)
{
    require(n >= 0, "gather: n < 0");
    std::vector<double> v(static_cast<std::size_t>(n));
    const long step = incx < 0 ? -static_cast<long>(incx) : incx;
    for (int i = 0; i < n; ++i)
        v[i] = x[(incx < 0 ? n - 1 - i : i) * step];
    return v;
}

void scatter(const std::vector<double>& v, double* x, int incx)
{
    require(incx != 0, "scatter: incx == 0");
    const long n = static_cast<long>(v.size());
    const long step = incx < 0 ? -static_cast<long>(incx) : incx;
    for (long i = 0; i < n; ++i)
        x[(incx < 0 ? n - 1 - i : i) * step] = v[i];
}

// ---- level 1 ----------------------------------------------------------------------------------

double ref_sum(const std::vector<double>& x)
{
    ExactSum s(kDotPrec);
    for (double xi : x)
        s.add(xi);
    return s.round();
}

double ref_dot(const std::vector<double>& x, const std::vector<double>& y)
{
    require(x.size() == y.size(), "dot: sizes differ");
    ExactSum s(kDotPrec);
    for (std::size_t i = 0; i < x.size(); ++i)
        s.add_product(x[i], y[i]);
    return s.round();
}

double ref_nrm2(const std::vector<double>& x)
{
    // The exact sum of the exact squares (specials by the product rules: inf*inf = +inf, NaN
    // stays NaN), then ONE rounding of its square root: mpfr_sqrt to 53 bits with MPFR's wide
    // exponent range, then the double range and subnormals from its ternary value.
    MpfrValue sum(kDotPrec), term(kTermPrec);
    mpfr_set_zero(sum.get(), +1); // squares are never -0: the norm of zeros is +0
    for (double v : x) {
        require_exact(mpfr_set_d(term.get(), v, MPFR_RNDN), "set_d");
        require_exact(mpfr_sqr(term.get(), term.get(), MPFR_RNDN), "sqr");
        require_exact(mpfr_add(sum.get(), sum.get(), term.get(), MPFR_RNDN), "add");
    }
    return sqrt_to_double(sum.get()); // +inf -> +inf; +0 -> +0
}

double ref_scal(double a, double x)
{
    ExactSum s(kDotPrec);
    s.add_product(a, x);
    return s.round();
}

double ref_invscal(double a, double x) { return div_round(x, a); }

double ref_axpy(double a, double x, double y)
{
    ExactSum s(kDotPrec);
    s.add_product(a, x);
    s.add(y);
    return s.round();
}

int ref_iamax(const std::vector<double>& x)
{
    int best = -1;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (std::isnan(x[i]))
            return static_cast<int>(i);
        if (best < 0 || std::fabs(x[i]) > std::fabs(x[best]))
            best = static_cast<int>(i);
    }
    return best;
}

double cond_sum(const std::vector<double>& x)
{
    std::vector<double> ax(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        ax[i] = std::fabs(x[i]);
    return ref_sum(ax) / std::fabs(ref_sum(x));
}

double cond_dot(const std::vector<double>& x, const std::vector<double>& y)
{
    require(x.size() == y.size(), "cond_dot: sizes differ");
    std::vector<double> ax(x.size()), ay(y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        ax[i] = std::fabs(x[i]);
        ay[i] = std::fabs(y[i]);
    }
    return 2.0 * ref_dot(ax, ay) / std::fabs(ref_dot(x, y));
}

// ---- level 2 ----------------------------------------------------------------------------------

namespace {

double gemv_row(int len, double alpha, const double* a, long a_step, const double* x, double beta,
                const double* yi, GemvAlpha mode)
{
    ExactSum s(kGemvPrec);
    for (int j = 0; j < len; ++j) {
        if (mode == GemvAlpha::per_term)
            s.add_product3(alpha, a[j * a_step], x[j]);
        else
            s.add_product(a[j * a_step], x[j]);
    }
    if (mode == GemvAlpha::scale_sum)
        s.scale(alpha);
    if (beta != 0.0)
        s.add_product(beta, *yi);
    return s.round();
}

} // namespace

std::vector<double> ref_gemv(char trans, int m, int n, double alpha, const std::vector<double>& A,
                             int lda, const std::vector<double>& x, double beta,
                             const std::vector<double>& y, GemvAlpha mode)
{
    require(trans == 'N' || trans == 'T', "gemv: trans must be 'N' or 'T'");
    require(m >= 0 && n >= 0 && lda >= (m > 1 ? m : 1), "gemv: bad m, n or lda");
    require(n == 0 || A.size() >= static_cast<std::size_t>(lda) * (n - 1) + m, "gemv: A too small");
    const bool notrans = trans == 'N';
    const int leny = notrans ? m : n, lenx = notrans ? n : m;
    require(x.size() >= static_cast<std::size_t>(lenx), "gemv: x too small");
    require(beta == 0.0 || y.size() >= static_cast<std::size_t>(leny), "gemv: y too small");
    std::vector<double> out(static_cast<std::size_t>(leny));
    for (int i = 0; i < leny; ++i) {
        const double* row = A.data() + (notrans ? i : static_cast<long>(i) * lda);
        const long step = notrans ? lda : 1;
        out[i] = gemv_row(lenx, alpha, row, step, x.data(), beta,
                          beta != 0.0 ? &y[i] : nullptr, mode);
    }
    return out;
}

std::vector<double> ref_trsv(char uplo, char trans, char diag, int n, const std::vector<double>& T,
                             int ldt, std::vector<double> b)
{
    return ref_trsv_alpha(uplo, trans, diag, n, T, ldt, 1.0, std::move(b));
}

std::vector<double> ref_trsv_alpha(char uplo, char trans, char diag, int n, const std::vector<double>& T,
                                   int ldt, double alpha, std::vector<double> b)
{
    require(uplo == 'L' || uplo == 'U', "trsv: uplo must be 'L' or 'U'");
    require(trans == 'N' || trans == 'T', "trsv: trans must be 'N' or 'T'");
    require(diag == 'N' || diag == 'U', "trsv: diag must be 'N' or 'U'");
    require(n >= 0 && ldt >= (n > 1 ? n : 1), "trsv: bad n or ldt");
    require(n == 0 || T.size() >= static_cast<std::size_t>(ldt) * (n - 1) + n, "trsv: T too small");
    require(b.size() >= static_cast<std::size_t>(n), "trsv: b too small");
    auto t = [&](int i, int j) { return trans == 'N' ? T[i + static_cast<long>(j) * ldt]
                                                     : T[j + static_cast<long>(i) * ldt]; };
    const bool forward = is_lower_solve(uplo, trans);
    for (int step = 0; step < n; ++step) {
        const int i = forward ? step : n - 1 - step;
        ExactSum s(kDotPrec);
        if (alpha == 1.0)
            s.add(b[i]);
        else
            s.add_product(alpha, b[i]);
        for (int j = forward ? 0 : i + 1; j < (forward ? i : n); ++j)
            s.sub_product(t(i, j), b[j]);
        const double r = s.round();
        b[i] = diag == 'U' ? r : div_round(r, t(i, i));
    }
    return b;
}

namespace {

// RN(a(i,j) - sum_{k<kend} a(i,k) a(k,j)) on the column-major matrix a.
double lu_update(const std::vector<double>& a, int lda, int i, int j, int kend)
{
    auto at = [&](int r, int c) { return a[r + static_cast<long>(c) * lda]; };
    ExactSum s(kDotPrec);
    s.add(at(i, j));
    for (int k = 0; k < kend; ++k)
        s.sub_product(at(i, k), at(k, j));
    return s.round();
}

void swap_rows(std::vector<double>& a, int lda, int n, int r1, int r2)
{
    if (r1 == r2)
        return;
    for (int c = 0; c < n; ++c)
        std::swap(a[r1 + static_cast<long>(c) * lda], a[r2 + static_cast<long>(c) * lda]);
}

} // namespace

int ref_getrf(int m, int n, std::vector<double>& A, int lda, std::vector<int>& ipiv)
{
    require(m >= 0 && n >= 0 && lda >= (m > 1 ? m : 1), "getrf: bad m, n or lda");
    require(n == 0 || A.size() >= static_cast<std::size_t>(lda) * (n - 1) + m, "getrf: A too small");
    ipiv.assign(static_cast<std::size_t>(m < n ? m : n), 0);
    auto at = [&](int r, int c) -> double& { return A[r + static_cast<long>(c) * lda]; };
    int info = 0;
    for (int j = 0; j < n; ++j) {
        const int utop = j < m ? j : m;
        for (int i = 0; i < utop; ++i)
            at(i, j) = lu_update(A, lda, i, j, i);
        if (j >= m)
            continue;
        std::vector<double> v(static_cast<std::size_t>(m - j));
        for (int i = j; i < m; ++i)
            v[i - j] = lu_update(A, lda, i, j, j);
        for (int i = j; i < m; ++i)
            at(i, j) = v[i - j];
        const int p = j + ref_iamax(v);
        swap_rows(A, lda, n, j, p);
        ipiv[j] = p + 1;
        const double ujj = at(j, j);
        if (ujj == 0.0) {
            if (info == 0)
                info = j + 1;
            continue;
        }
        for (int i = j + 1; i < m; ++i)
            at(i, j) = div_round(at(i, j), ujj);
    }
    return info;
}

int ref_potrf(int n, std::vector<double>& A, int lda)
{
    require(n >= 0 && lda >= (n > 1 ? n : 1), "potrf: bad n or lda");
    require(n == 0 || A.size() >= static_cast<std::size_t>(lda) * (n - 1) + n, "potrf: A too small");
    auto at = [&](int r, int c) -> double& { return A[r + static_cast<long>(c) * lda]; };
    int info = 0;
    for (int j = 0; j < n; ++j) {
        ExactSum d(kDotPrec);
        d.add(at(j, j));
        for (int k = 0; k < j; ++k)
            d.sub_product(at(j, k), at(j, k));
        const double ljj = d.round_sqrt();
        if (!(ljj > 0.0) && info == 0)
            info = j + 1;
        for (int i = j + 1; i < n; ++i) {
            ExactSum s(kDotPrec);
            s.add(at(i, j));
            for (int k = 0; k < j; ++k)
                s.sub_product(at(i, k), at(j, k));
            at(i, j) = div_round(s.round(), ljj);
        }
        at(j, j) = ljj;
    }
    return info;
}

} // namespace exstar_test
