// The standard symbols libexstar_blas exports, as the tests call them (Fortran: by pointer,
// 32-bit INTEGER, hidden CHARACTER lengths last; CBLAS: cblas.h's enum values).
#pragma once
#include <cstddef>
#include <cstdint>

using fint = int32_t;

extern "C" {
double ddot_(const fint *, const double *, const fint *, const double *, const fint *);
double dsdot_(const fint *, const float *, const fint *, const float *, const fint *);
double dnrm2_(const fint *, const double *, const fint *);
double dasum_(const fint *, const double *, const fint *);
fint idamax_(const fint *, const double *, const fint *);
void dscal_(const fint *, const double *, double *, const fint *);
void daxpy_(const fint *, const double *, const double *, const fint *, double *, const fint *);
void dswap_(const fint *, double *, const fint *, double *, const fint *);
void dcopy_(const fint *, const double *, const fint *, double *, const fint *);
void drot_(const fint *, double *, const fint *, double *, const fint *, const double *, const double *);
void drotm_(const fint *, double *, const fint *, double *, const fint *, const double *);
void dgemv_(const char *, const fint *, const fint *, const double *, const double *, const fint *, const double *,
            const fint *, const double *, double *, const fint *, size_t);
void dgbmv_(const char *, const fint *, const fint *, const fint *, const fint *, const double *, const double *,
            const fint *, const double *, const fint *, const double *, double *, const fint *, size_t);
void dsymv_(const char *, const fint *, const double *, const double *, const fint *, const double *, const fint *,
            const double *, double *, const fint *, size_t);
void dsbmv_(const char *, const fint *, const fint *, const double *, const double *, const fint *, const double *,
            const fint *, const double *, double *, const fint *, size_t);
void dspmv_(const char *, const fint *, const double *, const double *, const double *, const fint *, const double *,
            double *, const fint *, size_t);
void dtrmv_(const char *, const char *, const char *, const fint *, const double *, const fint *, double *,
            const fint *, size_t, size_t, size_t);
void dtbmv_(const char *, const char *, const char *, const fint *, const fint *, const double *, const fint *,
            double *, const fint *, size_t, size_t, size_t);
void dtpmv_(const char *, const char *, const char *, const fint *, const double *, double *, const fint *, size_t,
            size_t, size_t);
void dtrsv_(const char *, const char *, const char *, const fint *, const double *, const fint *, double *,
            const fint *, size_t, size_t, size_t);
void dtbsv_(const char *, const char *, const char *, const fint *, const fint *, const double *, const fint *,
            double *, const fint *, size_t, size_t, size_t);
void dtpsv_(const char *, const char *, const char *, const fint *, const double *, double *, const fint *, size_t,
            size_t, size_t);
void dger_(const fint *, const fint *, const double *, const double *, const fint *, const double *, const fint *,
           double *, const fint *);
void dsyr_(const char *, const fint *, const double *, const double *, const fint *, double *, const fint *, size_t);
void dspr_(const char *, const fint *, const double *, const double *, const fint *, double *, size_t);
void dsyr2_(const char *, const fint *, const double *, const double *, const fint *, const double *, const fint *,
            double *, const fint *, size_t);
void dspr2_(const char *, const fint *, const double *, const double *, const fint *, const double *, const fint *,
            double *, size_t);
void dgemm_(const char *, const char *, const fint *, const fint *, const fint *, const double *, const double *,
            const fint *, const double *, const fint *, const double *, double *, const fint *, size_t, size_t);
void dsymm_(const char *, const char *, const fint *, const fint *, const double *, const double *, const fint *,
            const double *, const fint *, const double *, double *, const fint *, size_t, size_t);
void dsyrk_(const char *, const char *, const fint *, const fint *, const double *, const double *, const fint *,
            const double *, double *, const fint *, size_t, size_t);
void dsyr2k_(const char *, const char *, const fint *, const fint *, const double *, const double *, const fint *,
             const double *, const fint *, const double *, double *, const fint *, size_t, size_t);
void dtrmm_(const char *, const char *, const char *, const char *, const fint *, const fint *, const double *,
            const double *, const fint *, double *, const fint *, size_t, size_t, size_t, size_t);
void dtrsm_(const char *, const char *, const char *, const char *, const fint *, const fint *, const double *,
            const double *, const fint *, double *, const fint *, size_t, size_t, size_t, size_t);
void dgetrf_(const fint *, const fint *, double *, const fint *, fint *, fint *);
void dgetrs_(const char *, const fint *, const fint *, const double *, const fint *, const fint *, double *,
             const fint *, fint *, size_t);
void dgesv_(const fint *, const fint *, double *, const fint *, fint *, double *, const fint *, fint *);
void dpotrf_(const char *, const fint *, double *, const fint *, fint *, size_t);
void dpotrs_(const char *, const fint *, const fint *, const double *, const fint *, double *, const fint *, fint *,
             size_t);
void dposv_(const char *, const fint *, const fint *, double *, const fint *, double *, const fint *, fint *, size_t);
void dlaswp_(const fint *, double *, const fint *, const fint *, const fint *, const fint *, const fint *);

enum { CblasRowMajor = 101, CblasColMajor = 102, CblasNoTrans = 111, CblasTrans = 112, CblasUpper = 121,
       CblasLower = 122, CblasNonUnit = 131, CblasUnit = 132, CblasLeft = 141, CblasRight = 142 };
double cblas_ddot(fint, const double *, fint, const double *, fint);
void cblas_dgemv(int, int, fint, fint, double, const double *, fint, const double *, fint, double, double *, fint);
void cblas_dgemm(int, int, int, fint, fint, fint, double, const double *, fint, const double *, fint, double,
                 double *, fint);
void cblas_dtrsm(int, int, int, int, int, fint, fint, double, const double *, fint, double *, fint);
void cblas_dtrsv(int, int, int, int, fint, const double *, fint, double *, fint);
fint LAPACKE_dgesv(int, fint, fint, double *, fint, fint *, double *, fint);
fint LAPACKE_dpotrf(int, char, fint, double *, fint);
fint LAPACKE_dpotrs(int, char, fint, fint, const double *, fint, double *, fint);
fint LAPACKE_dposv(int, char, fint, fint, double *, fint, double *, fint);
fint LAPACKE_dgetrf(int, fint, fint, double *, fint, fint *);
}
