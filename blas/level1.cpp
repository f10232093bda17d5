// libexstar_blas, Level 1: the Fortran symbols. Where exstar has the operation, exstar's call
// (or, for small n, the same kernel on the calling thread); the others by their definition in
// exstar_blas.h on the calling thread. Quick returns and increments as the reference BLAS.
#include "blas/internal.h"
#include <cmath>
#include <cstring>

using namespace exstar_blas;

namespace {

// Element i of (n, x, inc), reference BLAS order (inc < 0 starts at the end, inc == 0 stays).
struct vec {
  double *p;
  int64_t f, inc;
  vec(int64_t n, double *x, int64_t incx) : p(x), f(first(n, incx)), inc(incx) {}
  double &operator()(int64_t i) const { return p[f + i * inc]; }
};

// RN(Σ x_i·y_i) on the calling thread, by exstar's dot kernel (exstar_ddot's bits).
double dot_here(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy, bool sqrt_of)
{
  exstar_i64 acc[EXSTAR_ACC_WORDS];
  exstar_cpu_acc_zero(acc, 1);
  exstar_cpu_dot(n, x, 0, incx, y, 0, incy, acc); // the kernel finds the first element itself
  return sqrt_of ? exstar_cpu_acc_round_sqrt(acc) : exstar_cpu_acc_round(acc);
}

double dot(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy, bool sqrt_of)
{
  // increment 0 (the reference repeats one element): a contiguous copy, which exstar takes
  std::vector<double> cx, cy;
  if (incx == 0) cx = gather(n, x, 0), x = cx.data(), incx = 1;
  if (incy == 0) cy = gather(n, y, 0), y = cy.data(), incy = 1;
  if (small((double)n) || ready() != 0) return dot_here(n, x, incx, y, incy, sqrt_of);
  double r = 0;
  int s = sqrt_of ? exstar_dnrm2(n, x, incx, &r) : exstar_ddot(n, x, incx, y, incy, &r);
  return s == EXSTAR_SUCCESS ? r : dot_here(n, x, incx, y, incy, sqrt_of);
}

// exstar_idamax's rule on the calling thread: the first NaN, else the first largest |x_i|.
int64_t iamax_here(int64_t n, const double *x, int64_t incx)
{
  int64_t best = -1;
  double bv = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double a = std::fabs(x[i * incx]);
    if (std::isnan(a)) return i; // the first NaN
    if (best < 0 || a > bv) best = i, bv = a;
  }
  return best;
}

} // namespace

