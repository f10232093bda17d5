// Micro-benchmark and bit check of the exact CUDA gemv kernels (no StarPU): exstar_cuda_gemv_acc
// + exstar_cuda_gemv_finish against cublasDgemv, for 'N' and 'T'.
//
//   cuda_gemv_bench [--min-log K] [--max-log K] [--reps R] [--data uniform|wide]
//                   [--check-n N] [--no-check] [--no-big-check]
//
// Timing: n x n, lda = n, α = 1, β = 0, n = 2^min-log .. 2^max-log (default 1024 .. 16384); CSV
// lines op,n,backend,implementation,seconds,GBps on stdout (op gemv_n / gemv_t, backend cuda,
// implementation exstar-kernels / cublas); seconds: median of R (default 10) runs after 3 warm-ups,
// CUDA events on one stream; the exact gemv is timed whole: zeroing the accumulators
// (exstar_cuda_acc_zero, a cudaMemsetAsync) + gemv_acc + gemv_finish. GBps: 8·n² bytes / seconds.
// The ratio exact / cuBLAS per size goes to stderr.
//
// Check (before the timing, unless --no-check): y, and the accumulators, must equal bit for bit
// those of the CPU exact kernels (exstar_cpu_gemv_acc + exstar_cpu_gemv_finish) for 'N' and 'T',
// α ∈ {1, 0.3}, β ∈ {0, -2}, data uniform, wide (random exponents in [-300, 300]) and special
// (±0, ±inf, NaN, subnormals, huge and tiny values sprinkled over uniform data) and zeros (signed
// zero outputs), at n = --check-n
// (default 1024) and at odd shapes (m odd, lda > m, A at an odd offset, negative strides). Unless
// --no-big-check, two shapes of more than 2^26 terms per output as well (the launchers' slabs).
// Prints PASS or FAIL lines on stderr; exit status 1 on any mismatch.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernels_cpu/gemv.h"
#include "kernels_cpu/acc_cpu.h"
#include "kernels_cuda/gemv.h"
#include "kernels_cuda/kernels_cuda.h"
#include "bench/cuda/bench_cuda.hpp"


namespace {

constexpr long long kW = EXSTAR_ACC_WORDS;

enum class data_kind { uniform, wide, special, zeros };

const char *name_of(data_kind d)
{
  switch (d) {
  case data_kind::uniform: return "uniform";
  case data_kind::wide: return "wide";
  case data_kind::special: return "special";
  default: return "zeros";
  }
}

// ---- deterministic data ---------------------------------------------------------------------

unsigned long long mix(unsigned long long z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One value: uniform in [-1, 1); wide: random sign, mantissa and exponent in [-300, 300];
// special: uniform with about one value in 512 replaced by ±0, ±inf, NaN, a subnormal, or a value
// near the ends of the double range; zeros: the matrix -0 with a rare +0, x positive with a rare
// negative value (outputs of signed zeros: -0 exactly when every term is -0).
double value(unsigned long long seed, unsigned long long i, data_kind kind, bool is_matrix)
{
  const unsigned long long r = mix(seed * 0x100000001b3ULL + i);
  const double u = (double)(r >> 11) * 0x1p-53;
  if (kind == data_kind::zeros) {
    const bool rare = (r & 2047) == 0;
    if (is_matrix) return rare ? 0.0 : -0.0;
    return rare ? -(0.5 + u) : 0.5 + u;
  }
  if (kind == data_kind::wide) {
    const int e = (int)((r >> 1) % 601) - 300;
    const double m = 0.5 + 0.5 * u;
    return (r & 1) ? -std::ldexp(m, e) : std::ldexp(m, e);
  }
  if (kind == data_kind::special && (r & 511) == 0) {
    const double neg = (r & 64) ? -1.0 : 1.0;
    switch ((r >> 7) % 8) {
    case 0: return neg * 0.0;
    case 1: return neg * 0.0;
    case 2: return neg * INFINITY;
    case 3: return NAN;
    case 4: return neg * std::ldexp(1.0 + u, -1060);  // subnormal
    case 5: return neg * std::ldexp(1.0 + u, 1000);   // huge: products leave the TwoProd window
    case 6: return neg * std::ldexp(1.0 + u, -1000);  // tiny
    default: return neg * 0x1.fffffffffffffp1023;
    }
  }
  return 2.0 * u - 1.0;
}

__global__ void fill_uniform(double *v, long long n, unsigned long long seed)
{
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned long long z = seed * 0x100000001b3ULL + (unsigned long long)i + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    v[i] = 2.0 * ((double)(z >> 11) * 0x1p-53) - 1.0;
  }
}

// ---- the bit check --------------------------------------------------------------------------

// One shape: A is m x n with leading dimension lda at element offset offa of its buffer; x and
// y with strides incx, incy (offsets 0, BLAS rules for negative strides).
struct shape {
  char trans;
  long long m, n, lda, offa, incx, incy;
};

template <class T> struct device_buffer {
  T *p = nullptr;
  explicit device_buffer(size_t count) { CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T))); }
  ~device_buffer() { cudaFree(p); }
  device_buffer(const device_buffer &) = delete;
  device_buffer &operator=(const device_buffer &) = delete;
};

