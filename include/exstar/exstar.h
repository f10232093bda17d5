/** @file
 * exstar — exact, reproducible dense linear algebra on the StarPU task runtime.
 *
 * Every operation below is DEFINED as exact real arithmetic on the double inputs followed by
 * the rounding steps written next to it (RN = round to nearest, ties to even, with IEEE
 * subnormals and overflow to ±inf). Any back end (CPU, CUDA, OpenCL), any StarPU scheduler,
 * any number of workers or tasks computes those bits, so results are reproducible by
 * construction, and tests check them against MPFR.
 *
 * Special values, for every reduction: any NaN term gives NaN; +inf and -inf terms together
 * give NaN; 0·inf is NaN; otherwise an infinite term gives that infinity. An exact zero
 * result is +0, except when every term is -0 (then -0); an empty reduction gives +0. A
 * nonzero exact value that rounds to zero keeps its sign.
 *
 * Errors: every call returns EXSTAR_SUCCESS (0) or a negative exstar_status; the message of
 * the last error of the calling thread is exstar_last_error(). Arguments are checked before
 * any task is submitted. The library itself never aborts or exits; StarPU may, on misuse that
 * exstar cannot see (the limits below). The task-insertion calls
 * (exstar_*_insert) check every StarPU handle they take: its interface (vector, matrix or
 * variable, as documented), its element size (double, or int32 / int64 where said), that the
 * elements used (offset, stride, block) lie inside it, that an accumulator argument is one of
 * exstar's and that data arguments are not; a wrong handle gives EXSTAR_ERR_ARG with a message
 * "<function>: <argument> ...", and nothing is submitted.
 *
 * What is checked about the runtime, and what cannot be: a call before exstar_init, after
 * exstar_shutdown, or after the caller's own starpu_shutdown under a running exstar gives
 * EXSTAR_ERR_NOT_INIT (then call exstar_shutdown, which only resets exstar's state, before
 * exstar_init again). A StarPU handle is checked for what StarPU lets one read of it (above), not
 * for being alive: a handle used after starpu_data_unregister (or after the starpu_shutdown that
 * ended it), including an accumulator, a state or a descriptor whose tiles were unregistered
 * by the caller, is a dangling pointer; StarPU gives no cheap test of it and its assertions
 * then abort the process. Release exstar's handles and descriptors (exstar_acc_unregister,
 * exstar_desc_destroy, ...) before stopping StarPU, and never use a handle after unregistering it.
 *
 * Strides follow BLAS: a vector (n, x, incx) with incx < 0 is traversed backwards, element i
 * being x[(n-1-i)*|incx|]; incx == 0 is rejected. With handles, an offset (in elements, not a
 * sub-pointer) says where the vector starts inside the registered buffer. */
#ifndef EXSTAR_EXSTAR_H
#define EXSTAR_EXSTAR_H

#include <stdint.h>
#include <starpu.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EXSTAR_VERSION_MAJOR 0 /**< major version of this header (the library's SOVERSION) */
#define EXSTAR_VERSION_MINOR 2 /**< minor version of this header */
#define EXSTAR_VERSION_PATCH 0 /**< patch version of this header */

/* ---- status -------------------------------------------------------------------------------- */
/** Status codes returned by every call: 0 for success, negative otherwise. */
typedef enum exstar_status {
  EXSTAR_SUCCESS = 0,         /**< success */
  EXSTAR_ERR_ARG = -1,        /**< an argument is invalid (size, stride, lda, null pointer) */
  EXSTAR_ERR_NOT_INIT = -2,   /**< exstar_init was not called, or StarPU was stopped under it */
  EXSTAR_ERR_STARPU = -3,     /**< StarPU refused (init, registration, task submission) */
  EXSTAR_ERR_NO_WORKER = -4,  /**< a requested back end has no worker on this machine */
  EXSTAR_ERR_OPENCL = -5,     /**< OpenCL program load or build failed */
  EXSTAR_ERR_CUDA = -6,       /**< a CUDA call failed */
  EXSTAR_ERR_NOMEM = -7,      /**< allocation failed */
  EXSTAR_ERR_SINGULAR = -8,   /**< informational: a zero pivot / zero diagonal was met */
  EXSTAR_ERR_NONFINITE = -9,  /**< informational: a result holds NaN or ±inf (LU of such input) */
  EXSTAR_ERR_NOT_POSDEF = -10 /**< informational: potrf's exact test found the matrix not positive definite (info > 0) */
} exstar_status;

