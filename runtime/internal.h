/* exstar runtime internals: error reporting and helpers shared by the drivers.
 * The runtime submits codelets and waits on data; it knows nothing of devices. */
#ifndef EXSTAR_RUNTIME_INTERNAL_H
#define EXSTAR_RUNTIME_INTERNAL_H
#include "include/exstar/exstar.h"
#include <functional>
#include <vector>

extern "C" {
/* Records status and message for exstar_last_error(); returns status. */
int exstar_set_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
}

namespace exstar_rt {

void clear_error();
/* exstar_init with StarPU started by `start` (StarPU-MPI's init) on the configuration exstar
 * would use; `start` returns starpu_init's kind of status. The caller stops StarPU. */
int init_with(const exstar_config *cfg, const std::function<int(struct starpu_conf *)> &start);
bool initialized();
/* EXSTAR_ERR_NOT_INIT with a message when exstar_init was not called. */
int require_init(const char *who);
/* Takes an error raised inside a codelet since the last call and records it. */
int take_codelet_error();
/* An EXSTAR_* switch of the environment: "0" or "1" forces it, anything else leaves `dflt`. */
bool env_switch(const char *name, bool dflt);
/* starpu_task_insert's return value as an exstar status. */
int submit_status(int ret, const char *who);
/* Where a task on handle h (and smaller ones) may run (STARPU_EXECUTE_WHERE): every kind of
 * worker, OpenCL workers only when h fits in one buffer of their devices (runtime/fits.cpp). */
unsigned where_for(starpu_data_handle_t h);
/* EXSTAR_ERR_NO_WORKER, naming h, when h fits no OpenCL buffer and no CPU or CUDA worker runs. */
int check_fits(const char *who, const char *name, starpu_data_handle_t h);
/* Whether Level-3 entries go through the exact path only (exstar_set_exact_only). */
int exact_only();
/* exstar_dtrsm's body; check_diag false: a zero diagonal gives the IEEE quotient (getrs). */
int trsm_blocking(const char *who, char side, char uplo, char transa, char diag, int64_t m, int64_t n, double alpha,
                  const double *T, int64_t ldt, double *B, int64_t ldb, bool check_diag);
/* Tasks per reduction when the caller gives nparts <= 0. */
int default_nparts();

/* Checks a BLAS vector argument (n, inc) and a pointer when n > 0. */
int check_vector(const char *who, const char *name, int64_t n, const void *x, int64_t inc);
/* Elements spanned by (n, inc): (n-1)*|inc| + 1, or 0. */
int64_t vector_span(int64_t n, int64_t inc);
/* Offset (BLAS convention) of the sub-vector of elements [begin, begin+len) of (n, off, inc). */
int64_t subvector_offset(int64_t n, int64_t off, int64_t inc, int64_t begin, int64_t len);

/* Registers an array of doubles (read-only use) or one double as StarPU data. */
starpu_data_handle_t register_vector(const double *x, int64_t nelems);
starpu_data_handle_t register_scalar(double *x);
/* A new zeroed array of count accumulators (count >= 1, checked by the caller) with the
 * reduction methods and exstar's accumulator mark (check_handles.h); *accs is NULL on error. */
int register_accs(const char *who, starpu_data_handle_t *accs, int64_t count);

/* The CUDA workers of each GPU, as StarPU worker bitmaps (STARPU_TASK_WORKERIDS), GPUs in the
 * order of their first worker (runtime/gpus.cpp). Owner-computes placement on several GPUs. */
std::vector<std::vector<uint32_t>> gpu_worker_masks();
/* The same, stored for the life of the process: for tasks that may run after the inserting call
 * returns (StarPU keeps the STARPU_TASK_WORKERIDS pointer, not a copy). */
const std::vector<std::vector<uint32_t>> &lasting_gpu_worker_masks();
/* The GPU grid of a gemm on several GPUs: pg x qg, as square as possible (tile (p, q) of C on
 * GPU (p mod pg)·qg + q mod qg); 0 x 0 with one GPU or none, or without the CUDA kernels (then
 * StarPU places every tile). */
void gemm_gpu_grid(size_t gpus, unsigned *pg, unsigned *qg);

} // namespace exstar_rt
#endif
