// The CUDA stream a task's kernels go on: StarPU's stream of the worker, or for a task above the
// default priority (the factorizations' critical path: panels, and the next block column's
// interchanges, U row and update) a stream of the device's greatest priority, which StarPU's
// stream then waits for. A GPU runs several workers' streams at once (four by default), and its
// block scheduler dispatches the pending blocks of a high-priority stream first: the panel's
// cooperative launch and the next column's update no longer queue behind the other columns'
// updates. EXSTAR_CUDA_PRIORITY_STREAMS=0 keeps every kernel on StarPU's stream.
//
// The device gate: a task that closes it (exstar_codelet_cuda_gate_close, the tiled LU's panels
// on several GPUs) records an event after its kernels, and every task at or below the default
// priority launched on that device afterwards makes its stream wait for the event, on the GPU
// (no worker blocks, and the task's own inputs were complete when it started, so no cycle). The
// kernels already running go on; no new one of the other columns' updates takes a
// multiprocessor from the panel until it ends.
#include "codelets/glue.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include <cstdlib>
#include <mutex>

namespace {
struct priority_stream {
  bool tried = false;
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
};
thread_local priority_stream worker_stream; // a CUDA worker is one thread on one device

bool priority_streams_on()
{
  static const bool on = [] {
    const char *v = std::getenv("EXSTAR_CUDA_PRIORITY_STREAMS");
    return !(v && v[0] == '0');
  }();
  return on;
}

// Creates the calling worker's stream once; none (StarPU's stream is used) if the device has a
// single priority or a creation fails.
void make_priority_stream(priority_stream &p)
{
  p.tried = true;
  int least = 0, greatest = 0;
  if (cudaDeviceGetStreamPriorityRange(&least, &greatest) != cudaSuccess || least == greatest ||
      cudaStreamCreateWithPriority(&p.stream, cudaStreamNonBlocking, greatest) != cudaSuccess) {
    p.stream = nullptr;
  } else if (cudaEventCreateWithFlags(&p.done, cudaEventDisableTiming) != cudaSuccess) {
    cudaStreamDestroy(p.stream);
    p.stream = nullptr;
  }
  (void)cudaGetLastError(); // a failure here is not the task's
}

// A device's gate: the event of the last closing task (recorded: ever closed).
struct device_gate {
  std::mutex mu;
  cudaEvent_t event = nullptr;
  bool recorded = false;
};
constexpr int kMaxGates = 64;
device_gate gates[kMaxGates];

device_gate *gate_of_current_device()
{
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= kMaxGates) return (void)cudaGetLastError(), nullptr;
  return &gates[dev];
}

// Makes s wait for the device's gate, if a task ever closed it (a completed event costs nothing).
void wait_gate(cudaStream_t s)
{
  device_gate *g = gate_of_current_device();
  if (!g) return;
  std::lock_guard<std::mutex> lock(g->mu);
  if (g->recorded && cudaStreamWaitEvent(s, g->event, 0) != cudaSuccess) (void)cudaGetLastError();
}
} // namespace

int exstar_codelet_cuda_gate_close(cudaStream_t s)
{
  device_gate *g = gate_of_current_device();
  if (!g) return 0;
  std::lock_guard<std::mutex> lock(g->mu);
  cudaError_t e = g->event ? cudaSuccess : cudaEventCreateWithFlags(&g->event, cudaEventDisableTiming);
  if (e == cudaSuccess) e = cudaEventRecord(g->event, s);
  if (e == cudaSuccess) g->recorded = true;
  return e == cudaSuccess ? 0 : -(int)e;
}

cudaStream_t exstar_codelet_cuda_stream(void)
{
  const struct starpu_task *task = starpu_task_get_current();
  if (!task || task->priority <= STARPU_DEFAULT_PRIO || !priority_streams_on()) {
    const cudaStream_t local = starpu_cuda_get_local_stream();
    if (task && task->priority <= STARPU_DEFAULT_PRIO) wait_gate(local); // the critical path never waits
    return local;
  }
  if (!worker_stream.tried) make_priority_stream(worker_stream);
  return worker_stream.stream ? worker_stream.stream : starpu_cuda_get_local_stream();
}

// StarPU learns that an asynchronous CUDA task ended from its stream: the task's inputs were
// complete when it started, so only its own kernels on s need joining.
int exstar_codelet_cuda_join(cudaStream_t s)
{
  const cudaStream_t local = starpu_cuda_get_local_stream();
  if (s == local) return 0;
  cudaError_t e = cudaEventRecord(worker_stream.done, s);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(local, worker_stream.done, 0);
  return e == cudaSuccess ? 0 : -(int)e;
}
#endif
