/* exstar OpenCL kernels: host launchers on a caller's queue, no StarPU inside.
 *
 * The OpenCL C sources (kernels_cl/\*.cl and core/) form ONE program; exstar_cl_source()
 * gives it with the core headers inlined, and exstar_cl_build_options() the only build
 * options allowed (no relaxed math, no mad). Launchers take kernels created from that
 * program (by name, see each function) and cl_mem buffers with element offsets. Same
 * contract as kernels_cpu.h: acc is EXSTAR_ACC_WORDS 64-bit words; kernels ADD into it and
 * leave it normalized. Launchers enqueue asynchronously and return CL_SUCCESS or the
 * OpenCL error code. The queue must be in-order (sum/dot enqueue two kernels that rely on
 * it), and a cl_kernel must not be used by two threads at once (launchers set its args). */
#ifndef EXSTAR_KERNELS_CL_H
#define EXSTAR_KERNELS_CL_H
#include <stdint.h>
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The complete program source. dir == NULL: the sources embedded at build time; otherwise
 * the directory holding core/ and kernels_cl/ as installed (share/exstar/opencl). Returns a
 * malloc'ed string (free it) or NULL with *err set to a message. */
char *exstar_cl_source(const char *dir, const char **err);
const char *exstar_cl_build_options(void);

/* A launcher's kernels; acc_zero: "exstar_acc_zero", etc. (name prefixed by "exstar_"). */
/* Arrays of `count` consecutive accumulators (count 1 for sum and dot). */
cl_int exstar_cl_acc_zero(cl_command_queue q, cl_kernel k_zero, cl_mem acc, cl_ulong acc_off,
                          cl_ulong count);
cl_int exstar_cl_acc_merge(cl_command_queue q, cl_kernel k_merge, cl_mem dst, cl_ulong dst_off,
                           cl_mem src, cl_ulong src_off, cl_ulong count);
cl_int exstar_cl_acc_round(cl_command_queue q, cl_kernel k_round, cl_mem acc, cl_ulong acc_off,
                           cl_mem result, cl_ulong result_off);
/* The same kernel signature: result := RN(sqrt(acc)) (kernel "exstar_acc_round_sqrt"). */
cl_int exstar_cl_acc_round_sqrt(cl_command_queue q, cl_kernel k_round_sqrt, cl_mem acc, cl_ulong acc_off,
                           cl_mem result, cl_ulong result_off);
/* k_sum: "exstar_sum"; k_norm: "exstar_acc_normalize" (args: acc, word offset). Vector offsets in doubles, accumulator
 * offsets (acc_off, dst_off, src_off) in 64-bit words, result_off in doubles. */
cl_int exstar_cl_sum(cl_command_queue q, cl_kernel k_sum, cl_kernel k_norm, int64_t n,
                     cl_mem x, int64_t offx, int64_t incx, cl_mem acc, cl_ulong acc_off);
cl_int exstar_cl_dot(cl_command_queue q, cl_kernel k_dot, cl_kernel k_norm, int64_t n,
                     cl_mem x, int64_t offx, int64_t incx, cl_mem y, int64_t offy, int64_t incy,
                     cl_mem acc, cl_ulong acc_off);

#ifdef __cplusplus
}
#endif
#endif
