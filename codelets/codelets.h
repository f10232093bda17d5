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

/* Errors raised inside codelet functions (which cannot return one): the first is kept
 * until taken. The runtime checks it after waiting for its tasks. */
void exstar_codelet_fail(int status, const char *fmt, ...);
int exstar_codelet_take_error(char *msg, size_t len); /* 0 when none */

/* exstar_gemv_acc_cl with RW accumulators: for accumulators one task alone adds to (no
 * per-worker copies to zero and reduce). */
extern struct starpu_codelet exstar_gemv_acc_rw_cl;
/* R src, W dst of one shape: matrices (any ld, any element size) or vectors; CPU. */
extern struct starpu_codelet exstar_matrix_copy_cl;
extern struct starpu_codelet exstar_vector_copy_cl;

#endif
