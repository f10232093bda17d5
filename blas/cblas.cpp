// libexstar_blas, CBLAS: the C interface of the reference CBLAS (LAPACK 3.11's CBLAS/src),
// mapped onto the Fortran symbols of this library as the reference maps it: row-major is the
// column-major call on the transposed matrices (trans flipped, uplo flipped, side flipped,
// m <-> n, A <-> B for gemm). Illegal enum values go to cblas_xerbla with the reference's
// positions; the rest of the checks are the Fortran routines', reported (with CBLAS_CallFromC
// set) through xerbla_ -> cblas_xerbla as the reference does, RowMajorStrg telling row-major.
#include "blas/internal.h"
#include <cstddef>

using namespace exstar_blas;

extern "C" {
// The Fortran symbols (level1.cpp ... level3.cpp).
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
void drotg_(double *, double *, double *, double *);
void drotmg_(double *, double *, double *, const double *, double *);
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
}

namespace {

// CBLAS's enum values (cblas.h).
enum { RowMajor = 101, ColMajor = 102, NoTrans = 111, Trans = 112, ConjTrans = 113, Upper = 121, Lower = 122,
       NonUnit = 131, Unit = 132, Left = 141, Right = 142 };

// One CBLAS call: CBLAS_CallFromC set while it runs (xerbla_ then reports to cblas_xerbla),
// RowMajorStrg while a row-major call runs, both cleared at the end (the reference's globals).
struct call {
  call() { RowMajorStrg = 0, CBLAS_CallFromC = 1; }
  ~call() { RowMajorStrg = 0, CBLAS_CallFromC = 0; }
};

// The Fortran character of an enum, flipped for row-major where the reference flips it;
// 0 when the value is illegal.
char trans_of(int t, bool flip)
{
  if (t == NoTrans) return flip ? 'T' : 'N';
  if (t == Trans) return flip ? 'N' : 'T';
  if (t == ConjTrans) return flip ? 'N' : 'C';
  return 0;
}
char uplo_of(int u, bool flip)
{
  if (u == Upper) return flip ? 'L' : 'U';
  if (u == Lower) return flip ? 'U' : 'L';
  return 0;
}
char diag_of(int d)
{
  if (d == Unit) return 'U';
  if (d == NonUnit) return 'N';
  return 0;
}
char side_of(int s, bool flip)
{
  if (s == Left) return flip ? 'R' : 'L';
  if (s == Right) return flip ? 'L' : 'R';
  return 0;
}

} // namespace

#define CBLAS_LAYOUT_CHECK(name)                                                                          \
  if (layout != RowMajor && layout != ColMajor) {                                                        \
    cblas_xerbla(1, name, "Illegal layout setting, %d\n", layout);                                       \
    return;                                                                                              \
  }                                                                                                      \
  const bool rm = layout == RowMajor;                                                                    \
  if (rm) RowMajorStrg = 1