/** Message of the last failed call in this thread ("" when none). */
const char *exstar_last_error(void);
/** Short fixed name of a status code. */
const char *exstar_status_name(int status);

/* ---- memory -------------------------------------------------------------------------------- */
/** What this process may still allocate, in bytes, under each kind of limit (INT64_MAX where
 * there is none or it cannot be read). */
typedef struct exstar_memory_room {
  int64_t address_space; /**< RLIMIT_AS (ulimit -v) less the address space in use (VmSize) */
  int64_t data;          /**< RLIMIT_DATA (ulimit -d) less the private writable mappings (VmData) */
  int64_t ram;           /**< the smaller of MemAvailable (/proc/meminfo) and, for the memory
                              cgroup and each one above it, its limit less its usage (v2
                              memory.max / memory.current, v1 memory.limit_in_bytes /
                              memory.usage_in_bytes) */
} exstar_memory_room;
/** Fills *room (Linux; elsewhere every field is INT64_MAX). Needs no exstar_init. */
void exstar_memory_room_get(exstar_memory_room *room);
/** The smallest field of exstar_memory_room_get: about how many more bytes this process may
 * allocate and touch. The drivers compare what a call will allocate (the LU's GEMM-accumulate
 * states, 32 bytes an entry, L's column copies, device copies on an OpenCL device that lives
 * in host memory) with it before allocating anything or submitting a task, and return
 * EXSTAR_ERR_NOMEM ("... needs about X more; this process may use Y") when it does not fit:
 * StarPU allocates those buffers inside its worker threads, where a failure aborts the process
 * or waits for memory forever. A failed allocation in exstar's own code, or in a CPU task, is
 * EXSTAR_ERR_NOMEM too (the task's outputs are then unspecified). */
int64_t exstar_memory_available(void);

/* ---- initialisation ------------------------------------------------------------------------ */
/* Back ends, as a bit mask. */
#define EXSTAR_BACKEND_CPU 1u    /**< back-end bit: CPU workers */
#define EXSTAR_BACKEND_OPENCL 2u /**< back-end bit: OpenCL workers */
#define EXSTAR_BACKEND_CUDA 4u   /**< back-end bit: CUDA workers */
#define EXSTAR_BACKEND_ALL 7u    /**< every back end */

/** How exstar_init starts StarPU; fill it with exstar_config_default first. */
typedef struct exstar_config {
  unsigned backends; /**< which kinds of StarPU workers may run (default EXSTAR_BACKEND_ALL) */
  int ncpus;         /**< CPU workers, -1: StarPU's default (on a node with a CUDA device, one
                        core fewer: left to the application thread, see exstar_init) */
  int nopencl;       /**< OpenCL workers, -1: StarPU's default (CPU OpenCL devices such as PoCL
                        are used too: exstar sets STARPU_OPENCL_ON_CPUS=1 unless it is set) */
  int ncuda;         /**< CUDA workers, -1: StarPU's default */
  const char *sched; /**< StarPU scheduler name, NULL: StarPU's default. A non-empty STARPU_SCHED
                        wins over it (StarPU's rule: environment over configuration).
                        exstar_init fails with EXSTAR_ERR_ARG when this or a non-empty
                        STARPU_SCHED names no StarPU scheduler. */
  int require;       /**< nonzero: fail with EXSTAR_ERR_NO_WORKER when a requested back end
                        has no worker (the default for the CLI) */
} exstar_config;

