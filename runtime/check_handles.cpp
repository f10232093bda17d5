// The checks of the handles given to the *_insert calls (see check_handles.h for why and how).
#include "runtime/check_handles.h"
#include "runtime/internal.h"
#include "core/accumulator.h"

namespace exstar_rt {

namespace {

// The mark of exstar's accumulator handles: the address of this object, in the handle's user
// data. Its value is never read; only its address, unique to the library, matters.
char acc_mark;

const char *interface_name(enum starpu_data_interface_id id)
{
  switch (id) {
  case STARPU_MATRIX_INTERFACE_ID: return "matrix";
  case STARPU_BLOCK_INTERFACE_ID: return "block";
  case STARPU_VECTOR_INTERFACE_ID: return "vector";
  case STARPU_CSR_INTERFACE_ID: return "CSR";
  case STARPU_BCSR_INTERFACE_ID: return "BCSR";
  case STARPU_VARIABLE_INTERFACE_ID: return "variable";
  case STARPU_VOID_INTERFACE_ID: return "void";
  case STARPU_MULTIFORMAT_INTERFACE_ID: return "multiformat";
  case STARPU_COO_INTERFACE_ID: return "COO";
  default: return "user-defined";
  }
}

// NULL, an accumulator where data is expected, then the interface: the checks every data
// argument starts with. want is the interface expected.
int check_data_kind(const char *who, const char *name, starpu_data_handle_t h, enum starpu_data_interface_id want)
{
  if (!h) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is NULL", who, name);
  if (is_accumulator(h))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is an exstar accumulator, not a %s of data", who, name,
                            interface_name(want));
  const enum starpu_data_interface_id id = starpu_data_get_interface_id(h);
  if (id != want)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is a %s handle, not a %s handle", who, name, interface_name(id),
                            interface_name(want));
  return EXSTAR_SUCCESS;
}

int check_elemsize(const char *who, const char *name, size_t have, size_t want)
{
  if (have != want)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s has elements of %zu bytes, not %zu", who, name, have, want);
  return EXSTAR_SUCCESS;
}

// ld of h's buffer in main memory. Only a handle that has that buffer has one: StarPU gives
// a handle registered without a home buffer ld = nx wherever it allocates it. (StarPU sets a
// replicate's interface before flagging it allocated, so a concurrent allocation reads as
// "not yet".)
int64_t main_ram_ld(starpu_data_handle_t h, int64_t nx)
{
  if (!starpu_data_test_if_allocated_on_node(h, STARPU_MAIN_RAM)) return nx;
  const auto *mi = (const struct starpu_matrix_interface *)starpu_data_get_interface_on_node(h, STARPU_MAIN_RAM);
  return (int64_t)mi->ld;
}

int check_ld(const char *who, const char *name, int64_t ld, int64_t nx)
{
  if (ld < nx)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s has ld = %lld < nx = %lld in main memory (overlapping columns)",
                            who, name, (long long)ld, (long long)nx);
  return EXSTAR_SUCCESS;
}

} // namespace

void mark_accumulators(starpu_data_handle_t h) { starpu_data_set_user_data(h, &acc_mark); }

bool is_accumulator(starpu_data_handle_t h) { return h && starpu_data_get_user_data(h) == &acc_mark; }