long long abs_ll(long long v) { return v < 0 ? -v : v; }

// Runs one case on the GPU and the CPU; returns the number of mismatching words (y and acc).
long long check_case(const shape &sh, double alpha, double beta, data_kind kind, cudaStream_t s)
{
  const bool nt = sh.trans == 'N';
  const long long lenx = nt ? sh.n : sh.m, leny = nt ? sh.m : sh.n;
  const size_t asz = (size_t)(sh.offa + sh.lda * (sh.n - 1) + sh.m);
  const size_t xsz = (size_t)(1 + (lenx - 1) * abs_ll(sh.incx)), ysz = (size_t)(1 + (leny - 1) * abs_ll(sh.incy));
  std::vector<double> A(asz), x(xsz), y(ysz);
  for (size_t i = 0; i < asz; ++i) A[i] = value(11, i, kind, true);
  for (size_t i = 0; i < xsz; ++i) x[i] = value(12, i, kind, false);
  for (size_t i = 0; i < ysz; ++i) y[i] = value(13, i, kind == data_kind::zeros ? data_kind::uniform : kind, false);
  // CPU reference
  std::vector<long long> acc_cpu((size_t)(leny * kW), 0);
  std::vector<double> y_cpu = y;
  exstar_cpu_gemv_acc(sh.trans, sh.m, sh.n, alpha, A.data(), sh.offa, sh.lda, x.data(), 0, sh.incx, acc_cpu.data(), 0);
  // the words compared in canonical form (the CPU kernels may leave a short call unnormalized)
  for (size_t k = 0; k < acc_cpu.size(); k += kW) exstar_acc_normalize_cpu(acc_cpu.data() + k);
  exstar_cpu_gemv_finish(leny, beta, y_cpu.data(), 0, sh.incy, acc_cpu.data(), 0);
  // GPU
  device_buffer<double> dA(asz), dx(xsz), dy(ysz);
  device_buffer<long long> dacc((size_t)(leny * kW));
  CHECK_CUDA(cudaMemcpy(dA.p, A.data(), asz * sizeof(double), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dx.p, x.data(), xsz * sizeof(double), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy.p, y.data(), ysz * sizeof(double), cudaMemcpyHostToDevice));
  exstar_cuda_stream es = reinterpret_cast<exstar_cuda_stream>(s);
  CHECK_EXSTAR(exstar_cuda_acc_zero(dacc.p, leny, es));
  CHECK_EXSTAR(exstar_cuda_gemv_acc(sh.trans, sh.m, sh.n, alpha, dA.p, sh.offa, sh.lda, dx.p, 0, sh.incx, dacc.p, 0, es));
  CHECK_EXSTAR(exstar_cuda_gemv_finish(leny, beta, dy.p, 0, sh.incy, dacc.p, 0, es));
  std::vector<long long> acc_gpu((size_t)(leny * kW));
  std::vector<double> y_gpu(ysz);
  CHECK_CUDA(cudaMemcpyAsync(acc_gpu.data(), dacc.p, acc_gpu.size() * sizeof(long long), cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaMemcpyAsync(y_gpu.data(), dy.p, ysz * sizeof(double), cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  long long bad = 0;
  for (size_t i = 0; i < acc_gpu.size(); ++i) bad += acc_gpu[i] != acc_cpu[i];
  long long first = -1;
  for (size_t i = 0; i < ysz; ++i)
    if (std::memcmp(&y_gpu[i], &y_cpu[i], sizeof(double)) != 0) {
      if (first < 0) first = (long long)i;
      ++bad;
    }
  std::fprintf(stderr, "%s trans=%c m=%lld n=%lld lda=%lld offa=%lld incx=%lld incy=%lld alpha=%g beta=%g data=%s",
               bad ? "FAIL" : "PASS", sh.trans, sh.m, sh.n, sh.lda, sh.offa, sh.incx, sh.incy, alpha, beta,
               name_of(kind));
  if (first >= 0) std::fprintf(stderr, " (y[%lld]: gpu %a cpu %a)", first, y_gpu[first], y_cpu[first]);
  std::fprintf(stderr, "\n");
  return bad;
}

long long run_checks(long long n, bool big, cudaStream_t s)
{
  long long bad = 0;
  const double alphas[] = {1.0, 0.3}, betas[] = {0.0, -2.0};
  const data_kind kinds[] = {data_kind::uniform, data_kind::wide, data_kind::special, data_kind::zeros};
  for (char tr : {'N', 'T'})
    for (double a : alphas)
      for (double b : betas)
        for (data_kind k : kinds) bad += check_case({tr, n, n, n, 0, 1, 1}, a, b, k, s);
  // odd shapes: m odd (the last row / row pair), lda > m, A at an odd offset (unaligned: the
  // one-double kernels), negative strides, fewer rows than columns and the other way round
  const shape odd[] = {{'N', 777, 301, 780, 0, 1, 1},  {'T', 777, 301, 780, 0, 1, 1},
                       {'N', 777, 301, 781, 3, -2, 3}, {'T', 777, 301, 781, 3, -2, -1},
                       {'N', 5, 4099, 6, 1, 1, 1},     {'T', 4099, 5, 4100, 2, 1, 1},
                       {'N', 1, 1, 1, 0, 1, 1},        {'T', 1, 1, 1, 0, 1, 1}};
  for (const shape &sh : odd)
    for (data_kind k : kinds) bad += check_case(sh, 0.3, -2.0, k, s);
  for (const shape &sh : odd) bad += check_case(sh, 1.0, 0.0, data_kind::uniform, s);
  if (big) { // more than 2^26 terms per output: several slabs
    const long long len = (1LL << 26) + 3;
    bad += check_case({'N', 1, len, 1, 0, 1, 1}, 1.0, 0.0, data_kind::uniform, s);
    bad += check_case({'T', len, 1, len, 0, 1, 1}, 0.3, 0.0, data_kind::wide, s);
  }
  return bad;
}

// ---- timing ---------------------------------------------------------------------------------

double median_seconds(cudaStream_t s, int reps, const std::function<void()> &op)
{
  return time_stream(s, reps, nullptr, op);
}

void print(const char *op, long long n, const char *impl, double sec)
{
  std::printf("%s,%lld,cuda,%s,%.9e,%.2f\n", op, n, impl, sec, 8.0 * n * n / sec * 1e-9);
  std::fflush(stdout);
}

void run_timing(int min_log, int max_log, int reps, data_kind kind, cudaStream_t s)
{
  const long long nmax = 1LL << max_log;
  device_buffer<double> A((size_t)(nmax * nmax)), x((size_t)nmax), y((size_t)nmax);
  device_buffer<long long> acc((size_t)(nmax * kW));
  if (kind == data_kind::uniform) {
    fill_uniform<<<1024, 256, 0, s>>>(A.p, nmax * nmax, 1);
    fill_uniform<<<1024, 256, 0, s>>>(x.p, nmax, 2);
    CHECK_CUDA(cudaGetLastError());
  } else { // the host generator, for the other kinds
    std::vector<double> h((size_t)(nmax * nmax));
    for (size_t i = 0; i < h.size(); ++i) h[i] = value(1, i, kind, true);
    CHECK_CUDA(cudaMemcpy(A.p, h.data(), h.size() * sizeof(double), cudaMemcpyHostToDevice));
    for (long long i = 0; i < nmax; ++i) h[(size_t)i] = value(2, (unsigned long long)i, kind, false);
    CHECK_CUDA(cudaMemcpy(x.p, h.data(), nmax * sizeof(double), cudaMemcpyHostToDevice));
  }
  CHECK_CUDA(cudaStreamSynchronize(s));
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  CHECK_CUBLAS(cublasSetStream(h, s));
  const exstar_cuda_stream es = reinterpret_cast<exstar_cuda_stream>(s);
  const double one = 1.0, zero = 0.0;
  std::printf("op,n,backend,implementation,seconds,GBps\n");
  for (int k = min_log; k <= max_log; ++k) {
    const long long n = 1LL << k;
    for (char tr : {'N', 'T'}) {
      const char *op = tr == 'N' ? "gemv_n" : "gemv_t";
      const double te = median_seconds(s, reps, [&] {
        CHECK_EXSTAR(exstar_cuda_acc_zero(acc.p, n, es));
        CHECK_EXSTAR(exstar_cuda_gemv_acc(tr, n, n, 1.0, A.p, 0, n, x.p, 0, 1, acc.p, 0, es));
        CHECK_EXSTAR(exstar_cuda_gemv_finish(n, 0.0, y.p, 0, 1, acc.p, 0, es));
      });
      print(op, n, "exstar-kernels", te);
      const double tc = median_seconds(s, reps, [&] {
        CHECK_CUBLAS(cublasDgemv(h, tr == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T, (int)n, (int)n, &one, A.p, (int)n, x.p, 1,
                                 &zero, y.p, 1));
      });
      print(op, n, "cublas", tc);
      std::fprintf(stderr, "%s n=%lld: exact %.4f ms, cublas %.4f ms, ratio %.2fx\n", op, n, te * 1e3, tc * 1e3, te / tc);
    }
  }
  cublasDestroy(h);
}

} // namespace

int main(int argc, char **argv)
{
  sweep_options sw{10, 14, 10, false};
  long long check_n = 1024;
  bool check = true, big = true;
  for (int i = 1; i < argc; ++i) {
    if (take_sweep_option(argc, argv, i, sw)) continue;
    const std::string a = argv[i];
    if (a == "--check-n") check_n = std::atoll(option_value(argc, argv, i));
    else if (a == "--no-check") check = false;
    else if (a == "--no-big-check") big = false;
    else {
      std::fprintf(stderr, "usage: %s [--min-log K] [--max-log K] [--reps R] [--data uniform|wide] "
                           "[--check-n N] [--no-check] [--no-big-check]\n", argv[0]);
      return 2;
    }
  }
  const int min_log = sw.min_log, max_log = sw.max_log, reps = sw.reps;
  const data_kind kind = sw.wide ? data_kind::wide : data_kind::uniform;
  if (min_log < 0 || max_log > 16 || min_log > max_log || reps < 1 || check_n < 1) {
    std::fprintf(stderr, "bad sizes or reps\n");
    return 2;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  long long bad = 0;
  if (check) {
    bad = run_checks(check_n, big, s);
    std::fprintf(stderr, "bit check against the CPU exact kernels: %s (%lld mismatching words)\n",
                 bad ? "FAIL" : "PASS", bad);
  }
  run_timing(min_log, max_log, reps, kind, s);
  cudaStreamDestroy(s);
  return bad ? 1 : 0;
}
