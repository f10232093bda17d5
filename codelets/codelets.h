/* exstar codelets: glue between StarPU and the kernels, one file per operation.
 *
 * This header is what the runtime sees of the codelet layer (besides the codelets declared
 * in exstar.h): OpenCL program loading and errors raised inside tasks. The codelet files
 * themselves include glue.h. Codelets know nothing of algorithms (runtime/ does); kernels
 * know nothing of StarPU. */
#ifndef EXSTAR_CODELETS_H
#define EXSTAR_CODELETS_H
#include <starpu.h>
#include "include/exstar/exstar.h"

/* OpenCL: one program per OpenCL worker device, built at init by exstar itself (so that a
 * build failure is an error code with the build log, not an abort). dir: see
 * exstar_cl_source. Returns 0, or EXSTAR_ERR_OPENCL with the reason written to msg. */
int exstar_codelets_opencl_load(const char *dir, char *msg, size_t len);
void exstar_codelets_opencl_unload(void);
/* The largest buffer every OpenCL worker's device can allocate (CL_DEVICE_MAX_MEM_ALLOC_SIZE,
 * the smallest over them), known once the programs are loaded; 0 without OpenCL workers. */
uint64_t exstar_codelets_opencl_max_alloc(void);

/* OpenCL devices of any platform that are not CPUs (GPUs, accelerators); 0 in a build without
 * OpenCL or on any error. */
int exstar_codelets_opencl_noncpu_device_count(void);

/* CUDA devices the CUDA runtime sees (0 in a build without CUDA codelets, or on any error). */
int exstar_codelets_cuda_device_count(void);
/* Once StarPU runs, with the number of GPUs its CUDA workers drive: the kernels' defaults that
 * depend on it (the GEMM-accumulate state's integer path when there is a GPU). */
void exstar_codelets_cuda_configure(unsigned gpus);

/* Errors raised inside codelet functions (which cannot return one): the first is kept
 * until taken. The runtime checks it after waiting for its tasks. */
void exstar_codelet_fail(int status, const char *fmt, ...);
int exstar_codelet_take_error(char *msg, size_t len); /* 0 when none */
/* The name of the codelet of the task the calling worker runs ("a task" outside one). */
const char *exstar_codelet_current_name(void);

/* exstar_gemv_acc_cl with RW accumulators: for accumulators one task alone adds to (no
 * per-worker copies to zero and reduce). */
extern struct starpu_codelet exstar_gemv_acc_rw_cl;
/* R src, W dst of one shape: matrices (any ld, any element size) or vectors; CPU. */
extern struct starpu_codelet exstar_matrix_copy_cl;
extern struct starpu_codelet exstar_vector_copy_cl;

/* The whole gemv of one output block in one task, CPU only (kernels_cpu/gemv.h,
 * exstar_cpu_dgemv): R A (matrix), R x, R y, W out (a contiguous vector of the block's
 * entries): out := RN(α·op(A block)·x + β·y's block); the driver copies out into y. */
struct exstar_gemv_fused_args {
  char trans;       /* 'N' or 'T' */
  int64_t m, n;     /* the block of A */
  int64_t ia, ja;   /* its origin in the matrix handle */
  double alpha;
  int64_t offx, incx;
  double beta;
  int64_t offy, incy;
  int exact_only;   /* nonzero: every entry by the exact path (tests; same bits) */
};
extern struct starpu_codelet exstar_gemv_fused_cl;

/* trsv's checked fast path, CPU only (codelets/trsv_state.cpp). A state is a vector handle of
 * 4 doubles per row (an exstar_bdd). exstar_gemv_state_cl: R A, R x, RW state; state_i +=
 * sign·Σ_j op(A block)_ij·x_j (exstar_cpu_gemv_state_add); _w_cl: W state, init must be 1. */
struct exstar_gemv_state_args {
  char trans;
  int64_t m, n, ia, ja;
  double sign;
  int64_t offx, incx;
  int init;         /* zero the state first (the W codelet) */
};
extern struct starpu_codelet exstar_gemv_state_cl;
extern struct starpu_codelet exstar_gemv_state_w_cl;
/* The diagonal-block solve from a state: R T, R state, RW x (_diag0_cl: R T, RW x, no state,
 * has_state 0). x is the whole system's vector; a declined row is recomputed from all its
 * terms (exstar_cpu_trsv_solve_state). */
struct exstar_trsv_state_args {
  exstar_trsv_block_args blk; /* the block (blk.incx: x's stride) */
  int64_t n;                  /* unknowns of the whole system */
  int64_t wit, wjt;           /* its T(0, 0) in the matrix handle */
  int64_t i0;                 /* the block's first unknown */
  int64_t offx;               /* the whole x in its handle (BLAS offset) */
  int has_state;
};
extern struct starpu_codelet exstar_trsv_state_diag_cl;
extern struct starpu_codelet exstar_trsv_state_diag0_cl;

#endif