extern "C" {

// ---- Level 1: no layout; the Fortran routines -----------------------------------------------
double cblas_ddot(fint n, const double *x, fint incx, const double *y, fint incy) { return ddot_(&n, x, &incx, y, &incy); }
double cblas_dsdot(fint n, const float *x, fint incx, const float *y, fint incy) { return dsdot_(&n, x, &incx, y, &incy); }
double cblas_dnrm2(fint n, const double *x, fint incx) { return dnrm2_(&n, x, &incx); }
double cblas_dasum(fint n, const double *x, fint incx) { return dasum_(&n, x, &incx); }
size_t cblas_idamax(fint n, const double *x, fint incx)
{
  const fint i = idamax_(&n, x, &incx);
  return i ? (size_t)(i - 1) : 0; // 0-based, as the reference CBLAS
}
void cblas_dscal(fint n, double alpha, double *x, fint incx) { dscal_(&n, &alpha, x, &incx); }
void cblas_daxpy(fint n, double alpha, const double *x, fint incx, double *y, fint incy) { daxpy_(&n, &alpha, x, &incx, y, &incy); }
void cblas_dswap(fint n, double *x, fint incx, double *y, fint incy) { dswap_(&n, x, &incx, y, &incy); }
void cblas_dcopy(fint n, const double *x, fint incx, double *y, fint incy) { dcopy_(&n, x, &incx, y, &incy); }
void cblas_drot(fint n, double *x, fint incx, double *y, fint incy, double c, double s) { drot_(&n, x, &incx, y, &incy, &c, &s); }
void cblas_drotm(fint n, double *x, fint incx, double *y, fint incy, const double *p) { drotm_(&n, x, &incx, y, &incy, p); }
void cblas_drotg(double *a, double *b, double *c, double *s) { drotg_(a, b, c, s); }
void cblas_drotmg(double *d1, double *d2, double *b1, double b2, double *p) { drotmg_(d1, d2, b1, &b2, p); }

// ---- Level 2 ----------------------------------------------------------------------------------
void cblas_dgemv(int layout, int transa, fint m, fint n, double alpha, const double *A, fint lda, const double *x,
                 fint incx, double beta, double *y, fint incy)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dgemv");
  const char t = trans_of(transa, rm);
  if (!t) return cblas_xerbla(2, "cblas_dgemv", "Illegal TransA setting, %d\n", transa);
  if (rm) dgemv_(&t, &n, &m, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
  else dgemv_(&t, &m, &n, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
}

void cblas_dgbmv(int layout, int transa, fint m, fint n, fint kl, fint ku, double alpha, const double *A, fint lda,
                 const double *x, fint incx, double beta, double *y, fint incy)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dgbmv");
  const char t = trans_of(transa, rm);
  if (!t) return cblas_xerbla(2, "cblas_dgbmv", "Illegal TransA setting, %d\n", transa);
  if (rm) dgbmv_(&t, &n, &m, &ku, &kl, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
  else dgbmv_(&t, &m, &n, &kl, &ku, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
}

#define CBLAS_UPLO(name, pos)                                                                            \
  const char u = uplo_of(uplo, rm);                                                                      \
  if (!u) return cblas_xerbla(pos, name, "Illegal Uplo setting, %d\n", uplo)

void cblas_dsymv(int layout, int uplo, fint n, double alpha, const double *A, fint lda, const double *x, fint incx,
                 double beta, double *y, fint incy)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dsymv");
  CBLAS_UPLO("cblas_dsymv", 2);
  dsymv_(&u, &n, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
}

void cblas_dsbmv(int layout, int uplo, fint n, fint k, double alpha, const double *A, fint lda, const double *x,
                 fint incx, double beta, double *y, fint incy)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dsbmv");
  CBLAS_UPLO("cblas_dsbmv", 2);
  dsbmv_(&u, &n, &k, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
}

void cblas_dspmv(int layout, int uplo, fint n, double alpha, const double *ap, const double *x, fint incx,
                 double beta, double *y, fint incy)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dspmv");
  CBLAS_UPLO("cblas_dspmv", 2);
  dspmv_(&u, &n, &alpha, ap, x, &incx, &beta, y, &incy, 1);
}

// trmv, tbmv, tpmv, trsv, tbsv, tpsv: uplo (2), trans (3), diag (4), both flipped for row-major.
#define CBLAS_TRI(name)                                                                                  \
  call c;                                                                                                \
  CBLAS_LAYOUT_CHECK(name);                                                                              \
  CBLAS_UPLO(name, 2);                                                                                   \
  const char t = trans_of(transa, rm);                                                                   \
  if (!t) return cblas_xerbla(3, name, "Illegal TransA setting, %d\n", transa);                          \
  const char d = diag_of(diag);                                                                          \
  if (!d) return cblas_xerbla(4, name, "Illegal Diag setting, %d\n", diag)

void cblas_dtrmv(int layout, int uplo, int transa, int diag, fint n, const double *A, fint lda, double *x, fint incx)
{
  CBLAS_TRI("cblas_dtrmv");
  dtrmv_(&u, &t, &d, &n, A, &lda, x, &incx, 1, 1, 1);
}
void cblas_dtbmv(int layout, int uplo, int transa, int diag, fint n, fint k, const double *A, fint lda, double *x,
                 fint incx)
{
  CBLAS_TRI("cblas_dtbmv");
  dtbmv_(&u, &t, &d, &n, &k, A, &lda, x, &incx, 1, 1, 1);
}
void cblas_dtpmv(int layout, int uplo, int transa, int diag, fint n, const double *ap, double *x, fint incx)
{
  CBLAS_TRI("cblas_dtpmv");
  dtpmv_(&u, &t, &d, &n, ap, x, &incx, 1, 1, 1);
}
void cblas_dtrsv(int layout, int uplo, int transa, int diag, fint n, const double *A, fint lda, double *x, fint incx)
{
  CBLAS_TRI("cblas_dtrsv");
  dtrsv_(&u, &t, &d, &n, A, &lda, x, &incx, 1, 1, 1);
}
void cblas_dtbsv(int layout, int uplo, int transa, int diag, fint n, fint k, const double *A, fint lda, double *x,
                 fint incx)
{
  CBLAS_TRI("cblas_dtbsv");
  dtbsv_(&u, &t, &d, &n, &k, A, &lda, x, &incx, 1, 1, 1);
}
void cblas_dtpsv(int layout, int uplo, int transa, int diag, fint n, const double *ap, double *x, fint incx)
{
  CBLAS_TRI("cblas_dtpsv");
  dtpsv_(&u, &t, &d, &n, ap, x, &incx, 1, 1, 1);
}

void cblas_dger(int layout, fint m, fint n, double alpha, const double *x, fint incx, const double *y, fint incy,
                double *A, fint lda)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dger");
  if (rm) dger_(&n, &m, &alpha, y, &incy, x, &incx, A, &lda);
  else dger_(&m, &n, &alpha, x, &incx, y, &incy, A, &lda);
}

void cblas_dsyr(int layout, int uplo, fint n, double alpha, const double *x, fint incx, double *A, fint lda)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dsyr");
  CBLAS_UPLO("cblas_dsyr", 2);
  dsyr_(&u, &n, &alpha, x, &incx, A, &lda, 1);
}
void cblas_dspr(int layout, int uplo, fint n, double alpha, const double *x, fint incx, double *ap)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dspr");
  CBLAS_UPLO("cblas_dspr", 2);
  dspr_(&u, &n, &alpha, x, &incx, ap, 1);
}
void cblas_dsyr2(int layout, int uplo, fint n, double alpha, const double *x, fint incx, const double *y, fint incy,
                 double *A, fint lda)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dsyr2");
  CBLAS_UPLO("cblas_dsyr2", 2);
  dsyr2_(&u, &n, &alpha, x, &incx, y, &incy, A, &lda, 1);
}
void cblas_dspr2(int layout, int uplo, fint n, double alpha, const double *x, fint incx, const double *y, fint incy,
                 double *ap)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dspr2");
  CBLAS_UPLO("cblas_dspr2", 2);
  dspr2_(&u, &n, &alpha, x, &incx, y, &incy, ap, 1);
}

