/* The trsv codelets' view of a diagonal block: direction, op, diagonal, and where T(it, jt)
 * lies in the matrix buffer (base: the buffer's own element offset). */
#ifndef EXSTAR_CODELETS_TRSV_GLUE_H
#define EXSTAR_CODELETS_TRSV_GLUE_H
#include "codelets/glue.h"
#include "kernels_cpu/trsv.h"

static inline exstar_trsv_shape exstar_trsv_block_shape(void *tbuf, const exstar_trsv_block_args *a, int64_t base)
{
  exstar_trsv_shape s;
  s.trans = a->trans == 'T';
  s.forward = (a->uplo == 'L') != s.trans;
  s.unit = a->diag == 'U';
  s.nb = a->nb;
  s.ldt = (int64_t)STARPU_MATRIX_GET_LD(tbuf);
  s.t0 = base + a->it + a->jt * s.ldt;
  return s;
}

#endif
