/* The core accumulator operations for one CPU thread (plain additions). */
#ifndef EXSTAR_KERNELS_CPU_ACC_CPU_H
#define EXSTAR_KERNELS_CPU_ACC_CPU_H
#include "core/accumulator.h"
#include "core/strides.h"

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _cpu
#include "core/acc_ops.inc"

/* Lanes of independent FPEs a CPU kernel interleaves: they hide the latency of the TwoSum
 * chains. Any lane count gives the same bits (the accumulator is exact). */
#define EXSTAR_CPU_LANES 32

#endif