// ---- Level 3 ----------------------------------------------------------------------------------
void cblas_dgemm(int layout, int transa, int transb, fint m, fint n, fint k, double alpha, const double *A, fint lda,
                 const double *B, fint ldb, double beta, double *C, fint ldc)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dgemm");
  // no flip: row-major swaps the operands instead (C^T = op(B)^T op(A)^T)
  const char ta = trans_of(transa, false), tb = trans_of(transb, false);
  if (!ta) return cblas_xerbla(2, "cblas_dgemm", "Illegal TransA setting, %d\n", transa);
  if (!tb) return cblas_xerbla(rm ? 2 : 3, "cblas_dgemm", "Illegal TransB setting, %d\n", transb); // as the reference
  if (rm) dgemm_(&tb, &ta, &n, &m, &k, &alpha, B, &ldb, A, &lda, &beta, C, &ldc, 1, 1);
  else dgemm_(&ta, &tb, &m, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C, &ldc, 1, 1);
}

void cblas_dsymm(int layout, int side, int uplo, fint m, fint n, double alpha, const double *A, fint lda,
                 const double *B, fint ldb, double beta, double *C, fint ldc)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dsymm");
  const char s = side_of(side, rm);
  if (!s) return cblas_xerbla(2, "cblas_dsymm", "Illegal Side setting, %d\n", side);
  CBLAS_UPLO("cblas_dsymm", 3);
  if (rm) dsymm_(&s, &u, &n, &m, &alpha, A, &lda, B, &ldb, &beta, C, &ldc, 1, 1);
  else dsymm_(&s, &u, &m, &n, &alpha, A, &lda, B, &ldb, &beta, C, &ldc, 1, 1);
}

