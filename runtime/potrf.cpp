// The exact Cholesky drivers: exstar_dpotrf (the tiled graph below), exstar_dpotrs (two exact
// trsm) and exstar_dposv (both, with optional refinement on the exact residual).
//
// The graph (runtime/potrf_tiled_graph.h, shared with the StarPU-MPI driver) is Chameleon's tiled
// Cholesky with a GEMM-accumulate state per lower tile; every entry is the definition's value,
// so the bits are the same for every nb, scheduler and worker mix.
#include "runtime/internal.h"
#include "runtime/memory.h"
#include "runtime/getrf_tiled.h"
#include "runtime/getrf_tiled_graph.h"
#include "runtime/potrf_tiled_graph.h"
#include "codelets/codelets.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

namespace {

using exstar_rt::chol_desc;
using exstar_rt::tiled_desc;

// One process: StarPU's own insertion, each task on the GPU the graph gives it.
using exstar_rt::tiled_graph::local_submit;

char normalize_uplo(char u) { return (u == 'L' || u == 'l') ? 'L' : (u == 'U' || u == 'u') ? 'U' : 0; }

int check_square(const char *who, const char *name, int64_t n, const double *A, int64_t lda)
{
  if (n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: n = %lld < 0", who, (long long)n);
  if (lda < (n > 1 ? n : 1))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: ld%s = %lld < max(1, n) = %lld", who, name, (long long)lda,
                            (long long)(n > 1 ? n : 1));
  if (n > 0 && !A) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is NULL", who, name);
  if ((uint64_t)lda > UINT32_MAX || (uint64_t)n > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: dimensions beyond 2^32 are not supported (n = %lld)", who,
                            (long long)n);
  return EXSTAR_SUCCESS;
}

// The lower triangle of the n x n column-major L (ld) factored in place; *info from the
// panels' root flags; EXSTAR_ERR_NONFINITE when a finished factor holds NaN or inf.
int potrf_lower(const char *who, int64_t n, double *L, int64_t ld, int64_t nb, int64_t *info, bool plain)
{
  if (int s = exstar_rt::check_memory(who, exstar_rt::potrf_bytes(n, nb, plain))) return s;
  std::vector<int32_t> flags;
  try {
    flags.assign((size_t)n, 0);
  } catch (const std::bad_alloc &) {
    return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
  }
  chol_desc c;
  int s = c.create(n, nb, L, ld, flags.data(), plain);
  local_submit ins;
  if (s == EXSTAR_SUCCESS) s = exstar_rt::potrf_tiled_graph(ins, who, c, exstar_rt::exact_only());
  c.destroy();
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  if (s != EXSTAR_SUCCESS) return s;
  *info = 0;
  for (int64_t j = 0; j < n && *info == 0; ++j)
    if (flags[(size_t)j] == 1) *info = j + 1;
  if (*info > 0)
    return exstar_set_error(EXSTAR_ERR_NOT_POSDEF,
                            "%s: the matrix is not positive definite: the exact value under the root of l(%lld,%lld) "
                            "is <= 0 or NaN, or its root rounds to zero (info = %lld)",
                            who, (long long)(*info - 1), (long long)(*info - 1), (long long)*info);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i)
      if (!std::isfinite(L[i + j * ld]))
        return exstar_set_error(EXSTAR_ERR_NONFINITE, "%s: the factor holds NaN or inf (l(%lld,%lld))", who,
                                (long long)i, (long long)j);
  return EXSTAR_SUCCESS;
}

// uplo 'U': U = Lᵀ of the transposed upper triangle, entry for entry the same definition; the
// strictly lower triangle of A is not touched (LAPACK).
int potrf_upper(const char *who, int64_t n, double *A, int64_t lda, int64_t nb, int64_t *info, bool plain)
{
  if (int s = exstar_rt::check_memory(who, exstar_rt::bytes_of(exstar_rt::bytes_of(n, n), 8))) return s;
  std::vector<double> L;
  try {
    L.assign((size_t)(n * n), 0.0);
  } catch (const std::bad_alloc &) {
    return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory (the transposed triangle)", who);
  }
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) L[(size_t)(i + j * n)] = A[j + i * lda];
  int s = potrf_lower(who, n, L.data(), n, nb, info, plain);
  if (s == EXSTAR_SUCCESS || s == EXSTAR_ERR_NOT_POSDEF || s == EXSTAR_ERR_NONFINITE)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = j; i < n; ++i) A[j + i * lda] = L[(size_t)(i + j * n)];
  return s;
}