int check_vector_handle(const char *who, const char *name, starpu_data_handle_t h, int64_t n, int64_t off,
                        int64_t inc, size_t elemsize)
{
  if (int s = check_data_kind(who, name, h, STARPU_VECTOR_INTERFACE_ID)) return s;
  if (int s = check_elemsize(who, name, starpu_vector_get_elemsize(h), elemsize)) return s;
  if (n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s length n = %lld < 0", who, name, (long long)n);
  if (off < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s offset %lld < 0", who, name, (long long)off);
  if (inc == 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s stride is 0", who, name);
  // The last element is at off + (n-1)·|inc|; in 128 bits, so no product of int64 overflows.
  const __int128 absinc = inc < 0 ? -(__int128)inc : (__int128)inc;
  const __int128 end = n == 0 ? (__int128)off : (__int128)off + (__int128)(n - 1) * absinc + 1;
  const int64_t nx = (int64_t)starpu_vector_get_nx(h);
  if (end > nx)
    return exstar_set_error(EXSTAR_ERR_ARG,
                            "%s: %s holds %lld elements, too few for n = %lld from offset %lld with stride %lld", who,
                            name, (long long)nx, (long long)n, (long long)off, (long long)inc);
  return EXSTAR_SUCCESS;
}

int check_matrix_handle(const char *who, const char *name, starpu_data_handle_t h, int64_t i0, int64_t j0,
                        int64_t m, int64_t n)
{
  if (int s = check_data_kind(who, name, h, STARPU_MATRIX_INTERFACE_ID)) return s;
  if (int s = check_elemsize(who, name, starpu_matrix_get_elemsize(h), sizeof(double))) return s;
  const int64_t nx = (int64_t)starpu_matrix_get_nx(h), ny = (int64_t)starpu_matrix_get_ny(h);
  if (int s = check_ld(who, name, main_ram_ld(h, nx), nx)) return s;
  if (i0 < 0 || j0 < 0)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s block offset (%lld, %lld) < 0", who, name, (long long)i0,
                            (long long)j0);
  if (m < 0 || n < 0)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s block size %lld x %lld < 0", who, name, (long long)m, (long long)n);
  // Written as differences: i0 + m cannot overflow then.
  if (i0 > nx || m > nx - i0 || j0 > ny || n > ny - j0)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is %lld x %lld, too small for the %lld x %lld block at (%lld, %lld)",
                            who, name, (long long)nx, (long long)ny, (long long)m, (long long)n, (long long)i0,
                            (long long)j0);
  return EXSTAR_SUCCESS;
}

int check_variable_handle(const char *who, const char *name, starpu_data_handle_t h, size_t elemsize)
{
  if (int s = check_data_kind(who, name, h, STARPU_VARIABLE_INTERFACE_ID)) return s;
  return check_elemsize(who, name, starpu_variable_get_elemsize(h), elemsize);
}

int check_acc_handle(const char *who, const char *name, starpu_data_handle_t h)
{
  if (!h) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is NULL", who, name);
  if (!is_accumulator(h))
    return exstar_set_error(EXSTAR_ERR_ARG,
                            "%s: %s is not an exstar accumulator (register it with exstar_acc_register: STARPU_REDUX "
                            "needs its reduction methods)",
                            who, name);
  const int64_t words = (int64_t)starpu_vector_get_nx(h);
  if (words != EXSTAR_ACC_WORDS)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is an array of %lld accumulators, not one", who, name,
                            (long long)(words / EXSTAR_ACC_WORDS));
  return EXSTAR_SUCCESS;
}

int check_dense_handle(const char *who, const char *name, starpu_data_handle_t h, dense_shape *shape)
{
  if (!h) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is NULL", who, name);
  if (is_accumulator(h))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is an exstar accumulator, not a matrix or vector of data", who,
                            name);
  const enum starpu_data_interface_id id = starpu_data_get_interface_id(h);
  if (id == STARPU_VECTOR_INTERFACE_ID) {
    if (int s = check_elemsize(who, name, starpu_vector_get_elemsize(h), sizeof(double))) return s;
    shape->rows = shape->ld = (int64_t)starpu_vector_get_nx(h);
    shape->cols = 1;
    return EXSTAR_SUCCESS;
  }
  if (id == STARPU_MATRIX_INTERFACE_ID) {
    if (int s = check_elemsize(who, name, starpu_matrix_get_elemsize(h), sizeof(double))) return s;
    shape->rows = (int64_t)starpu_matrix_get_nx(h);
    shape->cols = (int64_t)starpu_matrix_get_ny(h);
    shape->ld = main_ram_ld(h, shape->rows);
    return check_ld(who, name, shape->ld, shape->rows);
  }
  return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is a %s handle, not a matrix or vector handle", who, name,
                          interface_name(id));
}

} // namespace exstar_rt
