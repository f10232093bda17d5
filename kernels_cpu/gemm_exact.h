// The exact repair path of the CPU Level-3 kernels: gemv's term steps and gemm.inc instantiated
// for a CPU thread's private accumulator (suffix _cpu). Internal to kernels_cpu (gemm, trsm).
#ifndef EXSTAR_KERNELS_CPU_GEMM_EXACT_H
#define EXSTAR_KERNELS_CPU_GEMM_EXACT_H
#include "kernels_cpu/acc_cpu.h"
#include "core/checked_round.h"
#include "core/gemm.h"
#include "core/gemv.h"

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _cpu
#include "core/gemv.inc"
#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _cpu
#define EXSTAR_GEMM_DPTR const double *
#include "core/gemm.inc"

#endif