int potrf(const char *who, char uplo, int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb,
          bool plain = false)
{
  if (int s = exstar_rt::require_init(who)) return s;
  const char u = normalize_uplo(uplo);
  if (!u) return exstar_set_error(EXSTAR_ERR_ARG, "%s: uplo = '%c' (expected 'L' or 'U')", who, uplo);
  if (int s = check_square(who, "A", n, A, lda)) return s;
  if (n > 0 && !info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  if (nb < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nb < 0", who);
  if (info) *info = 0;
  if (n == 0) return EXSTAR_SUCCESS;
  if (!exstar_rt::potrf_runs(plain))
    return exstar_set_error(EXSTAR_ERR_NO_WORKER, "%s: %s", who,
                            !plain ? "the Cholesky panel needs a CPU or CUDA worker (none is running)"
                            : starpu_cpu_worker_get_count() == 0
                                ? "the plain Cholesky needs a CPU or CUDA worker (none is running)"
                                : "this build has no LAPACK (the plain baseline's kernels)");
  if (nb == 0) nb = exstar_default_tile(n, n);
  if (nb > UINT32_MAX) nb = UINT32_MAX;
  return u == 'L' ? potrf_lower(who, n, A, lda, nb, info, plain) : potrf_upper(who, n, A, lda, nb, info, plain);
}

// X := A⁻¹·B through the exact trsm twice (each column exstar_dtrsv's bits): L then Lᵀ, or Uᵀ
// then U.
int potrs(const char *who, char u, int64_t n, int64_t nrhs, const double *F, int64_t ldf, double *B, int64_t ldb)
{
  if (n == 0 || nrhs == 0) return EXSTAR_SUCCESS;
  int s = exstar_rt::trsm_blocking(who, 'L', u, u == 'L' ? 'N' : 'T', 'N', n, nrhs, 1.0, F, ldf, B, ldb, false);
  if (s == EXSTAR_SUCCESS)
    s = exstar_rt::trsm_blocking(who, 'L', u, u == 'L' ? 'T' : 'N', 'N', n, nrhs, 1.0, F, ldf, B, ldb, false);
  return s;
}

int check_solve(const char *who, char uplo, int64_t n, int64_t nrhs, const double *A, int64_t lda, const double *B,
                int64_t ldb)
{
  if (int s = exstar_rt::require_init(who)) return s;
  if (!normalize_uplo(uplo)) return exstar_set_error(EXSTAR_ERR_ARG, "%s: uplo = '%c' (expected 'L' or 'U')", who, uplo);
  if (nrhs < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: nrhs = %lld < 0", who, (long long)nrhs);
  if (int s = check_square(who, "A", n, A, lda)) return s;
  if (ldb < (n > 1 ? n : 1))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: ldb = %lld < max(1, n) = %lld", who, (long long)ldb,
                            (long long)(n > 1 ? n : 1));
  if (n > 0 && nrhs > 0 && !B) return exstar_set_error(EXSTAR_ERR_ARG, "%s: B is NULL", who);
  return EXSTAR_SUCCESS;
}

// The full symmetric matrix of A's uplo triangle (n x n, ld n), for the residuals.
void full_symmetric(char u, int64_t n, const double *A, int64_t lda, std::vector<double> &S)
{
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const bool stored = u == 'L' ? i >= j : i <= j;
      S[(size_t)(i + j * n)] = stored ? A[i + j * lda] : A[j + i * lda];
    }
}

// steps rounds of x += RN-solve(RN(b − A·x)): the residual of each column one exact gemm
// (r_i := RN(b_i − Σ a_ij x_j)), the correction through the factors, one exact axpy.
int refine(const char *who, char u, int64_t n, int64_t nrhs, const std::vector<double> &A0, const double *F,
           int64_t ldf, const std::vector<double> &B0, double *X, int64_t ldx, int steps)
{
  std::vector<double> R((size_t)(n * nrhs));
  for (int k = 0; k < steps; ++k) {
    for (int64_t c = 0; c < nrhs; ++c) std::memcpy(&R[(size_t)(c * n)], &B0[(size_t)(c * n)], (size_t)n * sizeof(double));
    if (int s = exstar_dgemm('N', 'N', n, nrhs, n, -1.0, A0.data(), n, X, ldx, 1.0, R.data(), n)) return s;
    if (int s = potrs(who, u, n, nrhs, F, ldf, R.data(), n)) return s;
    for (int64_t c = 0; c < nrhs; ++c)
      if (int s = exstar_daxpy(n, 1.0, &R[(size_t)(c * n)], 1, X + c * ldx, 1)) return s;
  }
  return EXSTAR_SUCCESS;
}

} // namespace