void cblas_dsyrk(int layout, int uplo, int trans, fint n, fint k, double alpha, const double *A, fint lda, double beta,
                 double *C, fint ldc)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dsyrk");
  CBLAS_UPLO("cblas_dsyrk", rm ? 3 : 2); // the reference says 3 for row-major
  const char t = trans_of(trans, rm);
  if (!t) return cblas_xerbla(3, "cblas_dsyrk", "Illegal Trans setting, %d\n", trans);
  dsyrk_(&u, &t, &n, &k, &alpha, A, &lda, &beta, C, &ldc, 1, 1);
}

void cblas_dsyr2k(int layout, int uplo, int trans, fint n, fint k, double alpha, const double *A, fint lda,
                  const double *B, fint ldb, double beta, double *C, fint ldc)
{
  call c;
  CBLAS_LAYOUT_CHECK("cblas_dsyr2k");
  CBLAS_UPLO("cblas_dsyr2k", rm ? 3 : 2);
  const char t = trans_of(trans, rm);
  if (!t) return cblas_xerbla(3, "cblas_dsyr2k", "Illegal Trans setting, %d\n", trans);
  dsyr2k_(&u, &t, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C, &ldc, 1, 1);
}

// trmm, trsm: side (2), uplo (3), trans (4, not flipped: the side flip transposes), diag (5).
#define CBLAS_TRIM(name)                                                                                 \
  call c;                                                                                                \
  CBLAS_LAYOUT_CHECK(name);                                                                              \
  const char s = side_of(side, rm);                                                                      \
  if (!s) return cblas_xerbla(2, name, "Illegal Side setting, %d\n", side);                              \
  CBLAS_UPLO(name, 3);                                                                                   \
  const char t = trans_of(transa, false);                                                                \
  if (!t) return cblas_xerbla(4, name, "Illegal Trans setting, %d\n", transa);                           \
  const char d = diag_of(diag);                                                                          \
  if (!d) return cblas_xerbla(5, name, "Illegal Diag setting, %d\n", diag);                              \
  const fint *mm = rm ? &n : &m, *nn = rm ? &m : &n

void cblas_dtrmm(int layout, int side, int uplo, int transa, int diag, fint m, fint n, double alpha, const double *A,
                 fint lda, double *B, fint ldb)
{
  CBLAS_TRIM("cblas_dtrmm");
  dtrmm_(&s, &u, &t, &d, mm, nn, &alpha, A, &lda, B, &ldb, 1, 1, 1, 1);
}
void cblas_dtrsm(int layout, int side, int uplo, int transa, int diag, fint m, fint n, double alpha, const double *A,
                 fint lda, double *B, fint ldb)
{
  CBLAS_TRIM("cblas_dtrsm");
  dtrsm_(&s, &u, &t, &d, mm, nn, &alpha, A, &lda, B, &ldb, 1, 1, 1, 1);
}

} // extern "C"
