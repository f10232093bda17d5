/* exstar core: the few differences between C++, CUDA and OpenCL C, mapped once.
 *
 * Everything in core/ is written in the common subset of C++17, CUDA C++ and OpenCL C 1.2:
 * no references, templates, namespaces or standard headers in the shared code; only the
 * qualifiers and intrinsics below differ between the three compilers.
 * Floating-point contraction is forbidden everywhere: a contracted a*b+c is not the
 * two roundings the error-free transformations rely on. */
#ifndef EXSTAR_CORE_PORTABLE_H
#define EXSTAR_CORE_PORTABLE_H

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
/* ---------------------------------------------------------------- OpenCL C */
#define EXSTAR_OPENCL 1
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL FP_CONTRACT OFF
typedef long exstar_i64;
typedef ulong exstar_u64;
#define EXSTAR_FN static inline
#define EXSTAR_CONST __constant
#define EXSTAR_U64(c) c##UL
static inline exstar_u64 exstar_bits(double x) { return as_ulong(x); }
static inline double exstar_from_bits(exstar_u64 u) { return as_double(u); }
static inline int exstar_clz64(exstar_u64 u) { return (int)clz(u); }
static inline exstar_u64 exstar_mulhi64(exstar_u64 a, exstar_u64 b) { return mul_hi(a, b); }

#elif defined(__CUDACC__)
/* ---------------------------------------------------------------- CUDA */
#define EXSTAR_CUDA 1
typedef long long exstar_i64;
typedef unsigned long long exstar_u64;
#define EXSTAR_FN static __host__ __device__ __forceinline__
#define EXSTAR_CONST
#define EXSTAR_U64(c) c##ULL
#ifdef __CUDA_ARCH__
EXSTAR_FN exstar_u64 exstar_bits(double x) { return (exstar_u64)__double_as_longlong(x); }
EXSTAR_FN double exstar_from_bits(exstar_u64 u) { return __longlong_as_double((long long)u); }
EXSTAR_FN int exstar_clz64(exstar_u64 u) { return __clzll((long long)u); }
EXSTAR_FN exstar_u64 exstar_mulhi64(exstar_u64 a, exstar_u64 b) { return __umul64hi(a, b); }
#else
#include <string.h>
EXSTAR_FN exstar_u64 exstar_bits(double x) { exstar_u64 u; memcpy(&u, &x, 8); return u; }
EXSTAR_FN double exstar_from_bits(exstar_u64 u) { double x; memcpy(&x, &u, 8); return x; }
EXSTAR_FN int exstar_clz64(exstar_u64 u) { return __builtin_clzll(u); }
EXSTAR_FN exstar_u64 exstar_mulhi64(exstar_u64 a, exstar_u64 b)
{ return (exstar_u64)(((unsigned __int128)a * b) >> 64); }
#endif

#else
/* ---------------------------------------------------------------- C++ (CPU) */
#define EXSTAR_CPU 1
#include <math.h>
#include <string.h>
typedef long long exstar_i64;
typedef unsigned long long exstar_u64;
#define EXSTAR_FN static inline
#define EXSTAR_CONST
#define EXSTAR_U64(c) c##ULL
EXSTAR_FN exstar_u64 exstar_bits(double x) { exstar_u64 u; memcpy(&u, &x, 8); return u; }
EXSTAR_FN double exstar_from_bits(exstar_u64 u) { double x; memcpy(&x, &u, 8); return x; }
EXSTAR_FN int exstar_clz64(exstar_u64 u) { return __builtin_clzll(u); }
EXSTAR_FN exstar_u64 exstar_mulhi64(exstar_u64 a, exstar_u64 b)
{ return (exstar_u64)(((unsigned __int128)a * b) >> 64); }
#endif

#endif /* EXSTAR_CORE_PORTABLE_H */
