/* exstar core: the iamax order, written once for CPU, CUDA and OpenCL.
 *
 * iamax(x) is the smallest index of the largest |x_i|, a NaN counting as larger than every
 * number (so the first NaN wins). A partial result is the pair (key, index): key orders the
 * |x_i| as integers, index breaks ties (smaller wins). The empty pair (-1, -1) loses to every
 * element. "Beats" is a strict total order on distinct pairs, so combining pairs is
 * associative and commutative: any split of x, any merge tree, gives the same winner. */
#ifndef EXSTAR_CORE_IAMAX_H
#define EXSTAR_CORE_IAMAX_H
#include "portable.h"

/* A partial result in memory: EXSTAR_IAMAX_WORDS exstar_i64 words {key, index}. */
#define EXSTAR_IAMAX_WORDS 2
#define EXSTAR_IAMAX_EMPTY (-1)

/* The bits of |x| are ordered as the values for every non-NaN x (+inf: 0x7ff0...0); every
 * NaN, whatever its payload, gets the one key just above +inf. */
EXSTAR_FN exstar_i64 exstar_iamax_key(double x)
{
  exstar_u64 b = exstar_bits(x) & EXSTAR_U64(0x7fffffffffffffff);
  const exstar_u64 inf = EXSTAR_U64(0x7ff0000000000000);
  return (exstar_i64)(b > inf ? inf + 1 : b);
}

/* Nonzero when (ka, ia) wins over (kb, ib): larger key, or equal key and smaller index. */
EXSTAR_FN int exstar_iamax_beats(exstar_i64 ka, exstar_i64 ia, exstar_i64 kb, exstar_i64 ib)
{
  return ka > kb || (ka == kb && ia < ib);
}

#endif
