// Internal to the test-support library: RAII over mpfr_t and over MPFR's exponent range.
// Tests normally use oracle.hpp only; this header is for code that needs raw MPFR values.
#pragma once

#include <mpfr.h>

namespace exstar_test {

// Owns one mpfr_t; not copyable, so every mpfr_init2 has exactly one mpfr_clear.
class MpfrValue {
public:
    explicit MpfrValue(mpfr_prec_t prec) { mpfr_init2(v_, prec); }
    MpfrValue(mpfr_prec_t prec, double d) : MpfrValue(prec) { mpfr_set_d(v_, d, MPFR_RNDN); }
    ~MpfrValue() { mpfr_clear(v_); }
    MpfrValue(const MpfrValue&) = delete;
    MpfrValue& operator=(const MpfrValue&) = delete;

    mpfr_ptr get() { return v_; }
    mpfr_srcptr get() const { return v_; }

private:
    mpfr_t v_;
};

// While alive, MPFR's exponent range is binary64's (emin = -1073, emax = 1024, so that with
// precision 53 and mpfr_subnormalize the representable set is exactly the doubles).
// The previous range is restored on destruction.
class DoubleExponentRange {
public:
    DoubleExponentRange() : emin_(mpfr_get_emin()), emax_(mpfr_get_emax())
    {
        mpfr_set_emin(-1073);
        mpfr_set_emax(1024);
    }
    ~DoubleExponentRange()
    {
        mpfr_set_emin(emin_);
        mpfr_set_emax(emax_);
    }
    DoubleExponentRange(const DoubleExponentRange&) = delete;
    DoubleExponentRange& operator=(const DoubleExponentRange&) = delete;

private:
    mpfr_exp_t emin_;
    mpfr_exp_t emax_;
};

} // namespace exstar_test
