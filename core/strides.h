/* exstar core: BLAS stride conventions, shared by every back end. */
#ifndef EXSTAR_CORE_STRIDES_H
#define EXSTAR_CORE_STRIDES_H
#include "portable.h"

/* Index of element 0 of the BLAS vector (n, off, inc): with inc < 0 the vector runs
 * backwards from its last stored element, so element i sits at first + i*inc. */
EXSTAR_FN exstar_i64 exstar_first_index(exstar_i64 n, exstar_i64 off, exstar_i64 inc)
{
  return inc < 0 && n > 0 ? off + (n - 1) * (-inc) : off;
}

#endif
