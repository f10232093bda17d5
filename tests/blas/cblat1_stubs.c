/* c_dblas1.c (CBLAS's Level-1 tester glue) also wraps two double-COMPLEX routines that
 * c_dblat1.f never calls; libexstar_blas leaves complex routines to the system BLAS, so the
 * tester gets these stubs instead of linking a system BLAS at all. */
double cblas_dzasum(int n, const void *x, int incx)
{
  (void)n, (void)x, (void)incx;
  return __builtin_nan("");
}
double cblas_dznrm2(int n, const void *x, int incx)
{
  (void)n, (void)x, (void)incx;
  return __builtin_nan("");
}
