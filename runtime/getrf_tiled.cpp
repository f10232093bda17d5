// The tiled exact LU: a descriptor of nb x nb tiles (one StarPU handle each, and one state
// handle each), and the right-looking graph on tile indices. Per panel K:
//   panel(K)             the unblocked chain on block column K            (priority: top)
//   laswp(K, J), J < K   the panel's interchanges on the L tiles left of it
//   laswp(K, J), J > K   ... on the tiles and states right of it
//   urow(K, J), J > K    block row K of U from its state and L(K, K)
//   gemm(I, J), I,J > K  state(I, J) −= L(I, K)·U(K, J), Level-3 fast      (block column K+1: high)
// Every entry of L and U is rounded once from its state plus the panel's terms when the bound
// proves it, else from the exact sum of all its terms (the kernels read them from the tiles the
// task was given: the row of L, the column of U, the original a(i,j)). So the bits are the
// unblocked definition's for every nb, scheduler and worker mix.
#include "runtime/internal.h"
#include "runtime/getrf_tiled.h"
#include "codelets/codelets.h"
#include "codelets/lu_tiled.h"
#include <cstdlib>
#include <cstring>
#include <vector>

namespace exstar_rt {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

// A task's buffer list and the argument block describing it.
struct tiled_task {
  std::vector<starpu_data_descr> descr;
  std::vector<exstar_lu_tiled_buf> bufs;
  void add(starpu_data_handle_t h, enum starpu_data_access_mode mode, int64_t I, int64_t J, int kind)
  {
    starpu_data_descr d;
    d.handle = h;
    d.mode = mode;
    descr.push_back(d);
    bufs.push_back(exstar_lu_tiled_buf{(int32_t)I, (int32_t)J, (int32_t)kind});
  }
  int submit(starpu_codelet *cl, const tiled_desc &d, int64_t K, int64_t J, int prio, int exact_only, const char *who)
  {
    const size_t size = sizeof(exstar_lu_tiled_args) + bufs.size() * sizeof(exstar_lu_tiled_buf);
    exstar_lu_tiled_args *h = (exstar_lu_tiled_args *)std::malloc(size); // freed by StarPU with the task
    if (!h) return exstar_set_error(EXSTAR_ERR_NOMEM, "%s: out of memory", who);
    *h = exstar_lu_tiled_args{d.m, d.n, d.nb, d.mt, d.nt, K, J, exact_only, (int32_t)bufs.size()};
    std::memcpy(h + 1, bufs.data(), bufs.size() * sizeof(exstar_lu_tiled_buf));
    int ret = starpu_task_insert(cl, STARPU_DATA_MODE_ARRAY, descr.data(), (int)descr.size(), STARPU_CL_ARGS, h, size,
                                 STARPU_PRIORITY, prio, STARPU_NAME, cl->name, 0);
    return ret == 0 ? EXSTAR_SUCCESS : submit_status(ret, who);
  }
};

} // namespace

int tiled_desc::create(int64_t m_, int64_t n_, int64_t nb_, double *A, int64_t lda, int32_t *ipiv, bool with_states)
{
  m = m_, n = n_, nb = nb_, mt = ceil_div(m, nb), nt = ceil_div(n, nb);
  kt = ceil_div(min64(m, n), nb);
  tiles.assign((size_t)(mt * nt), nullptr);
  states.assign((size_t)(mt * nt), nullptr);
  for (int64_t J = 0; J < nt; ++J)
    for (int64_t I = 0; I < mt; ++I) {
      const int64_t rows = min64(nb, m - I * nb), cols = min64(nb, n - J * nb);
      starpu_matrix_data_register(&tile(I, J), STARPU_MAIN_RAM, (uintptr_t)(A + I * nb + J * nb * lda), (uint32_t)lda,
                                  (uint32_t)rows, (uint32_t)cols, sizeof(double));
      if (with_states)
        if (int s = exstar_state_register(&state(I, J), rows, cols)) return s;
    }
  pivots.assign((size_t)kt, nullptr);
  for (int64_t K = 0; K < kt; ++K)
    starpu_vector_data_register(&pivots[(size_t)K], STARPU_MAIN_RAM, (uintptr_t)(ipiv + K * nb),
                                (uint32_t)(min64(m, n) - K * nb < nb ? min64(m, n) - K * nb : nb), sizeof(int32_t));
  return EXSTAR_SUCCESS;
}

void tiled_desc::destroy()
{
  for (starpu_data_handle_t &h : pivots)
    if (h) starpu_data_unregister(h), h = nullptr;
  for (starpu_data_handle_t &h : states)
    if (h) starpu_data_unregister_submit(h), h = nullptr;
  for (starpu_data_handle_t &h : tiles)
    if (h) starpu_data_unregister(h), h = nullptr;
}

bool tiled_lu_runs()
{
  if (starpu_cpu_worker_get_count() > 0) return true;
  return exstar_lu_panel_cl.cuda_funcs[0] && exstar_lu_urow_cl.cuda_funcs[0] && exstar_lu_laswp_host_cl.cuda_funcs[0] &&
         starpu_cuda_worker_get_count() > 0;
}