/** Fills cfg with the defaults (every field "StarPU's default", all back ends, require 0). */
void exstar_config_default(exstar_config *cfg);

/** Starts StarPU with cfg (NULL: defaults) and loads exstar's OpenCL programs. If the caller
 * already started StarPU, cfg must be NULL and exstar only loads its programs; the caller
 * then also shuts StarPU down after exstar_shutdown. When exstar starts StarPU it sets, unless
 * they are set: STARPU_OPENCL_ON_CPUS=1, STARPU_MINIMUM_CLEAN_BUFFERS=0 and
 * STARPU_TARGET_CLEAN_BUFFERS=0 (no background copies of the factorizations' scratch states
 * from the GPUs to main memory), STARPU_NWORKER_PER_CUDA=4 (four workers, each with its own
 * stream, share each GPU: one tile's task does not fill an H100, so four run at once), and with
 * a CUDA device and ncpus -1 it leaves one core to the application thread (StarPU's
 * reserve_ncpus; STARPU_NCPU or STARPU_RESERVE_NCPU win). A worker count in STARPU_NCPU,
 * STARPU_NCPUS, STARPU_NCUDA, STARPU_NOPENCL or STARPU_NWORKER_PER_CUDA that is not an integer
 * >= -1 gives EXSTAR_ERR_ARG naming it (StarPU itself would abort). The OpenCL sources are embedded in the
 * library; the environment variable EXSTAR_OPENCL_PATH (a directory holding the installed
 * core/ and kernels_cl/ sources) overrides them. */
int exstar_init(const exstar_config *cfg);
/** Releases exstar's programs and, when exstar_init started StarPU, shuts StarPU down. */
int exstar_shutdown(void);
/** Number of StarPU workers of the given back ends (a bit mask). */
int exstar_worker_count(unsigned backends);

/* ---- exact accumulators as StarPU data ------------------------------------------------------ */
/** Registers a new zero exact accumulator as StarPU data.
 *
 * An exact accumulator holds a real number exactly (a long fixed-point number with carry
 * headroom, plus counters of special values). It is registered as StarPU data with
 * reduction methods, so tasks may add into it in STARPU_REDUX mode from any worker: merges
 * are integer additions, exact and order-free. Rounding it is the only rounding. */
/** New zero accumulator. exstar marks it as its own in the handle's user data
 * (starpu_data_set_user_data): leave that unset, or the insert calls reject the handle. */
int exstar_acc_register(starpu_data_handle_t *acc);
/** Submits the task result := RN(acc); acc is one accumulator (exstar_acc_register, or
 * exstar_accs_register with count 1), result a StarPU variable handle of one double.
 * Rounding reads the accumulator and leaves it as it was: later insertions keep adding to the
 * same exact sum, and a later rounding rounds the whole of it. To start a new sum on the same
 * handle, exstar_acc_zero_insert. */
int exstar_acc_round_insert(starpu_data_handle_t acc, starpu_data_handle_t result);
/** Submits the task acc := 0 (every accumulator of an exstar_accs_register array, or the one of
 * exstar_acc_register): the handle then holds a new, empty exact sum (+0; no special values
 * seen). It is an ordinary STARPU_W task, ordered after every task already submitted on acc
 * (a rounding included) by StarPU's data dependencies. */
int exstar_acc_zero_insert(starpu_data_handle_t acc);
/** Submits the task result := RN(sqrt(acc)), the correctly rounded square root of the exact
 * value held in acc (one accumulator; result a variable handle of one double). IEEE sqrt's
 * special values: NaN for a NaN term or a negative value (or -inf), +inf for +inf, ±0 for a
 * zero as exstar_acc_round_insert gives it. Like the rounding, it leaves acc as it was. */
int exstar_acc_round_sqrt_insert(starpu_data_handle_t acc, starpu_data_handle_t result);
/** Unregisters an accumulator from exstar_acc_register (waits for its tasks). */
void exstar_acc_unregister(starpu_data_handle_t acc);

