// The tiled exact LU's descriptor (nb x nb tiles, one StarPU handle each, and one state handle
// each) and its graph in one process (the graph itself: runtime/getrf_tiled_graph.h).
#include "runtime/internal.h"
#include "runtime/getrf_tiled.h"
#include "runtime/getrf_tiled_graph.h"
#include "codelets/codelets.h"
#include "codelets/lu_tiled.h"
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

namespace exstar_rt {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

using tiled_graph::local_submit;

// Every handle of hs valid in main memory, with one wait: an asynchronous read acquire each
// (their transfers home overlap, the callbacks count down), then the releases. The unregisters
// that follow find the home copies valid and do not block. One blocking unregister a tile was
// one wake-up of the calling thread a tile (256 at n = 8192, nb = 512), each waiting for a core
// among polling workers.
void gather_home(const std::vector<starpu_data_handle_t> &hs)
{
  struct countdown {
    std::mutex m;
    std::condition_variable done;
    size_t left = 0;
  } c;
  c.left = hs.size();
  auto arrived = [](void *arg) {
    countdown *k = static_cast<countdown *>(arg);
    std::lock_guard<std::mutex> lock(k->m);
    if (--k->left == 0) k->done.notify_one();
  };
  std::vector<char> held(hs.size(), 0);
  for (size_t i = 0; i < hs.size(); ++i) {
    held[i] = hs[i] && starpu_data_acquire_cb(hs[i], STARPU_R, arrived, &c) == 0;
    if (!held[i]) arrived(&c);
  }
  {
    std::unique_lock<std::mutex> lock(c.m);
    c.done.wait(lock, [&] { return c.left == 0; });
  }
  for (size_t i = 0; i < hs.size(); ++i)
    if (held[i]) starpu_data_release(hs[i]);
}

} // namespace

int tiled_desc::create(int64_t m_, int64_t n_, int64_t nb_, double *A, int64_t lda, int32_t *ipiv, bool with_states,
                       bool home)
{
  m = m_, n = n_, nb = nb_, mt = ceil_div(m, nb), nt = ceil_div(n, nb);
  kt = ceil_div(min64(m, n), nb);
  at_home = home;
  panel_where = with_states ? exstar_rt::panel_where() : 0; // the plain baseline's panel is LAPACK's
  tiles.assign((size_t)(mt * nt), nullptr);
  states.assign((size_t)nt, nullptr);
  for (int64_t J = 0; J < nt; ++J) {
    const int64_t cols = min64(nb, n - J * nb);
    for (int64_t I = 0; I < mt; ++I) {
      const int64_t rows = min64(nb, m - I * nb);
      if (home)
        starpu_matrix_data_register(&tile(I, J), STARPU_MAIN_RAM, (uintptr_t)(A + I * nb + J * nb * lda),
                                    (uint32_t)lda, (uint32_t)rows, (uint32_t)cols, sizeof(double));
      else
        starpu_matrix_data_register(&tile(I, J), -1, 0, (uint32_t)rows, (uint32_t)rows, (uint32_t)cols, sizeof(double));
    }
    if (with_states)
      if (int s = exstar_state_register(&state(J), m, cols)) return s;
  }
  if (with_states && home)
    if (int s = add_checks()) return s;
  add_copies(); // the plain graph's updates read L's column copies too (one handle a panel to move)
  place_on_gpus(!with_states);
  pivots.assign((size_t)kt, nullptr);
  for (int64_t K = 0; K < kt; ++K) {
    const uint32_t len = (uint32_t)min64(nb, min64(m, n) - K * nb);
    starpu_vector_data_register(&pivots[(size_t)K], home ? STARPU_MAIN_RAM : -1, home ? (uintptr_t)(ipiv + K * nb) : 0,
                                len, sizeof(int32_t));
  }
  return EXSTAR_SUCCESS;
}

int tiled_desc::add_checks()
{
  status_buf = new (std::nothrow) uint64_t[2];
  if (!status_buf) return exstar_set_error(EXSTAR_ERR_NOMEM, "exstar: out of memory");
  status_buf[0] = 0, status_buf[1] = UINT64_MAX;
  starpu_vector_data_register(&status, STARPU_MAIN_RAM, (uintptr_t)status_buf, 2, sizeof(uint64_t));
  return EXSTAR_SUCCESS;
}

