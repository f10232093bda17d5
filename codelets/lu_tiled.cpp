// Codelets of the tiled exact LU (runtime/getrf_tiled.cpp): the panel, a block row of U, and
// the row interchanges of a block column. Each takes a variable list of tiles (StarPU's
// STARPU_DATA_MODE_ARRAY) described by its argument block (exstar_lu_tiled_args followed by one
// exstar_lu_tiled_buf per buffer), and hands the kernels a view of the tiles it was given.
#include "codelets/level3_glue.h"
#include "codelets/lu_tiled.h"
#include "codelets/tile_view.h"
#include "kernels_cpu/lu_tiled.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "kernels_cuda/lu.h"
#include "kernels_cuda/lu_tiled.h"
static_assert(EXSTAR_CUDA_TILE_COLUMN == EXSTAR_LU_LASWP_DEVICE_TILES, "one limit");
#endif
#include <algorithm>
#include <cstring>
#include <vector>

namespace {

using exstar_tiles::task_view;
using exstar_tiles::make_view;

void lu_panel_cpu(void *buffers[], void *cl_arg)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  task_view t;
  make_view(buffers, h, t);
  int64_t info;
  exstar_cpu_lu_panel(&t.v, h->K, t.ipiv, &info, h->exact_only);
}

void lu_urow_cpu(void *buffers[], void *cl_arg)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  task_view t;
  make_view(buffers, h, t);
  exstar_cpu_lu_urow(&t.v, h->K, h->J, h->exact_only);
}

void lu_laswp_host_cpu(void *buffers[], void *cl_arg)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  task_view t;
  make_view(buffers, h, t);
  exstar_cpu_lu_laswp(&t.v, h->K, h->J, t.ipiv);
}

#ifdef EXSTAR_HAVE_LAPACK
// The plain-double baseline on the same tiles (vendor LAPACK/BLAS; NOT exact).
void lu_plain_panel_cpu(void *buffers[], void *cl_arg)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  task_view t;
  make_view(buffers, h, t);
  exstar_cpu_lu_plain_panel(&t.v, h->K, t.ipiv);
}

void lu_plain_urow_cpu(void *buffers[], void *cl_arg)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  task_view t;
  make_view(buffers, h, t);
  exstar_cpu_lu_plain_urow(&t.v, h->K, h->J);
}
#else
#define lu_plain_panel_cpu nullptr
#define lu_plain_urow_cpu nullptr
#endif

#ifdef EXSTAR_WITH_CUDA_CODELETS
using exstar_tiles::run_cuda;

void lu_panel_cuda(void *buffers[], void *cl_arg)
{
  run_cuda(buffers, cl_arg, "exstar_lu_panel", [](const exstar_lu_tiled_args &h, task_view &t, const exstar_cuda_tiles &v,
                                                  exstar_cuda_stream s) {
    // beside the other columns' updates, unless the gate holds them back while the panel runs;
    // the first panel has no updates beside it (every task of the graph waits for it)
    const int e = exstar_cuda_lu_panel(&v, h.K, t.ipiv, h.exact_only, !h.gate && h.K > 0, nullptr, s);
    return e == 0 && h.gate ? exstar_codelet_cuda_gate_close(s) : e;
  });
}

void lu_urow_cuda(void *buffers[], void *cl_arg)
{
  run_cuda(buffers, cl_arg, "exstar_lu_urow", [](const exstar_lu_tiled_args &h, task_view &, const exstar_cuda_tiles &v,
                                                 exstar_cuda_stream s) {
    return exstar_cuda_lu_urow(&v, h.K, h.J, h.exact_only, nullptr, s);
  });
}

// The interchanges on a block column of any height (the tile arrays in device memory).
void lu_laswp_host_cuda(void *buffers[], void *cl_arg)
{
  run_cuda(buffers, cl_arg, "exstar_lu_laswp", [](const exstar_lu_tiled_args &h, task_view &t,
                                                  const exstar_cuda_tiles &v, exstar_cuda_stream s) {
    return exstar_cuda_lu_laswp_tiles(&v, h.K, h.J, t.ipiv, s);
  });
}

// The plain-double baseline on the GPU (cuSOLVER, cuBLAS; NOT exact).
void lu_plain_panel_cuda(void *buffers[], void *cl_arg)
{
  run_cuda(buffers, cl_arg, "exstar_lu_plain_panel", [](const exstar_lu_tiled_args &h, task_view &t,
                                                        const exstar_cuda_tiles &v, exstar_cuda_stream s) {
    return exstar_cuda_lu_plain_panel(&v, h.K, t.ipiv, s);
  });
}