/* ---- Level 1: reductions ------------------------------------------------------------------- */

/** sum: *result := RN(Σ_{i<n} x_i). */
int exstar_dsum(int64_t n, const double *x, int64_t incx, double *result);
/** dot: *result := RN(Σ_{i<n} x_i · y_i), each product exact (no intermediate rounding). */
int exstar_ddot(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy,
                double *result);

/** nrm2: *result := RN(sqrt(Σ_{i<n} x_i²)): the square root of the exact sum of the exact
 * squares, correctly rounded (one rounding). No square overflows or underflows (entries of
 * 1e300, 1e-300 or subnormals give their exact norm); the result is +inf only when the exact
 * norm lies beyond the double range. Special values: a NaN entry gives NaN (ahead of inf),
 * else an infinite entry gives +inf; n == 0 gives +0. Strides as exstar_ddot (the norm does
 * not depend on the order). */
int exstar_dnrm2(int64_t n, const double *x, int64_t incx, double *result);

/** Task insertion of sum and dot into the caller's graph.
 *
 * x and y are StarPU vector handles of doubles; the
 * vector starts at element offx and has stride incx within it. The exact value is ADDED to
 * acc (mode STARPU_REDUX), so several calls into one accumulator make one longer reduction;
 * round it with exstar_acc_round_insert (acc: one accumulator, as there). nparts > 1 splits the range into that many tasks
 * (0: one task per worker). */
///@{
int exstar_dsum_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx,
                       starpu_data_handle_t acc, int nparts);
int exstar_ddot_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx,
                       starpu_data_handle_t y, int64_t offy, int64_t incy,
                       starpu_data_handle_t acc, int nparts);
///@}

/** Task insertion of nrm2: ADDS Σ x_i² (exact) to acc, as exstar_ddot_insert(n, x, offx, incx,
 * x, offx, incx, acc, nparts) does; then exstar_acc_round_sqrt_insert(acc, result) gives
 * RN(sqrt(acc)), exstar_dnrm2's result. */
int exstar_dnrm2_insert(int64_t n, starpu_data_handle_t x, int64_t offx, int64_t incx, starpu_data_handle_t acc,
                        int nparts);

/** How the blocking calls split their work (0: one task per worker, the default). Changing it
 * never changes a result; tests use it to prove that. */
void exstar_set_default_nparts(int nparts);

/* ---- codelets, for users' own graphs --------------------------------------------------------- */
/** Argument block of exstar_sum_cl and exstar_dot_cl.
 *
 * Argument blocks are passed as one STARPU_VALUE (starpu_task_insert(..., STARPU_VALUE, &args,
 * sizeof args, ...)) to the codelets below. */
struct exstar_reduce_args {
  int64_t n;          /**< elements */
  int64_t offx;       /**< first element in buffer 0 */
  int64_t incx;       /**< stride in buffer 0 */
  int64_t offy;       /**< first element in buffer 1 (dot only) */
  int64_t incy;       /**< stride in buffer 1 (dot only) */
};
extern struct starpu_codelet exstar_sum_cl;       /**< R x, REDUX acc */
extern struct starpu_codelet exstar_dot_cl;       /**< R x, R y, REDUX acc */
extern struct starpu_codelet exstar_acc_init_cl;  /**< W acc: zero */
extern struct starpu_codelet exstar_acc_redux_cl; /**< RW dst, R src: dst += src */
extern struct starpu_codelet exstar_acc_round_cl; /**< R acc, W result (variable double) */
extern struct starpu_codelet exstar_acc_round_sqrt_cl; /**< R acc, W result: RN(sqrt(acc)), see exstar_dnrm2 */

#ifdef __cplusplus
}
#endif

#include <exstar/level1.h>
#include <exstar/level2.h>
#include <exstar/level3.h>
#include <exstar/lapack.h>
#include <exstar/tiles.h>

#endif /* EXSTAR_EXSTAR_H */
