/* exstar — LAPACK-style drivers: getrf, getrs, gesv, batches.
 * Included by exstar.h; see there for the conventions (RN, strides, errors). */
#ifndef EXSTAR_LAPACK_H
#define EXSTAR_LAPACK_H
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