void lu_plain_urow_cuda(void *buffers[], void *cl_arg)
{
  run_cuda(buffers, cl_arg, "exstar_lu_plain_urow", [](const exstar_lu_tiled_args &h, task_view &,
                                                       const exstar_cuda_tiles &v, exstar_cuda_stream s) {
    return exstar_cuda_lu_plain_urow(&v, h.K, h.J, s);
  });
}

#endif

// The history model keys on the task's shape, not on its (variable) buffers.
uint32_t tiled_footprint(struct starpu_task *task)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)task->cl_arg;
  const int64_t key[4] = {h->m - h->K * h->nb, h->nb, h->nbuf, h->J > h->K ? 1 : 0};
  return starpu_hash_crc32c_be_n(key, sizeof key, 0);
}

} // namespace

// The panel, the U block rows and the interchanges of tall block columns: CPU or CUDA.
#ifdef EXSTAR_WITH_CUDA_CODELETS
#define EXSTAR_LU_TILED_CUDA(op)                                                                  \
  cl.cuda_funcs[0] = op##_cuda;                                                                  \
  cl.cuda_flags[0] = STARPU_CUDA_ASYNC;
#else
#define EXSTAR_LU_TILED_CUDA(op)
#endif
#define EXSTAR_LU_TILED_CODELET_ANY(op)                                                           \
  static struct starpu_perfmodel exstar_##op##_model;                                            \
  struct starpu_codelet exstar_##op##_cl = [] {                                                  \
    exstar_##op##_model.type = STARPU_HISTORY_BASED;                                             \
    exstar_##op##_model.symbol = "exstar_" #op;                                                  \
    exstar_##op##_model.footprint = tiled_footprint;                                             \
    struct starpu_codelet cl;                                                                    \
    starpu_codelet_init(&cl);                                                                    \
    cl.cpu_funcs[0] = exstar_cpu_guarded<op##_cpu>;                                              \
    EXSTAR_LU_TILED_CUDA(op)                                                                     \
    cl.nbuffers = STARPU_VARIABLE_NBUFFERS;                                                      \
    cl.model = &exstar_##op##_model;                                                             \
    cl.name = "exstar_" #op;                                                                     \
    return cl;                                                                                   \
  }()

EXSTAR_LU_TILED_CODELET_ANY(lu_panel);
EXSTAR_LU_TILED_CODELET_ANY(lu_urow);
EXSTAR_LU_TILED_CODELET_ANY(lu_laswp_host);
// The same interchanges (one codelet name for the short block columns, kept for the models).
struct starpu_codelet exstar_lu_laswp_cl = [] {
  struct starpu_codelet cl = exstar_lu_laswp_host_cl;
  cl.name = "exstar_lu_laswp";
  return cl;
}();
EXSTAR_LU_TILED_CODELET_ANY(lu_plain_panel);
EXSTAR_LU_TILED_CODELET_ANY(lu_plain_urow);

