// Benchmark of the exact dot product on CPU cores, against the non-reproducible baselines.
//
//   exstar_bench_dot [--min-log2n K] [--max-log2n K] [--reps R] [--cores C] [--sched NAME]
//                    [--csv FILE] [--data uniform|wide] [--ref-log2n K] [--quiet]
//
// For n = 2^min .. 2^max (default 2^20 .. 2^27; x and y of 2^27 doubles take 2 GiB), the
// median of R runs (default 10) after one warm-up of:
//   exstar        / cpu-Cc  exstar_ddot: register x, y, one exact dot task per worker
//                           (STARPU_REDUX into an exact accumulator), round, unregister
//   starpu-plain  / cpu-Cc  the same task graph with a plain-double codelet written below:
//                           per-task double partial sums, merged in double (not reproducible)
//   openblas      / cpu-Cc  cblas_ddot with openblas_set_num_threads(C)
//   exstar-kernel / cpu-1c  exstar_cpu_dot + exstar_cpu_acc_round alone, one thread, no
//                           StarPU: the arithmetic without the runtime
//   openblas      / cpu-1c  cblas_ddot on one thread: the kernel-to-kernel baseline
// Each round times every implementation once (see measure() in bench_util.hpp); StarPU's
// workers are paused while OpenBLAS and the bare kernel run, so they do not compete for cores.
// openblas_set_num_threads(C or 1) is called, untimed, before each OpenBLAS call. CSV columns: op,n,backend,implementation,seconds,GBps
// with GBps = 16·n / seconds / 1e9. stdout ends with the ratios at n = 2^ref (default 2^24).
// Exit status 1 when the StarPU and kernel-only exact results differ in a bit (they may not).
#include "bench/bench_util.hpp"
#include "kernels_cpu/kernels_cpu.h"

#include <cinttypes>

namespace {

using namespace exstar_bench;

// ---- the plain-double baseline codelet (bench only: not part of exstar) --------------------
struct plain_dot_args {
  int64_t n, off; // elements and first element (unit stride) in both vectors
};

// Four independent partial sums, so that the baseline is bound by memory like OpenBLAS,
// not by the latency of one chain of additions. Still plain double: the rounding errors
// depend on the split, hence on the number of workers.
void plain_dot_cpu(void *buffers[], void *cl_arg)
{
  plain_dot_args a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const double *x = (const double *)STARPU_VECTOR_GET_PTR(buffers[0]) + a.off;
  const double *y = (const double *)STARPU_VECTOR_GET_PTR(buffers[1]) + a.off;
  double s[4] = {0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 4 <= a.n; i += 4)
    for (int l = 0; l < 4; ++l) s[l] += x[i + l] * y[i + l];
  for (; i < a.n; ++i) s[0] += x[i] * y[i];
  *(double *)STARPU_VARIABLE_GET_PTR(buffers[2]) += (s[0] + s[1]) + (s[2] + s[3]);
}

void plain_zero_cpu(void *buffers[], void *) { *(double *)STARPU_VARIABLE_GET_PTR(buffers[0]) = 0.0; }

void plain_add_cpu(void *buffers[], void *)
{
  *(double *)STARPU_VARIABLE_GET_PTR(buffers[0]) += *(const double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
}

struct starpu_perfmodel plain_dot_model;
struct starpu_codelet plain_dot_cl, plain_zero_cl, plain_add_cl;

void make_plain_codelets()
{
  plain_dot_model.type = STARPU_HISTORY_BASED;
  plain_dot_model.symbol = "exstar_bench_plain_dot";
  starpu_codelet_init(&plain_dot_cl);
  plain_dot_cl.cpu_funcs[0] = plain_dot_cpu;
  plain_dot_cl.nbuffers = 3;
  plain_dot_cl.modes[0] = STARPU_R;
  plain_dot_cl.modes[1] = STARPU_R;
  plain_dot_cl.modes[2] = STARPU_REDUX;
  plain_dot_cl.model = &plain_dot_model;
  plain_dot_cl.name = "bench_plain_dot";
  starpu_codelet_init(&plain_zero_cl);
  plain_zero_cl.cpu_funcs[0] = plain_zero_cpu;
  plain_zero_cl.nbuffers = 1;
  plain_zero_cl.modes[0] = STARPU_W;
  plain_zero_cl.name = "bench_plain_zero";
  starpu_codelet_init(&plain_add_cl);
  plain_add_cl.cpu_funcs[0] = plain_add_cpu;
  plain_add_cl.nbuffers = 2;
  plain_add_cl.modes[0] = STARPU_RW;
  plain_add_cl.modes[1] = STARPU_R;
  plain_add_cl.name = "bench_plain_add";
}

// The shape of exstar_ddot's graph: register, one task per worker on contiguous ranges,
// REDUX into one handle, unregister (which waits and writes the merged value home).
double starpu_plain_dot(int64_t n, const double *x, const double *y)
{
  starpu_data_handle_t hx, hy, hr;
  double value = 0.0;
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, (uint32_t)n, sizeof(double));
  starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y, (uint32_t)n, sizeof(double));
  starpu_variable_data_register(&hr, STARPU_MAIN_RAM, (uintptr_t)&value, sizeof(double));
  starpu_data_set_reduction_methods(hr, &plain_add_cl, &plain_zero_cl);
  int64_t nparts = std::max(1u, starpu_worker_get_count());
  for (int64_t k = 0; k < nparts; ++k) {
    plain_dot_args a{n * (k + 1) / nparts - n * k / nparts, n * k / nparts};
    int ret = starpu_task_insert(&plain_dot_cl, STARPU_R, hx, STARPU_R, hy, STARPU_REDUX, hr, STARPU_VALUE, &a,
                                 sizeof a, 0);
    if (ret != 0) { std::fprintf(stderr, "starpu_task_insert: %d\n", ret); std::exit(1); }
  }
  starpu_data_unregister(hr);
  starpu_data_unregister(hx);
  starpu_data_unregister(hy);
  return value;
}

