/* exstar — Level 2: gemv, trsv, refined trsv.
 * Included by exstar.h; see there for the conventions (RN, strides, errors). */
#ifndef EXSTAR_LEVEL2_H
#define EXSTAR_LEVEL2_H
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