// C(I,J) −= L(I,K)·U(K,J) in plain double (dgemm): R L, R U, RW C.
#ifdef EXSTAR_HAVE_LAPACK
static void lu_plain_gemm_cpu(void *buffers[], void *)
{
  exstar_cpu_lu_plain_gemm((int64_t)STARPU_MATRIX_GET_NX(buffers[2]), (int64_t)STARPU_MATRIX_GET_NY(buffers[2]),
                           (int64_t)STARPU_MATRIX_GET_NY(buffers[0]), (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                           exstar_mat_ld(buffers[0]), (const double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                           exstar_mat_ld(buffers[1]), (double *)STARPU_MATRIX_GET_PTR(buffers[2]),
                           exstar_mat_ld(buffers[2]));
}
#else
#define lu_plain_gemm_cpu nullptr
#endif
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_plain_gemm_cuda(void *buffers[], void *)
{
  exstar_codelet_cuda_check(
      exstar_cuda_lu_plain_gemm((int64_t)STARPU_MATRIX_GET_NX(buffers[2]), (int64_t)STARPU_MATRIX_GET_NY(buffers[2]),
                                (int64_t)STARPU_MATRIX_GET_NY(buffers[0]),
                                (const double *)STARPU_MATRIX_GET_PTR(buffers[0]), exstar_mat_ld(buffers[0]),
                                (const double *)STARPU_MATRIX_GET_PTR(buffers[1]), exstar_mat_ld(buffers[1]),
                                (double *)STARPU_MATRIX_GET_PTR(buffers[2]), exstar_mat_ld(buffers[2]),
                                starpu_cuda_get_local_stream()),
      "exstar_lu_plain_gemm");
}
#endif
// The plain update of a block column: a dgemm a run of tiles below block row K (tiles I and I + 1
// one after the other in memory, with the same leading dimensions, as a column-major array's
// tiles are, go into one dgemm; else a dgemm a tile). L comes from panel K's column copy when the
// task has it (one handle to move between owners instead of a tile each), else from its tiles.
template <class Gemm> void plain_gemm_col(void *buffers[], void *cl_arg, Gemm gemm)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  task_view t;
  make_view(buffers, h, t);
  const int64_t tu = h->K + h->J * h->mt, n = std::min(h->nb, h->n - h->J * h->nb), k = std::min(h->nb, h->n - h->K * h->nb);
  auto rows = [&](int64_t I) { return std::min(h->nb, h->m - I * h->nb); };
  const double *lc = t.lc[(size_t)h->K];
  auto L = [&](int64_t I) { return lc ? lc + (I - h->K) * h->nb : t.a[(size_t)(I + h->K * h->mt)]; };
  auto ldl = [&](int64_t I) { return lc ? t.ldlc[(size_t)h->K] : t.lda[(size_t)(I + h->K * h->mt)]; };
  for (int64_t I = h->K + 1; I < h->mt;) {
    const int64_t tc = I + h->J * h->mt;
    int64_t m = rows(I), E = I + 1;
    for (; E < h->mt; m += rows(E), ++E) {
      const int64_t ec = E + h->J * h->mt;
      if (L(E) != L(I) + m || ldl(E) != ldl(I) || t.a[ec] != t.a[tc] + m || t.lda[ec] != t.lda[tc]) break;
    }
    gemm(m, n, k, const_cast<double *>(L(I)), ldl(I), t.a[tu], t.lda[tu], t.a[tc], t.lda[tc]);
    I = E;
  }
}

#ifdef EXSTAR_HAVE_LAPACK
static void lu_plain_gemm_col_cpu(void *buffers[], void *cl_arg)
{
  plain_gemm_col(buffers, cl_arg, [](int64_t m, int64_t n, int64_t k, double *L, int64_t ldl, double *U, int64_t ldu,
                                     double *C, int64_t ldc) { exstar_cpu_lu_plain_gemm(m, n, k, L, ldl, U, ldu, C, ldc); });
}
#else
#define lu_plain_gemm_col_cpu nullptr
#endif
#ifdef EXSTAR_WITH_CUDA_CODELETS
static void lu_plain_gemm_col_cuda(void *buffers[], void *cl_arg)
{
  exstar_codelet_cuda_run("exstar_lu_plain_gemm_col", [&](cudaStream_t s) {
    int status = 0;
    plain_gemm_col(buffers, cl_arg, [&](int64_t m, int64_t n, int64_t k, double *L, int64_t ldl, double *U,
                                        int64_t ldu, double *C, int64_t ldc) {
      if (status == 0) status = exstar_cuda_lu_plain_gemm(m, n, k, L, ldl, U, ldu, C, ldc, s);
    });
    return status;
  });
}
#endif
EXSTAR_LU_TILED_CODELET_ANY(lu_plain_gemm_col); // the tiled tasks' codelet, as the panel's

static struct starpu_perfmodel exstar_lu_plain_gemm_model;
struct starpu_codelet exstar_lu_plain_gemm_cl = [] {
  exstar_lu_plain_gemm_model.type = STARPU_HISTORY_BASED;
  exstar_lu_plain_gemm_model.symbol = "exstar_lu_plain_gemm";
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = exstar_cpu_guarded<lu_plain_gemm_cpu>;
#ifdef EXSTAR_WITH_CUDA_CODELETS
  cl.cuda_funcs[0] = lu_plain_gemm_cuda;
  cl.cuda_flags[0] = STARPU_CUDA_ASYNC;
#endif
  cl.nbuffers = 3;
  cl.modes[0] = STARPU_R, cl.modes[1] = STARPU_R, cl.modes[2] = STARPU_RW;
  cl.model = &exstar_lu_plain_gemm_model;
  cl.name = "exstar_lu_plain_gemm";
  return cl;
}();
