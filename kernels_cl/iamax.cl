/* exstar OpenCL: iamax. exstar_iamax_part: each work-group reduces its grid-stride share to
 * one (key, index) pair (core/iamax.h) in __local memory and writes it to part[2*group];
 * exstar_iamax_combine (one work-item) folds the parts into the state. Every step keeps the
 * winner of a strict total order, so the geometry never changes the result. */
#include "kernels_cl/iamax_cl.clh"
#include "core/strides.h"

#define EXSTAR_CL_IAMAX_WG 256

__kernel __attribute__((reqd_work_group_size(EXSTAR_CL_IAMAX_WG, 1, 1)))
void exstar_iamax_part(long n, __global const double *x, long offx, long incx, long base,
                       __global exstar_i64 *part)
{
  __local exstar_i64 lkey[EXSTAR_CL_IAMAX_WG], lidx[EXSTAR_CL_IAMAX_WG];
  long fx = exstar_first_index(n, offx, incx), stride = (long)get_global_size(0);
  exstar_i64 key = EXSTAR_IAMAX_EMPTY, idx = EXSTAR_IAMAX_EMPTY;
  for (long i = (long)get_global_id(0); i < n; i += stride) {
    exstar_i64 k = exstar_iamax_key(x[fx + i * incx]);
    if (exstar_iamax_beats(k, base + i, key, idx)) key = k, idx = base + i;
  }
  size_t lid = get_local_id(0);
  exstar_cl_iamax_group(lkey, lidx, EXSTAR_CL_IAMAX_WG, key, idx);
  if (lid == 0) {
    part[2 * get_group_id(0)] = lkey[0];
    part[2 * get_group_id(0) + 1] = lidx[0];
  }
}

/* One work-item: state[soff..] := winner of the state and the nparts pairs at part[poff..]
 * (also the redux: one part, the other state). */
__kernel void exstar_iamax_combine(__global const exstar_i64 *part, long poff, long nparts,
                                   __global exstar_i64 *state, long soff)
{
  if (get_global_id(0) != 0) return;
  exstar_i64 key = state[soff], idx = state[soff + 1];
  part += poff;
  for (long g = 0; g < nparts; ++g)
    if (exstar_iamax_beats(part[2 * g], part[2 * g + 1], key, idx)) key = part[2 * g], idx = part[2 * g + 1];
  state[soff] = key;
  state[soff + 1] = idx;
}

/* One work-item: the empty pair. */
__kernel void exstar_iamax_init(__global exstar_i64 *state, long soff)
{
  if (get_global_id(0) != 0) return;
  state[soff] = EXSTAR_IAMAX_EMPTY;
  state[soff + 1] = EXSTAR_IAMAX_EMPTY;
}

/* One work-item: out[ooff] := the state's index (int64), or ipiv[ooff] := index + base (int32). */
__kernel void exstar_iamax_index(__global const exstar_i64 *state, long soff, __global long *out, long ooff)
{
  if (get_global_id(0) == 0) out[ooff] = state[soff + 1];
}
__kernel void exstar_iamax_ipiv(__global const exstar_i64 *state, long soff, __global int *ipiv, long ooff,
                                long base)
{
  if (get_global_id(0) == 0) ipiv[ooff] = (int)(state[soff + 1] + base);
}