int exstar_rt::potrf_tiled_insert(const char *who, const chol_desc &c, int exact_only)
{
  local_submit ins;
  return exstar_rt::potrf_tiled_graph(ins, who, c, exact_only);
}

int64_t exstar_rt::potrf_bytes(int64_t n, int64_t nb, bool plain)
{
  const int64_t lower = exstar_rt::bytes_of(n, n / 2 + nb);
  // the states, and (the column shape) L's column copies
  const int64_t states = plain ? 0 : exstar_rt::bytes_of(lower, 32 + 8);
  return exstar_rt::add_bytes(exstar_rt::add_bytes(states, exstar_rt::bytes_of(lower, 8)), exstar_rt::bytes_of(n, 4));
}

int exstar_dpotrf_plain(char uplo, int64_t n, double *A, int64_t lda, int64_t *info)
{
  exstar_rt::clear_error();
  return potrf("exstar_dpotrf_plain", uplo, n, A, lda, info, 0, true);
}

int exstar_dpotrf(char uplo, int64_t n, double *A, int64_t lda, int64_t *info)
{
  exstar_rt::clear_error();
  return potrf("exstar_dpotrf", uplo, n, A, lda, info, 0);
}

int exstar_dpotrf_tiled(char uplo, int64_t n, double *A, int64_t lda, int64_t *info, int64_t nb)
{
  exstar_rt::clear_error();
  return potrf("exstar_dpotrf_tiled", uplo, n, A, lda, info, nb);
}

int exstar_dpotrs(char uplo, int64_t n, int64_t nrhs, const double *A, int64_t lda, double *B, int64_t ldb)
{
  const char *who = "exstar_dpotrs";
  exstar_rt::clear_error();
  if (int s = check_solve(who, uplo, n, nrhs, A, lda, B, ldb)) return s;
  return potrs(who, normalize_uplo(uplo), n, nrhs, A, lda, B, ldb);
}

int exstar_dposv(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda, double *B, int64_t ldb,
                 int refine_steps, int64_t *info)
{
  const char *who = "exstar_dposv";
  exstar_rt::clear_error();
  if (int s = check_solve(who, uplo, n, nrhs, A, lda, B, ldb)) return s;
  if (!info) return exstar_set_error(EXSTAR_ERR_ARG, "%s: info is NULL", who);
  if (refine_steps < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: refine_steps < 0", who);
  const char u = normalize_uplo(uplo);
  std::vector<double> A0, B0; // the entry matrix (full) and B, for the residuals
  if (refine_steps > 0 && n > 0 && nrhs > 0) {
    if (int s = exstar_rt::check_memory(who, exstar_rt::bytes_of(n * n + 2 * n * nrhs, 8))) return s;
    try {
      A0.resize((size_t)(n * n)), B0.resize((size_t)(n * nrhs));
    } catch (const std::bad_alloc &) {
      return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory (copies of A and B)", who);
    }
    full_symmetric(u, n, A, lda, A0);
    for (int64_t c = 0; c < nrhs; ++c) std::memcpy(&B0[(size_t)(c * n)], B + c * ldb, (size_t)n * sizeof(double));
  }
  int s = potrf(who, u, n, A, lda, info, 0);
  // LAPACK: no solve unless the factorization completed; factors holding inf or NaN (from such
  // input) are solved anyway, as exstar_dgesv does, and the status says so
  if (s != EXSTAR_SUCCESS && s != EXSTAR_ERR_NONFINITE) return s;
  char msg[512];
  std::snprintf(msg, sizeof msg, "%s", exstar_last_error());
  int t = potrs(who, u, n, nrhs, A, lda, B, ldb);
  if (t == EXSTAR_SUCCESS && !A0.empty()) t = refine(who, u, n, nrhs, A0, A, lda, B0, B, ldb, refine_steps);
  if (t != EXSTAR_SUCCESS) return t;
  return s == EXSTAR_SUCCESS ? s : exstar_set_error(s, "%s", msg);
}