extern "C" {

double ddot_(const fint *n, const double *x, const fint *incx, const double *y, const fint *incy)
{
  if (*n <= 0) return 0.0;
  return dot(*n, x, *incx, y, *incy, false);
}

// dsdot: float inputs converted exactly, RN(Σ x_i·y_i) as one exact sum.
double dsdot_(const fint *n, const float *x, const fint *incx, const float *y, const fint *incy)
{
  if (*n <= 0) return 0.0;
  exact_sum s;
  const int64_t fx = first(*n, *incx), fy = first(*n, *incy);
  for (int64_t i = 0; i < *n; ++i) s.add((double)x[fx + i * *incx], (double)y[fy + i * *incy]);
  return s.round();
}

double dnrm2_(const fint *n, const double *x, const fint *incx)
{
  if (*n <= 0) return 0.0; // the reference takes every increment, 0 and negative included
  return dot(*n, x, *incx, x, *incx, true);
}

// dasum: RN(Σ |x_i|), one exact sum.
double dasum_(const fint *n, const double *x, const fint *incx)
{
  if (*n <= 0 || *incx <= 0) return 0.0;
  exact_sum s;
  for (int64_t i = 0; i < *n; ++i) s.add(std::fabs(x[i * *incx]));
  return s.round();
}

void dscal_(const fint *n, const double *da, double *x, const fint *incx)
{
  if (*n <= 0 || *incx <= 0 || *da == 1.0) return;
  if (!small((double)*n) && ready() == 0 && exstar_dscal(*n, *da, x, *incx) == EXSTAR_SUCCESS) return;
  for (int64_t i = 0; i < *n; ++i) x[i * *incx] = *da * x[i * *incx]; // one IEEE product: RN(α·x)
}

void daxpy_(const fint *n, const double *da, const double *x, const fint *incx, double *y, const fint *incy)
{
  if (*n <= 0 || *da == 0.0) return;
  if (*incx != 0 && *incy != 0 && !small((double)*n) && ready() == 0 &&
      exstar_daxpy(*n, *da, x, *incx, y, *incy) == EXSTAR_SUCCESS)
    return;
  // one rounding per element, in the reference order (an increment 0 repeats the update)
  const vec X(*n, const_cast<double *>(x), *incx), Y(*n, y, *incy);
  for (int64_t i = 0; i < *n; ++i) Y(i) = std::fma(*da, X(i), Y(i));
}

void dswap_(const fint *n, double *x, const fint *incx, double *y, const fint *incy)
{
  if (*n <= 0) return;
  if (*incx != 0 && *incy != 0 && !small((double)*n) && ready() == 0 &&
      exstar_dswap(*n, x, *incx, y, *incy) == EXSTAR_SUCCESS)
    return;
  const vec X(*n, x, *incx), Y(*n, y, *incy);
  for (int64_t i = 0; i < *n; ++i) std::swap(X(i), Y(i));
}

void dcopy_(const fint *n, const double *x, const fint *incx, double *y, const fint *incy)
{
  if (*n <= 0) return;
  const vec X(*n, const_cast<double *>(x), *incx), Y(*n, y, *incy);
  for (int64_t i = 0; i < *n; ++i) Y(i) = X(i);
}

fint idamax_(const fint *n, const double *x, const fint *incx)
{
  if (*n < 1 || *incx <= 0) return 0;
  if (*n == 1) return 1;
  int64_t idx = -1;
  if (small((double)*n) || ready() != 0 || exstar_idamax(*n, x, *incx, &idx) != EXSTAR_SUCCESS)
    idx = iamax_here(*n, x, *incx);
  return (fint)(idx + 1);
}

// drot: x_i := RN(c·x_i + s·y_i), y_i := RN(c·y_i − s·x_i), each from the old x_i, y_i.
void drot_(const fint *n, double *x, const fint *incx, double *y, const fint *incy, const double *c, const double *s)
{
  if (*n <= 0) return;
  const vec X(*n, x, *incx), Y(*n, y, *incy);
  for (int64_t i = 0; i < *n; ++i) {
    const double w = X(i), z = Y(i);
    exact_sum a, b;
    a.add(*c, w), a.add(*s, z);
    b.add(*c, z), b.add(-*s, w);
    X(i) = a.round(), Y(i) = b.round();
  }
}

// drotm: the modified rotation H of param (flag, h11, h21, h12, h22), each new entry one
// rounding of its exact terms; the implicit entries of flags 0 and 1 (±1, 0) as the reference.
void drotm_(const fint *n, double *x, const fint *incx, double *y, const fint *incy, const double *param)
{
  const double flag = param[0];
  if (*n <= 0 || flag + 2.0 == 0.0) return;
  double h11 = param[1], h21 = param[2], h12 = param[3], h22 = param[4];
  const vec X(*n, x, *incx), Y(*n, y, *incy);
  for (int64_t i = 0; i < *n; ++i) {
    const double w = X(i), z = Y(i);
    exact_sum a, b;
    if (flag < 0) a.add(w, h11), a.add(z, h12), b.add(w, h21), b.add(z, h22);
    else if (flag == 0) a.add(w), a.add(z, h12), b.add(w, h21), b.add(z);
    else a.add(w, h11), a.add(z), b.add(-w), b.add(h22, z);
    X(i) = a.round(), Y(i) = b.round();
  }
}

// drotg: reference BLAS 3.10+ (drotg.f90), operation for operation in IEEE double.
void drotg_(double *a, double *b, double *c, double *s)
{
  const double safmin = 0x1p-1022, safmax = 0x1p1023;
  const double anorm = std::fabs(*a), bnorm = std::fabs(*b);
  if (bnorm == 0.0) {
    *c = 1.0, *s = 0.0, *b = 0.0;
  } else if (anorm == 0.0) {
    *c = 0.0, *s = 1.0, *a = *b, *b = 1.0;
  } else {
    const double scl = std::fmin(safmax, std::fmax(safmin, std::fmax(anorm, bnorm)));
    const double sigma = anorm > bnorm ? std::copysign(1.0, *a) : std::copysign(1.0, *b);
    const double as = *a / scl, bs = *b / scl;
    const double r = sigma * (scl * std::sqrt(as * as + bs * bs));
    *c = *a / r;
    *s = *b / r;
    double z;
    if (anorm > bnorm) z = *s;
    else if (*c != 0.0) z = 1.0 / *c;
    else z = 1.0;
    *a = r, *b = z;
  }
}

// drotmg: reference BLAS drotmg.f, operation for operation in IEEE double.
void drotmg_(double *dd1, double *dd2, double *dx1, const double *dy1, double *param)
{
  const double gam = 4096.0, gamsq = 16777216.0, rgamsq = 5.9604645e-8;
  double flag, h11 = 0, h12 = 0, h21 = 0, h22 = 0;
  auto zero_all = [&] { flag = -1.0, h11 = h12 = h21 = h22 = 0.0, *dd1 = *dd2 = *dx1 = 0.0; };
  if (*dd1 < 0.0) {
    zero_all();
  } else {
    const double p2 = *dd2 * *dy1;
    if (p2 == 0.0) {
      param[0] = -2.0;
      return;
    }
    const double p1 = *dd1 * *dx1, q2 = p2 * *dy1, q1 = p1 * *dx1;
    if (std::fabs(q1) > std::fabs(q2)) {
      h21 = -*dy1 / *dx1;
      h12 = p2 / p1;
      const double u = 1.0 - h12 * h21;
      if (u > 0.0) flag = 0.0, *dd1 = *dd1 / u, *dd2 = *dd2 / u, *dx1 = *dx1 * u;
      else zero_all();
    } else if (q2 < 0.0) {
      zero_all();
    } else {
      flag = 1.0;
      h11 = p1 / p2;
      h22 = *dx1 / *dy1;
      const double u = 1.0 + h11 * h22, t = *dd2 / u;
      *dd2 = *dd1 / u;
      *dd1 = t;
      *dx1 = *dy1 * u;
    }
    auto rescale_flag = [&] {
      if (flag == 0.0) h11 = 1.0, h22 = 1.0;
      else h21 = -1.0, h12 = 1.0;
      flag = -1.0;
    };
    if (*dd1 != 0.0)
      while (*dd1 <= rgamsq || *dd1 >= gamsq) {
        rescale_flag();
        if (*dd1 <= rgamsq) *dd1 = *dd1 * (gam * gam), *dx1 = *dx1 / gam, h11 = h11 / gam, h12 = h12 / gam;
        else *dd1 = *dd1 / (gam * gam), *dx1 = *dx1 * gam, h11 = h11 * gam, h12 = h12 * gam;
      }
    if (*dd2 != 0.0)
      while (std::fabs(*dd2) <= rgamsq || std::fabs(*dd2) >= gamsq) {
        rescale_flag();
        if (std::fabs(*dd2) <= rgamsq) *dd2 = *dd2 * (gam * gam), h21 = h21 / gam, h22 = h22 / gam;
        else *dd2 = *dd2 / (gam * gam), h21 = h21 * gam, h22 = h22 * gam;
      }
  }
  if (flag < 0.0) param[1] = h11, param[2] = h21, param[3] = h12, param[4] = h22;
  else if (flag == 0.0) param[2] = h21, param[3] = h12;
  else param[1] = h11, param[4] = h22;
  param[0] = flag;
}

} // extern "C"
