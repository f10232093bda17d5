// Shared helpers of the exstar CPU benchmarks (bench_dot, bench_gemv, bench_trsv, later LU):
// command line, timing (steady_clock, median after a warm-up), CSV output, OpenBLAS thread
// control, random data, and starting exstar on CPU workers only.
//
// A benchmark is: parse Options, fill the inputs once at the largest size, start exstar, then
// for each size build a list of Candidates (one per implementation) and call measure(), which
// times them round-robin and adds one CSV row each. Every implementation of one op writes the
// same columns, so one plot script draws them all:
//   op,n,backend,implementation,seconds,GBps
// backend says where it ran and on how many cores ("cpu-2c"), implementation what ran
// ("exstar", "openblas", ...). GBps is the op's nominal bytes read / seconds / 1e9 (dot:
// 16·n, gemv: 8·n², trsv: 4·n²), so implementations of one op compare directly.
#pragma once

#include <cblas.h> // OpenBLAS's own cblas.h (openblas_set_num_threads, openblas_get_config)
#include <exstar/exstar.h>
#include "kernels_cpu/wide.h" // exstar_cpu_wide_enabled: which copy of the CPU kernels runs

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace exstar_bench {

// ---- command line ------------------------------------------------------------------------
struct Options {
  int min_log2n = 20;      // sizes n = 2^min_log2n .. 2^max_log2n
  int max_log2n = 27;
  int reps = 10;           // timed repetitions per (n, implementation); the median is kept
  int cores = 2;           // StarPU CPU workers (STARPU_NCPU) and OpenBLAS threads
  std::string sched = "eager"; // StarPU scheduler
  std::string csv;         // output file ("" : none)
  std::string data = "uniform"; // uniform in [-1, 1) or "wide" (exponents -300..300)
  int ref_log2n = 24;      // the size of the summary ratio
  bool quiet = false;      // no per-measurement lines on stdout
};

inline void usage(const char *prog, const Options &o, const char *what)
{
  std::fprintf(stderr,
               "usage: %s [options]   (%s)\n"
               "  --min-log2n K   smallest n = 2^K (default %d)\n"
               "  --max-log2n K   largest n = 2^K (default %d)\n"
               "  --reps R        timed runs per point, median kept, after one warm-up (default %d)\n"
               "  --cores C       StarPU CPU workers and OpenBLAS threads (default %d)\n"
               "  --sched NAME    StarPU scheduler (default %s)\n"
               "  --csv FILE      write CSV lines op,n,backend,implementation,seconds,GBps\n"
               "  --data KIND     uniform (default) or wide (random exponents, more spill)\n"
               "  --ref-log2n K   size of the summary ratio (default %d)\n"
               "  --quiet         summary only on stdout\n",
               prog, what, o.min_log2n, o.max_log2n, o.reps, o.cores, o.sched.c_str(), o.ref_log2n);
}

// Parses the common options over the defaults in o; exits 2 on a bad command line.
inline Options parse_options(int argc, char **argv, Options o, const char *what)
{
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) { std::fprintf(stderr, "%s: %s needs a value\n", argv[0], a.c_str()); std::exit(2); }
      return argv[++i];
    };
    auto integer = [&]() { return std::atoi(value().c_str()); };
    if (a == "--min-log2n") o.min_log2n = integer();
    else if (a == "--max-log2n") o.max_log2n = integer();
    else if (a == "--reps") o.reps = integer();
    else if (a == "--cores") o.cores = integer();
    else if (a == "--sched") o.sched = value();
    else if (a == "--csv") o.csv = value();
    else if (a == "--data") o.data = value();
    else if (a == "--ref-log2n") o.ref_log2n = integer();
    else if (a == "--quiet") o.quiet = true;
    else {
      usage(argv[0], o, what);
      std::exit(a == "--help" || a == "-h" ? 0 : 2);
    }
  }
  if (o.min_log2n < 0 || o.max_log2n < o.min_log2n || o.max_log2n > 31 || o.reps < 1 || o.cores < 1 ||
      (o.data != "uniform" && o.data != "wide")) {
    usage(argv[0], o, what);
    std::exit(2);
  }
  return o;
}