void tiled_desc::add_copies()
{
  for (auto *hs : {&lcols, &perms})
    for (starpu_data_handle_t &h : *hs)
      if (h) starpu_data_unregister_submit(h), h = nullptr;
  lcols.assign((size_t)kt, nullptr), perms.assign((size_t)kt, nullptr);
  for (int64_t K = 0; K < kt; ++K) {
    const int64_t rows = m - K * nb, cols = min64(nb, n - K * nb);
    starpu_matrix_data_register(&lcols[(size_t)K], -1, 0, (uint32_t)rows, (uint32_t)rows, (uint32_t)cols,
                                sizeof(double));
    starpu_vector_data_register(&perms[(size_t)K], -1, 0, (uint32_t)(2 * m), sizeof(int32_t));
  }
}

// Each GPU's mask split into its lowest worker (the chain's) and the others; false (nothing
// split) when a GPU has a single worker.
static bool split_masks(const std::vector<std::vector<uint32_t>> &all, std::vector<std::vector<uint32_t>> &chain,
                        std::vector<std::vector<uint32_t>> &rest)
{
  chain.clear(), rest.clear();
  for (const std::vector<uint32_t> &m : all) {
    std::vector<uint32_t> first(m.size(), 0u), others = m;
    size_t w = 0;
    while (w < m.size() && !m[w]) ++w;
    if (w < m.size()) first[w] = m[w] & (0u - m[w]), others[w] = m[w] & ~first[w]; // the lowest worker
    bool more = false;
    for (uint32_t x : others) more = more || x;
    if (w == m.size() || !more) return chain.clear(), rest.clear(), false;
    chain.push_back(first), rest.push_back(others);
  }
  return true;
}

void tiled_desc::place_on_gpus(bool plain)
{
  gpu_masks.clear(), chain_masks.clear(), rest_masks.clear();
  gate_panels = false;
  const bool cuda = plain ? exstar_lu_plain_panel_cl.cuda_funcs[0] && exstar_lu_plain_urow_cl.cuda_funcs[0] &&
                                exstar_lu_plain_gemm_cl.cuda_funcs[0] && exstar_lu_laswp_host_cl.cuda_funcs[0]
                          : panel_where == STARPU_CUDA;
  if (!cuda) return;
  gpu_masks = gpu_worker_masks();
  // The chain's own worker, on any number of GPUs. One H200 (2026-11-28, at home): n = 32768
  // 5.76 -> 5.34 s, 16384 0.937 -> 0.927 s. Four H200s, nb = 512 (2026-11-28, seventh session,
  // bench/results/h200x4-2026-11-28-s7): 32768 1.52 -> 1.34 s, 16384 0.387 -> 0.373 s; with the
  // gate and the short CUDA pipeline (runtime/init.cpp) 1.36 and 0.334 s. (Two H200s before
  // the deadline priorities: 32768 3.09 -> 3.27 s, its panels lost the other workers' streams.)
  // EXSTAR_CUDA_CHAIN_WORKER=0/1 forces it.
  const bool chain_worker = env_switch("EXSTAR_CUDA_CHAIN_WORKER", true);
  // The panel's gate (codelets/cuda_stream.cpp), on several GPUs: a panel there shares its GPU
  // with the updates of the other columns it holds, and took 15-23 ms for ~5 ms alone (4 x H200,
  // n = 32768, nb = 512); gated, the panels' sum 949 -> 709 ms and n = 16384 0.380 -> 0.334 s
  // (32768: 1.35 s either way: block column K+1's tasks then waited longer). One GPU is bound by
  // the updates' throughput and keeps them running. EXSTAR_CUDA_PANEL_GATE=0/1 forces it.
  gate_panels = env_switch("EXSTAR_CUDA_PANEL_GATE", gpu_masks.size() > 1);
  if (chain_worker && !gpu_masks.empty() && split_masks(gpu_masks, chain_masks, rest_masks)) return;
  if (gpu_masks.size() < 2) gpu_masks.clear(); // one GPU: StarPU's choice is the same
}

