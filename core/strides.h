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

/* An operand of a tiled product as one strip (the tiled gemm gathers its tiles into one array):
 * op(X)'s kt tiles along the k terms, tile l holding terms [l kb, min(k, (l + 1) kb)), each w
 * lines (rows of op(A), columns of op(B)) wide, in one column-major array as X is stored.
 * along_rows (op(A) = Aᵀ, or op(B) = B: the terms run down the stored columns): the strip is
 * k x w, ld k, tile l at row l kb; else w x k, ld w, tile l at column l kb. */
EXSTAR_FN exstar_i64 exstar_strip_ld(int along_rows, exstar_i64 k, exstar_i64 w) { return along_rows ? k : w; }

/* Tile l's place in the strip: its first element's offset and its stored rows and columns. */
EXSTAR_FN void exstar_strip_tile(int along_rows, exstar_i64 l, exstar_i64 kb, exstar_i64 k, exstar_i64 w,
                                 exstar_i64 *off, exstar_i64 *rows, exstar_i64 *cols)
{
  const exstar_i64 kl = (l + 1) * kb < k ? kb : k - l * kb;
  *off = along_rows ? l * kb : l * kb * w;
  *rows = along_rows ? kl : w;
  *cols = along_rows ? w : kl;
}

#endif
