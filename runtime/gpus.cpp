// The GPUs StarPU drives, as sets of workers: owner-computes placement of tiles on several GPUs
// (the tiled LU's block columns, gemm's tiles of C). A task restricted to one GPU's workers
// (STARPU_TASK_WORKERIDS) keeps its data there whatever the scheduler thinks of the transfers.
#include "runtime/internal.h"
#include <list>
#include <mutex>

std::vector<std::vector<uint32_t>> exstar_rt::gpu_worker_masks()
{
  std::vector<std::vector<uint32_t>> masks;
  std::vector<int> devs;
  const unsigned nw = starpu_worker_get_count(), words = (nw + 31) / 32;
  for (unsigned w = 0; w < nw; ++w) {
    if (starpu_worker_get_type((int)w) != STARPU_CUDA_WORKER) continue;
    const int dev = starpu_worker_get_devid((int)w);
    size_t g = 0;
    while (g < devs.size() && devs[g] != dev) ++g;
    if (g == devs.size()) devs.push_back(dev), masks.emplace_back(words, 0u);
    masks[g][w / 32] |= 1u << (w % 32);
  }
  return masks;
}

// StarPU keeps a task's STARPU_TASK_WORKERIDS pointer, not a copy: a call that returns before its
// tasks run needs masks that outlive it. One stored copy for each set of masks ever seen.
const std::vector<std::vector<uint32_t>> &exstar_rt::lasting_gpu_worker_masks()
{
  static std::mutex lock;
  static std::list<std::vector<std::vector<uint32_t>>> kept;
  std::vector<std::vector<uint32_t>> now = gpu_worker_masks();
  std::lock_guard<std::mutex> g(lock);
  for (const auto &m : kept)
    if (m == now) return m;
  kept.push_back(std::move(now));
  return kept.back();
}