void tiled_desc::drop_checks()
{
  if (status) starpu_data_unregister(status), status = nullptr;
  delete[] status_buf;
  status_buf = nullptr;
}

void tiled_desc::check_status(int64_t *info, bool *nonfinite) const
{
  starpu_data_acquire(status, STARPU_R);
  *nonfinite = status_buf[0] != 0;
  *info = status_buf[1] == UINT64_MAX ? 0 : (int64_t)status_buf[1] + 1;
  starpu_data_release(status);
}

void tiled_desc::destroy()
{
  drop_checks();
  if (at_home && own_tiles) {
    std::vector<starpu_data_handle_t> all(tiles);
    all.insert(all.end(), pivots.begin(), pivots.end());
    gather_home(all);
  }
  for (starpu_data_handle_t &h : pivots)
    if (h) starpu_data_unregister(h), h = nullptr;
  for (auto *hs : {&states, &lcols, &perms})
    for (starpu_data_handle_t &h : *hs)
      if (h) starpu_data_unregister_submit(h), h = nullptr;
  for (starpu_data_handle_t &h : tiles) {
    if (h && own_tiles) starpu_data_unregister(h);
    h = nullptr;
  }
}

bool tiled_lu_runs()
{
  if (starpu_cpu_worker_get_count() > 0) return true;
  return exstar_lu_panel_cl.cuda_funcs[0] && exstar_lu_urow_cl.cuda_funcs[0] && exstar_lu_laswp_host_cl.cuda_funcs[0] &&
         starpu_cuda_worker_get_count() > 0;
}

bool plain_tiled_lu_runs()
{
  const starpu_codelet *cls[] = {&exstar_lu_plain_panel_cl, &exstar_lu_plain_urow_cl, &exstar_lu_plain_gemm_cl};
  bool cpu = starpu_cpu_worker_get_count() > 0, cuda = starpu_cuda_worker_get_count() > 0;
  for (const starpu_codelet *cl : cls) cpu = cpu && cl->cpu_funcs[0], cuda = cuda && cl->cuda_funcs[0];
  return cpu || (cuda && exstar_lu_laswp_host_cl.cuda_funcs[0]);
}

unsigned long long panel_where()
{
  const bool cuda = starpu_cuda_worker_get_count() > 0 && exstar_lu_panel_cl.cuda_funcs[0] &&
                    exstar_lu_urow_cl.cuda_funcs[0] && exstar_lu_laswp_host_cl.cuda_funcs[0];
  return cuda ? STARPU_CUDA : 0;
}

// The status task of every tile, after its last writer (StarPU's implicit dependencies), where
// the panel path runs.
static int insert_checks(local_submit &ins, const char *who, const tiled_desc &d)
{
  for (int64_t J = 0; J < d.nt; ++J)
    for (int64_t I = 0; I < d.mt; ++I) {
      const int64_t ndiag = I == J ? min64(min64(d.nb, d.m - I * d.nb), d.n - J * d.nb) : 0, diag0 = I * d.nb;
      const tiled_graph::place on = tiled_graph::of_column(d, J, -1, tiled_graph::gpu_only(d, exstar_lu_check_cl));
      int ret = ins.task(on, &exstar_lu_check_cl, STARPU_R, d.tile(I, J), STARPU_RW | STARPU_COMMUTE, d.status,
                         STARPU_VALUE, &ndiag, sizeof ndiag, STARPU_VALUE, &diag0, sizeof diag0, STARPU_NAME,
                         "exstar_lu_check");
      if (ret != 0) return submit_status(ret, who);
    }
  return EXSTAR_SUCCESS;
}

int getrf_tiled_insert(const char *who, const tiled_desc &d, int exact_only, bool plain)
{
  local_submit ins;
  int s = getrf_tiled_graph(ins, who, d, exact_only, plain);
  if (s == EXSTAR_SUCCESS && d.status) s = insert_checks(ins, who, d);
  return s;
}

} // namespace exstar_rt
