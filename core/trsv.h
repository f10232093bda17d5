/* exstar core — the shape of a diagonal block of trsv, the plain data every back end's trsv
 * kernels (kernels_cpu, kernels_cl's host side, kernels_cuda) and the codelets share. Host and
 * CUDA code only (it uses <stdint.h>; OpenCL device code receives its fields as arguments). */
#ifndef EXSTAR_CORE_TRSV_H
#define EXSTAR_CORE_TRSV_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The shape of a diagonal block of op(T) (op(T) = T, or T^T when trans). forward: rows are
 * solved from first to last (a lower op(T)); otherwise from last to first. */
typedef struct exstar_trsv_shape {
  int forward, trans, unit;
  int64_t nb;              /* rows (and columns) of the block */
  int64_t t0, ldt;         /* element (0,0) of the block and leading dimension of T */
} exstar_trsv_shape;

#ifdef __cplusplus
}
#endif
#endif