int getrf_tiled_insert(const char *who, const tiled_desc &d, int exact_only, bool plain)
{
  int s = EXSTAR_SUCCESS;
  const int top = STARPU_MAX_PRIO, high = STARPU_MAX_PRIO > 1 ? STARPU_MAX_PRIO - 1 : STARPU_MAX_PRIO;
  const int low = STARPU_DEFAULT_PRIO;
  for (int64_t J = 0; J < d.nt && s == 0 && !plain; ++J)
    for (int64_t I = 0; I < d.mt && s == 0; ++I) {
      const int64_t rows = min64(d.nb, d.m - I * d.nb), cols = min64(d.nb, d.n - J * d.nb);
      s = exstar_state_init_insert(rows, cols, d.tile(I, J), 0, 0, d.state(I, J), 0, 0);
    }
  for (int64_t K = 0; K < d.kt && s == 0; ++K) {
    { // the panel
      tiled_task t;
      for (int64_t I = K; I < d.mt; ++I) {
        t.add(d.tile(I, K), STARPU_RW, I, K, EXSTAR_LU_TILE);
        if (plain) continue; // LAPACK's panel reads nothing else
        t.add(d.state(I, K), STARPU_RW, I, K, EXSTAR_LU_STATE);
        for (int64_t J = 0; J < K; ++J) t.add(d.tile(I, J), STARPU_R, I, J, EXSTAR_LU_TILE);
      }
      if (!plain)
        for (int64_t I = 0; I < K; ++I) t.add(d.tile(I, K), STARPU_R, I, K, EXSTAR_LU_TILE);
      t.add(d.pivots[(size_t)K], STARPU_W, 0, 0, EXSTAR_LU_IPIV);
      s = t.submit(plain ? &exstar_lu_plain_panel_cl : &exstar_lu_panel_cl, d, K, K, top, exact_only, who);
    }
    for (int64_t J = 0; J < d.nt && s == 0; ++J) { // interchanges left and right of the panel
      if (J == K) continue;
      tiled_task t;
      for (int64_t I = K; I < d.mt; ++I) {
        t.add(d.tile(I, J), STARPU_RW, I, J, EXSTAR_LU_TILE);
        if (J > K && !plain) t.add(d.state(I, J), STARPU_RW, I, J, EXSTAR_LU_STATE);
      }
      t.add(d.pivots[(size_t)K], STARPU_R, 0, 0, EXSTAR_LU_IPIV);
      starpu_codelet *cl = d.mt - K <= EXSTAR_LU_LASWP_DEVICE_TILES ? &exstar_lu_laswp_cl : &exstar_lu_laswp_host_cl;
      s = t.submit(cl, d, K, J, J == K + 1 ? high : low, exact_only, who);
    }
    for (int64_t J = K + 1; J < d.nt && s == 0; ++J) { // block row K of U
      tiled_task t;
      t.add(d.tile(K, J), STARPU_RW, K, J, EXSTAR_LU_TILE);
      if (plain) {
        t.add(d.tile(K, K), STARPU_R, K, K, EXSTAR_LU_TILE);
        s = t.submit(&exstar_lu_plain_urow_cl, d, K, J, J == K + 1 ? high : low, exact_only, who);
        continue;
      }
      t.add(d.state(K, J), STARPU_R, K, J, EXSTAR_LU_STATE);
      for (int64_t L = 0; L <= K; ++L) t.add(d.tile(K, L), STARPU_R, K, L, EXSTAR_LU_TILE);
      for (int64_t I = 0; I < K; ++I) t.add(d.tile(I, J), STARPU_R, I, J, EXSTAR_LU_TILE);
      s = t.submit(&exstar_lu_urow_cl, d, K, J, J == K + 1 ? high : low, exact_only, who);
    }
    for (int64_t J = K + 1; J < d.nt && s == 0; ++J) // the trailing update
      for (int64_t I = K + 1; I < d.mt && s == 0; ++I) {
        const int64_t rows = min64(d.nb, d.m - I * d.nb), cols = min64(d.nb, d.n - J * d.nb);
        const int64_t kk = min64(d.nb, min64(d.m, d.n) - K * d.nb); // panel K's columns of L
        exstar_gemm_args a;
        std::memset(&a, 0, sizeof a);
        a.transa = 'N', a.transb = 'N', a.m = rows, a.n = cols, a.k = kk, a.alpha = -1.0;
        const int prio = J == K + 1 ? high : low;
        int ret = plain ? starpu_task_insert(&exstar_lu_plain_gemm_cl, STARPU_R, d.tile(I, K), STARPU_R, d.tile(K, J),
                                             STARPU_RW, d.tile(I, J), STARPU_PRIORITY, prio, STARPU_NAME,
                                             "exstar_lu_plain_gemm", 0)
                        : starpu_task_insert(&exstar_state_gemm_cl, STARPU_R, d.tile(I, K), STARPU_R, d.tile(K, J),
                                             STARPU_RW, d.state(I, J), STARPU_VALUE, &a, sizeof a, STARPU_PRIORITY,
                                             prio, STARPU_NAME, "exstar_lu_gemm", 0);
        if (ret != 0) s = submit_status(ret, who);
      }
  }
  return s;
}

} // namespace exstar_rt
