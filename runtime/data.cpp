// Registration helpers and BLAS vector arithmetic of the drivers.
#include "runtime/internal.h"

namespace exstar_rt {

int64_t vector_span(int64_t n, int64_t inc)
{
  return n > 0 ? (n - 1) * (inc < 0 ? -inc : inc) + 1 : 0;
}

int64_t subvector_offset(int64_t n, int64_t off, int64_t inc, int64_t begin, int64_t len)
{
  // Element i of (n, off, inc) is at first + i*inc (first: element 0, see core/strides.h).
  // The sub-vector's element 0 is at first + begin*inc; with inc < 0 its BLAS offset is
  // the position of its LAST element.
  int64_t first = inc < 0 ? off + (n - 1) * (-inc) : off;
  int64_t sub_first = first + begin * inc;
  return inc < 0 ? sub_first + (len - 1) * inc : sub_first;
}

starpu_data_handle_t register_vector(const double *x, int64_t nelems)
{
  starpu_data_handle_t h;
  starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)x, (uint32_t)nelems, sizeof(double));
  return h;
}

starpu_data_handle_t register_scalar(double *x)
{
  starpu_data_handle_t h;
  starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)x, sizeof(double));
  return h;
}

} // namespace exstar_rt