// ---- timing ------------------------------------------------------------------------------
template <class F> double seconds_of(F &&f)
{
  auto t0 = std::chrono::steady_clock::now();
  f();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

inline double median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// ---- CSV ---------------------------------------------------------------------------------
struct Result {
  std::string op, backend, implementation;
  int64_t n;
  double seconds, gbps;
};

class Csv {
public:
  // path "" : results are only kept in memory (for the summary) and echoed unless quiet.
  Csv(const std::string &path, bool quiet) : quiet_(quiet)
  {
    if (path.empty()) return;
    f_ = std::fopen(path.c_str(), "w");
    if (!f_) { std::perror(path.c_str()); std::exit(1); }
    std::fputs("op,n,backend,implementation,seconds,GBps\n", f_);
  }
  ~Csv() { if (f_) std::fclose(f_); }
  Csv(const Csv &) = delete;
  Csv &operator=(const Csv &) = delete;

  // bytes: the op's nominal bytes read, for the GBps column.
  void add(const std::string &op, int64_t n, const std::string &backend, const std::string &impl, double seconds,
           double bytes)
  {
    Result r{op, backend, impl, n, seconds, bytes / seconds * 1e-9};
    rows_.push_back(r);
    if (f_) {
      std::fprintf(f_, "%s,%lld,%s,%s,%.9e,%.3f\n", op.c_str(), (long long)n, backend.c_str(), impl.c_str(),
                   seconds, r.gbps);
      std::fflush(f_);
    }
    if (!quiet_)
      std::printf("%-5s n=%-10lld %-7s %-16s %12.6f ms %9.3f GB/s\n", op.c_str(), (long long)n, backend.c_str(),
                  impl.c_str(), seconds * 1e3, r.gbps);
    std::fflush(stdout);
  }
  // Seconds of (op, n, backend, implementation), or NaN when not measured.
  double seconds(const std::string &op, int64_t n, const std::string &backend, const std::string &impl) const
  {
    for (const Result &r : rows_)
      if (r.op == op && r.n == n && r.backend == backend && r.implementation == impl) return r.seconds;
    return NAN;
  }

private:
  std::FILE *f_ = nullptr;
  bool quiet_;
  std::vector<Result> rows_;
};

// Prints "label: a / b = ratio (target <= t)" (no target when t <= 0); returns whether it is met.
inline bool print_ratio(const char *label, double a, double b, double target)
{
  double r = a / b;
  if (std::isnan(r)) {
    std::printf("%s: not measured\n", label);
    return false;
  }
  std::printf("%s: %.4f ms / %.4f ms = %.2fx", label, a * 1e3, b * 1e3, r);
  if (target > 0) std::printf(" (target <= %.1fx: %s)", target, r <= target ? "met" : "NOT met");
  std::printf("\n");
  return target <= 0 || r <= target;
}

inline std::string backend_name(int cores) { return "cpu-" + std::to_string(cores) + "c"; }

// ---- OpenBLAS ----------------------------------------------------------------------------
// OpenBLAS keeps its threads after a call; the count set here bounds every later call.
inline void openblas_threads(int n) { openblas_set_num_threads(n); }
inline std::string openblas_info() { return std::string(openblas_get_config()) + " (" + openblas_get_corename() + ")"; }

// ---- data --------------------------------------------------------------------------------
// Deterministic inputs: uniform in [-1, 1), or "wide": uniform mantissa with a random
// exponent in [-300, 300] (products far apart in magnitude: the exact kernels spill more).
inline void fill(std::vector<double> &v, uint64_t seed, const std::string &kind)
{
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> e(-300, 300);
  for (double &x : v) x = kind == "wide" ? std::ldexp(u(g), e(g)) : u(g);
}

// ---- exstar on CPU workers ----------------------------------------------------------------
// Starts exstar (and StarPU) with `cores` CPU workers only, STARPU_NCPU = cores, scheduler
// sched. Exits on failure: a benchmark without its runtime measures nothing.
// The copy of the hot CPU kernels that runs: the AVX-512 one (kernels_cpu/wide.h) or the
// baseline build (EXSTAR_CPU_ARCH, x86-64-v3 = AVX2 + FMA by default). The checked fast paths
// (gemm, trsm, gemv, trsv) exist in the baseline build only.
inline const char *cpu_kernel_copy()
{
  if (exstar_cpu_wide_enabled()) return "AVX-512 copy (sum, dot, exact gemv_acc at 512 bits; fast paths AVX2)";
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) return "baseline copy, AVX2 (EXSTAR_CPU_ISA=baseline or no wide build; the CPU has AVX-512)";
  if (__builtin_cpu_supports("avx2")) return "baseline copy, AVX2 (the CPU has no AVX-512)";
#endif
  return "baseline copy";
}

