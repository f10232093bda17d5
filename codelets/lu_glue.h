/* exstar LU codelets: what the lu_*.cpp codelet files share (on top of glue.h).
 *
 * Every LU task works on ONE matrix handle (the whole m x n matrix, element (r, c) at
 * r + c*ld of its buffer), so the kernels get the same pointer / cl_mem for the matrix and for
 * the column they read or write. Their history-based models are keyed on the work of the task
 * (exstar_lu_args), not on the matrix handle, whose size is the same for every task. */
#ifndef EXSTAR_CODELETS_LU_GLUE_H
#define EXSTAR_CODELETS_LU_GLUE_H
#include "codelets/glue.h"

static inline double *exstar_lu_mat_ptr(void *buf) { return (double *)STARPU_MATRIX_GET_PTR(buf); }
static inline int64_t exstar_lu_ld(void *buf) { return (int64_t)STARPU_MATRIX_GET_LD(buf); }
static inline int32_t *exstar_lu_ipiv_ptr(void *buf) { return (int32_t *)STARPU_VECTOR_GET_PTR(buf); }
#ifdef STARPU_USE_OPENCL
static inline cl_mem exstar_lu_mat_mem(void *buf) { return (cl_mem)STARPU_MATRIX_GET_DEV_HANDLE(buf); }
static inline int64_t exstar_lu_mat_off(void *buf) { return (int64_t)(STARPU_MATRIX_GET_OFFSET(buf) / sizeof(double)); }
static inline int64_t exstar_lu_ipiv_off(void *buf) { return (int64_t)(STARPU_VECTOR_GET_OFFSET(buf) / sizeof(int32_t)); }
#endif

/* The footprint of an LU task: its row count, its term count per row and m - j. */
static inline uint32_t exstar_lu_footprint(struct starpu_task *task)
{
  exstar_lu_args a;
  starpu_codelet_unpack_args(task->cl_arg, &a);
  uint32_t h = starpu_hash_crc32c_be((uint32_t)a.rlen, 0);
  h = starpu_hash_crc32c_be((uint32_t)a.klen, h);
  return starpu_hash_crc32c_be((uint32_t)(a.m - a.j), h);
}

/* EXSTAR_CODELET with the footprint above. */
#define EXSTAR_LU_CODELET(op, nb, ...) EXSTAR_CODELET_FOOTPRINT(op, exstar_lu_footprint, nb, __VA_ARGS__)

#endif
