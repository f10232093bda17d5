/* Level-3 codelet glue (gemm, trsm, the GEMM-accumulate state): block offsets in matrix
 * buffers and, for OpenCL, the Level-3 kernels of the calling worker's device. The CUDA and
 * OpenCL functions exist when their kernels were built (EXSTAR_CUDA_LEVEL3, EXSTAR_CL_LEVEL3,
 * set by CMake). */
#ifndef EXSTAR_CODELETS_LEVEL3_GLUE_H
#define EXSTAR_CODELETS_LEVEL3_GLUE_H
#include "codelets/glue.h"
#include "kernels_cpu/gemm.h"
#if defined(EXSTAR_WITH_CUDA_CODELETS) && defined(EXSTAR_CUDA_LEVEL3)
#define EXSTAR_L3_CUDA 1
#include "kernels_cuda/gemm.h"
#endif
#if defined(STARPU_USE_OPENCL) && defined(EXSTAR_CL_LEVEL3)
#define EXSTAR_L3_OPENCL 1
#include "kernels_cl/gemm.h"
/* The Level-3 kernels of the calling OpenCL worker's device (created on first use; one worker
 * per device, so never used by two threads), and its queue. NULL and a codelet error on failure. */
struct exstar_cl_gemm_kernels *exstar_codelet_cl_gemm_kernels(cl_command_queue *queue);
#endif

/* Element offset of (i, j) in a matrix buffer: i + j*ld (plus, for OpenCL, the buffer's own
 * offset in its cl_mem, in elements of elemsize bytes). */
static inline int64_t exstar_mat_off(void *buf, int64_t i, int64_t j)
{
  return i + j * (int64_t)STARPU_MATRIX_GET_LD(buf);
}
static inline int64_t exstar_mat_ld(void *buf) { return (int64_t)STARPU_MATRIX_GET_LD(buf); }
#ifdef EXSTAR_L3_OPENCL
static inline cl_mem exstar_mat_mem(void *buf) { return (cl_mem)STARPU_MATRIX_GET_DEV_HANDLE(buf); }
static inline int64_t exstar_mat_cl_off(void *buf, int64_t i, int64_t j)
{
  return (int64_t)(STARPU_MATRIX_GET_OFFSET(buf) / STARPU_MATRIX_GET_ELEMSIZE(buf)) + exstar_mat_off(buf, i, j);
}
#endif

#if !defined(EXSTAR_L3_CUDA)
#undef EXSTAR_CUDA_FUNC
#define EXSTAR_CUDA_FUNC(cl, f) ((void)0)
#endif
#if !defined(EXSTAR_L3_OPENCL)
#undef EXSTAR_OPENCL_FUNC
#define EXSTAR_OPENCL_FUNC(cl, f) ((void)0)
#endif

#endif