inline void start_exstar(int cores, const std::string &sched)
{
  setenv("STARPU_SILENT", "1", 0);
  exstar_config cfg;
  exstar_config_default(&cfg);
  cfg.backends = EXSTAR_BACKEND_CPU;
  cfg.ncpus = cores;
  cfg.nopencl = 0;
  cfg.ncuda = 0;
  cfg.sched = sched.c_str();
  cfg.require = 1;
  // which copy of the hot CPU kernels runs (kernels_cpu/isa.cpp); run-bench.sh reports it
  std::printf("CPU kernels: %s\n", cpu_kernel_copy());
  if (exstar_init(&cfg) != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "exstar_init: %s\n", exstar_last_error());
    std::exit(1);
  }
  int w = exstar_worker_count(EXSTAR_BACKEND_CPU);
  if (w != cores) std::fprintf(stderr, "warning: StarPU started %d CPU workers, %d asked\n", w, cores);
}

// That an exact factorization gives the same bits at every run of one size (bench_lu,
// bench_potrf). An exact run's untimed prepare calls before_run, which compares the factors the
// run before left (if any) with the first run's; after the last run, check does the same.
struct repro_check {
  const char *what; // "exact LU factors"
  int failures = 0;
  std::vector<double> first;
  bool ran = false;

  explicit repro_check(const char *w) : what(w) {}
  void new_size() { first.clear(), ran = false; }
  // The n x n factors at f, of the last exact run since new_size (if one ran), against the first.
  void check(const double *f, int64_t n)
  {
    if (!ran) return;
    if (first.empty()) {
      first.assign(f, f + n * n);
    } else if (!std::equal(first.begin(), first.end(), f)) {
      std::fprintf(stderr, "NOT REPRODUCIBLE n=%lld: %s changed between runs\n", (long long)n, what);
      ++failures;
    }
  }
  void before_run(const double *f, int64_t n) { check(f, n), ran = true; }
  // The end of the program's report, and its exit status.
  int report() const
  {
    if (failures) std::printf("%d run(s) where the %s were not reproduced\n", failures, what);
    return failures ? 1 : 0;
  }
};

inline void check(int status, const char *what)
{
  if (status != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "%s: %s (%s)\n", what, exstar_last_error(), exstar_status_name(status));
    std::exit(1);
  }
}

// StarPU's CPU workers poll for work when idle (Debian's StarPU has non-blocking drivers), so
// they would steal the cores from OpenBLAS and the bare kernels. While paused they sleep.
inline bool &starpu_paused()
{
  static bool paused = false;
  return paused;
}
inline void starpu_workers_run(bool run)
{
  if (!starpu_is_initialized() || run == !starpu_paused()) return;
  if (run) starpu_resume(); else starpu_pause();
  starpu_paused() = !run;
}
inline void stop_exstar()
{
  starpu_workers_run(true); // StarPU may not shut down while paused
  check(exstar_shutdown(), "exstar_shutdown");
}

// ---- measuring ---------------------------------------------------------------------------
// One implementation of an op at one size: what ran where, and a call to time.
struct Candidate {
  std::string backend, implementation;
  bool starpu;                // runs tasks: StarPU workers must be awake; else they sleep
  std::function<void()> run;  // one complete call (registration and rounding included)
  std::function<void()> prepare = nullptr; // untimed, before each call (e.g. thread count)
};

// Times each candidate reps times after one warm-up call each (page faults, OpenBLAS thread
// start, StarPU buffers and perfmodels), round-robin: round r times every candidate once, so
// that a change of machine load (this machine is shared) hits all of them alike and the
// ratios stay meaningful. Adds the median of each to csv; bytes: the op's nominal bytes read.
inline void measure(Csv &csv, const std::string &op, int64_t n, double bytes, int reps,
                    std::vector<Candidate> &cands)
{
  std::vector<std::vector<double>> t(cands.size());
  for (int r = -1; r < reps; ++r)
    for (size_t c = 0; c < cands.size(); ++c) {
      starpu_workers_run(cands[c].starpu);
      if (cands[c].prepare) cands[c].prepare();
      double s = seconds_of(cands[c].run);
      if (r >= 0) t[c].push_back(s);
    }
  for (size_t c = 0; c < cands.size(); ++c)
    csv.add(op, n, cands[c].backend, cands[c].implementation, median(t[c]), bytes);
}

} // namespace exstar_bench
