/* exstar — Level 1 elementwise operations: scal, invscal, axpy, swap, laswp, iamax.
 * Included by exstar.h; see there for the conventions (RN, strides, errors). */
#ifndef EXSTAR_LEVEL1_H
#define EXSTAR_LEVEL1_H
#ifndef EXSTAR_EXSTAR_H
#error "include <exstar/exstar.h>"
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