// ---- exact paths ------------------------------------------------------------------------------
double exact_kernel_dot(int64_t n, const double *x, const double *y)
{
  exstar_i64 acc[EXSTAR_ACC_WORDS];
  exstar_cpu_acc_zero(acc, 1);
  exstar_cpu_dot(n, x, 0, 1, y, 0, 1, acc);
  return exstar_cpu_acc_round(acc);
}

double exact_starpu_dot(int64_t n, const double *x, const double *y)
{
  double r;
  check(exstar_ddot(n, x, 1, y, 1, &r), "exstar_ddot");
  return r;
}

uint64_t bits_of(double d)
{
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

} // namespace

int main(int argc, char **argv)
{
  Options o = parse_options(argc, argv, Options{}, "exact dot vs OpenBLAS ddot vs plain StarPU dot");
  const int64_t nmax = int64_t(1) << o.max_log2n;
  std::vector<double> x(nmax), y(nmax);
  fill(x, 1, o.data);
  fill(y, 2, o.data);
  const std::string multi = backend_name(o.cores), one = backend_name(1);
  Csv csv(o.csv, o.quiet);
  std::printf("exstar_bench_dot: n = 2^%d..2^%d, %d reps (median, after 1 warm-up), data %s\n", o.min_log2n,
              o.max_log2n, o.reps, o.data.c_str());
  std::printf("OpenBLAS %s, threads: %d (%s) and 1 (%s)\n", openblas_info().c_str(), o.cores, multi.c_str(),
              one.c_str());
  std::printf("StarPU: %d CPU workers (STARPU_NCPU), scheduler %s, one dot task per worker\n", o.cores,
              o.sched.c_str());

  start_exstar(o.cores, o.sched);
  make_plain_codelets();
  int mismatches = 0;
  for (int k = o.min_log2n; k <= o.max_log2n; ++k) {
    const int64_t n = int64_t(1) << k;
    const double *px = x.data(), *py = y.data();
    double kernel = 0, exact = 0, plain = 0;
    volatile double sink = 0;
    std::vector<Candidate> cands = {
        {multi, "openblas", false, [&] { sink = cblas_ddot((int)n, px, 1, py, 1); }, [&] { openblas_threads(o.cores); }},
        {one, "openblas", false, [&] { sink = cblas_ddot((int)n, px, 1, py, 1); }, [&] { openblas_threads(1); }},
        {one, "exstar-kernel", false, [&] { kernel = exact_kernel_dot(n, px, py); }},
        {multi, "exstar", true, [&] { exact = exact_starpu_dot(n, px, py); }},
        {multi, "starpu-plain", true, [&] { plain = starpu_plain_dot(n, px, py); }},
    };
    measure(csv, "dot", n, 16.0 * n, o.reps, cands);
    if (bits_of(exact) != bits_of(kernel)) {
      std::fprintf(stderr, "MISMATCH n=2^%d: exstar_ddot %a, kernel %a\n", k, exact, kernel);
      ++mismatches;
    }
    if (!o.quiet)
      std::printf("      n=2^%d exact %.17g  plain %.17g  (plain - exact = %.3g)\n", k, exact, plain, plain - exact);
  }
  stop_exstar();

  // Summary at the reference size (or the largest measured, if it lies outside the range).
  int ref = std::min(std::max(o.ref_log2n, o.min_log2n), o.max_log2n);
  const int64_t n = int64_t(1) << ref;
  std::printf("\nsummary at n = 2^%d (%" PRId64 "), %d cores:\n", ref, n, o.cores);
  print_ratio("  exact dot (exstar_ddot, StarPU) / OpenBLAS ddot", csv.seconds("dot", n, multi, "exstar"),
              csv.seconds("dot", n, multi, "openblas"), 2.0);
  print_ratio("  exact kernel alone / OpenBLAS ddot, 1 thread", csv.seconds("dot", n, one, "exstar-kernel"),
              csv.seconds("dot", n, one, "openblas"), 0);
  print_ratio("  plain StarPU dot / OpenBLAS ddot", csv.seconds("dot", n, multi, "starpu-plain"),
              csv.seconds("dot", n, multi, "openblas"), 0);
  print_ratio("  exact dot / plain StarPU dot (cost of exactness in the graph)", csv.seconds("dot", n, multi, "exstar"),
              csv.seconds("dot", n, multi, "starpu-plain"), 0);
  if (mismatches) std::printf("%d size(s) where the StarPU and kernel-only exact results differ\n", mismatches);
  return mismatches ? 1 : 0;
}
