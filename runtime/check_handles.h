/* exstar runtime: the checks of the StarPU handles given to the public *_insert calls.
 *
 * Why one place: StarPU trusts a handle's shape. starpu_vector_get_nx() on a variable handle
 * reads another interface's bytes, a codelet given a vector of float reads twice its length,
 * and a handle without exstar's reduction methods given in STARPU_REDUX mode makes StarPU
 * abort the process. So every insert call checks every handle it takes, here, before it
 * submits anything, and new insert calls (gemm, trsm, ...) call the same functions:
 *
 *   if (int s = exstar_rt::check_matrix_handle(who, "A", A, ia, ja, m, k)) return s;
 *   if (int s = exstar_rt::check_vector_handle(who, "x", x, n, offx, incx)) return s;
 *   if (int s = exstar_rt::check_acc_handle(who, "acc", acc)) return s;
 *
 * who is the public function's name and name the parameter's name as the header spells it.
 * Each check returns EXSTAR_SUCCESS, or EXSTAR_ERR_ARG with a message that starts with
 * "<who>: <name> " (so the message names the argument; tests rely on that prefix), in this
 * order: NULL, interface (vector / matrix / variable), an exstar accumulator where data is
 * expected (accumulators are vectors of 8-byte words, as doubles are, so only their mark tells
 * them apart), element size, then the extent (offset, stride and length inside the handle).
 *
 * Accumulators are recognised by a mark that exstar puts in the handle's user data
 * (starpu_data_set_user_data) when it registers them (mark_accumulators, called by
 * exstar_acc_register and exstar_accs_register). A mark in the handle, rather than a set of
 * handle pointers, cannot go stale: StarPU frees a handle at unregistration (often
 * asynchronously, starpu_data_unregister_submit, which exstar never sees) and may give the
 * same address to the next handle registered, which starts with no user data. */
#ifndef EXSTAR_RUNTIME_CHECK_HANDLES_H
#define EXSTAR_RUNTIME_CHECK_HANDLES_H
#include "include/exstar/exstar.h"
#include <cstddef>

namespace exstar_rt {

/* (n, off, inc) inside the vector handle h of elements of elemsize bytes: off >= 0, inc != 0,
 * n >= 0 and off + (n-1)·|inc| < nx (off <= nx when n == 0). An exstar accumulator is not a
 * vector of data. */
int check_vector_handle(const char *who, const char *name, starpu_data_handle_t h, int64_t n, int64_t off,
                        int64_t inc, size_t elemsize = sizeof(double));

/* The block of m x n elements at (i0, j0) inside the matrix handle h of doubles: i0, j0, m, n
 * >= 0, i0 + m <= nx, j0 + n <= ny; and, when h has its buffer in main memory, ld >= nx there
 * (StarPU accepts a smaller ld at registration; the columns would then overlap). */
int check_matrix_handle(const char *who, const char *name, starpu_data_handle_t h, int64_t i0, int64_t j0,
                        int64_t m, int64_t n);

/* A variable handle of elemsize bytes (a result or an index written by a task). */
int check_variable_handle(const char *who, const char *name, starpu_data_handle_t h, size_t elemsize);

/* One exact accumulator of exstar's (exstar_acc_register, or exstar_accs_register with
 * count 1), with its reduction methods: what STARPU_REDUX needs. */
int check_acc_handle(const char *who, const char *name, starpu_data_handle_t h);

/* A handle that may be a matrix or a vector of doubles (a vector is one column of nx rows),
 * seen as rows x cols with the leading dimension of its main-memory buffer (rows when it has
 * none yet: StarPU allocates it so). Checks as above (interface, mark, element size, ld). */
struct dense_shape {
  int64_t rows, cols, ld;
};
int check_dense_handle(const char *who, const char *name, starpu_data_handle_t h, dense_shape *shape);

/* Marks h, a vector of count * EXSTAR_ACC_WORDS words with exstar's reduction methods, as an
 * array of accumulators. The mark lives in the handle's user data: exstar's handles only. */
void mark_accumulators(starpu_data_handle_t h);
bool is_accumulator(starpu_data_handle_t h);

} // namespace exstar_rt
#endif
