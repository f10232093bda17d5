// Descriptors of tiled matrices (include/exstar/tiles.h) and the tiled exact LU submitted on them:
// the graph of runtime/getrf_tiled_graph.h on the caller's tiles or on tiles over the caller's
// array, the pivots registered over the caller's ipiv at insertion.
#include "runtime/internal.h"
#include "runtime/check_handles.h"
#include "runtime/getrf_tiled.h"
#include <cstdio>
#include <new>
#include <vector>

struct exstar_desc_s {
  exstar_rt::tiled_desc d;
  bool lu_inserted = false; // exstar_dgetrf_desc_insert submitted a factorization here
};

namespace {

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int check_shape(const char *who, exstar_desc *desc, int64_t m, int64_t n, int64_t nb)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (!desc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: desc is NULL", who);
  *desc = nullptr;
  if (m < 0 || n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0", who);
  if (nb < 1) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nb < 1", who);
  if (m > UINT32_MAX || n > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: dimensions beyond 2^32 are not supported", who);
  return EXSTAR_SUCCESS;
}

exstar_desc new_desc(int64_t m, int64_t n, int64_t nb)
{
  exstar_desc x = new (std::nothrow) exstar_desc_s;
  if (!x) return nullptr;
  exstar_rt::tiled_desc &d = x->d;
  d.m = m, d.n = n, d.nb = nb;
  d.mt = ceil_div(m, nb), d.nt = ceil_div(n, nb), d.kt = ceil_div(min64(m, n), nb);
  d.tiles.assign((size_t)(d.mt * d.nt), nullptr);
  d.states.assign((size_t)d.nt, nullptr);
  return x;
}

int64_t rows_of(const exstar_rt::tiled_desc &d, int64_t I) { return min64(d.nb, d.m - I * d.nb); }
int64_t cols_of(const exstar_rt::tiled_desc &d, int64_t J) { return min64(d.nb, d.n - J * d.nb); }

int add_states(const char *who, exstar_desc x)
{
  exstar_rt::tiled_desc &d = x->d;
  for (int64_t J = 0; J < d.nt; ++J)
    if (int s = exstar_state_register(&d.state(J), d.m, cols_of(d, J))) {
      exstar_desc_destroy(x);
      return exstar_set_error(s, "%s: %s", who, exstar_last_error());
    }
  return EXSTAR_SUCCESS;
}

} // namespace

int exstar_desc_create(exstar_desc *desc, int64_t m, int64_t n, int64_t nb, double *A, int64_t lda)
{
  const char *who = "exstar_desc_create";
  exstar_rt::clear_error();
  if (int s = check_shape(who, desc, m, n, nb)) return s;
  if (lda < (m > 1 ? m : 1) || (uint64_t)lda > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: lda = %lld < max(1, m) or beyond 2^32", who, (long long)lda);
  if (m > 0 && n > 0 && !A) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A is NULL", who);
  exstar_desc x = new_desc(m, n, nb);
  if (!x) return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
  exstar_rt::tiled_desc &d = x->d;
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I)
      starpu_matrix_data_register(&d.tile(I, J), STARPU_MAIN_RAM, (uintptr_t)(A + I * nb + J * nb * lda),
                                  (uint32_t)lda, (uint32_t)rows_of(d, I), (uint32_t)cols_of(d, J), sizeof(double));
  if (int s = add_states(who, x)) return s;
  *desc = x;
  return EXSTAR_SUCCESS;
}

int exstar_desc_create_tiles(exstar_desc *desc, int64_t m, int64_t n, int64_t nb, const starpu_data_handle_t *tiles)
{
  const char *who = "exstar_desc_create_tiles";
  exstar_rt::clear_error();
  if (int s = check_shape(who, desc, m, n, nb)) return s;
  if (m > 0 && n > 0 && !tiles) return exstar_set_error(EXSTAR_ERR_ARG, "%s: tiles is NULL", who);
  exstar_desc x = new_desc(m, n, nb);
  if (!x) return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
  exstar_rt::tiled_desc &d = x->d;
  d.own_tiles = false;
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) {
      starpu_data_handle_t h = tiles[I + J * d.mt];
      char name[160]; // four int64 at most 20 characters each, and the text
      std::snprintf(name, sizeof name, "tiles[%lld + %lld*mt] (tile (%lld, %lld))", (long long)I, (long long)J,
                    (long long)I, (long long)J);
      // exactly the tile's shape: a bigger handle would silently be read as a smaller one
      int s = exstar_rt::check_matrix_handle(who, name, h, 0, 0, 0, 0);
      if (s == EXSTAR_SUCCESS && ((int64_t)starpu_matrix_get_nx(h) != rows_of(d, I) ||
                                  (int64_t)starpu_matrix_get_ny(h) != cols_of(d, J)))
        s = exstar_set_error(EXSTAR_ERR_ARG, "%s: tile (%lld, %lld) is %u x %u, expected %lld x %lld", who,
                             (long long)I, (long long)J, starpu_matrix_get_nx(h), starpu_matrix_get_ny(h),
                             (long long)rows_of(d, I), (long long)cols_of(d, J));
      if (s != EXSTAR_SUCCESS) {
        exstar_desc_destroy(x);
        return s;
      }
      d.tile(I, J) = h;
    }
  if (int s = add_states(who, x)) return s;
  *desc = x;
  return EXSTAR_SUCCESS;
}

starpu_data_handle_t exstar_desc_tile(exstar_desc desc, int64_t I, int64_t J)
{
  if (!desc || I < 0 || J < 0 || I >= desc->d.mt || J >= desc->d.nt) return nullptr;
  return desc->d.tile(I, J);
}

int64_t exstar_desc_mt(exstar_desc desc) { return desc ? desc->d.mt : 0; }
int64_t exstar_desc_nt(exstar_desc desc) { return desc ? desc->d.nt : 0; }

int exstar_desc_destroy(exstar_desc desc)
{
  if (!desc) return EXSTAR_SUCCESS;
  desc->d.destroy();
  delete desc;
  return EXSTAR_SUCCESS;
}

int exstar_dgetrf_desc_insert(exstar_desc desc, int32_t *ipiv)
{
  const char *who = "exstar_dgetrf_desc_insert";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (!desc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: desc is NULL", who);
  exstar_rt::tiled_desc &d = desc->d;
  if (d.kt == 0) return desc->lu_inserted = true, EXSTAR_SUCCESS;
  if (!ipiv) return exstar_set_error(EXSTAR_ERR_ARG, "%s: ipiv is NULL", who);
  if (!exstar_rt::tiled_lu_runs())
    return exstar_set_error(EXSTAR_ERR_NO_WORKER, "%s: the panels and U rows need a CPU worker, or a CUDA worker "
                            "where the build has their CUDA kernels", who);
  // pivots of an earlier factorization on this descriptor go home first
  for (starpu_data_handle_t &h : d.pivots)
    if (h) starpu_data_unregister_submit(h), h = nullptr;
  d.pivots.assign((size_t)d.kt, nullptr);
  for (int64_t K = 0; K < d.kt; ++K)
    starpu_vector_data_register(&d.pivots[(size_t)K], STARPU_MAIN_RAM, (uintptr_t)(ipiv + K * d.nb),
                                (uint32_t)min64(d.nb, min64(d.m, d.n) - K * d.nb), sizeof(int32_t));
  // and its status is a new one
  d.drop_checks();
  if (int s = d.add_checks()) return s;
  d.panel_where = exstar_rt::panel_where();
  d.add_copies(); // L's column copies: scratch of this factorization
  d.place_on_gpus(false);
  desc->lu_inserted = true; // even when an insertion fails half way: its tasks, if any, have a status
  return exstar_rt::getrf_tiled_insert(who, d, exstar_rt::exact_only());
}

int exstar_dgetrf_desc_info(exstar_desc desc, int64_t *info)
{
  const char *who = "exstar_dgetrf_desc_info";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (!desc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: desc is NULL", who);
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  if (!desc->lu_inserted)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: no LU was inserted on this descriptor (exstar_dgetrf_desc_insert)",
                            who);
  const exstar_rt::tiled_desc &d = desc->d;
  for (starpu_data_handle_t h : d.pivots)
    if (h) starpu_data_acquire(h, STARPU_R), starpu_data_release(h);
  // the status tasks' findings (computed where the tiles are: the factors stay there)
  *info = 0;
  bool nonfinite = false;
  if (d.status) d.check_status(info, &nonfinite);
  if (int s = exstar_rt::take_codelet_error()) return s;
  if (nonfinite) return exstar_set_error(EXSTAR_ERR_NONFINITE, "%s: the factors hold NaN or inf (info = %lld)", who,
                                         (long long)*info);
  if (*info > 0)
    return exstar_set_error(EXSTAR_ERR_SINGULAR, "%s: u(%lld,%lld) is zero (info = %lld)", who,
                            (long long)(*info - 1), (long long)(*info - 1), (long long)*info);
  return EXSTAR_SUCCESS;
}
