// CUDA kernels against the CPU kernels, bit for bit: the rounded double and the normalized
// accumulator words (digits and special-term counters) must be identical.
// Exits 77 ("SKIP: no CUDA device") where there is no usable device.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels_cpu/kernels_cpu.h"
#include "kernels_cuda/kernels_cuda.h"

namespace {

using Words = std::vector<long long>;

uint64_t bits(double x)
{
  uint64_t u;
  std::memcpy(&u, &x, 8);
  return u;
}

#define CUDA_OK(call) REQUIRE((call) == cudaSuccess)
#define KERNEL_OK(call)                                                                        \
  do {                                                                                         \
    int rc_ = (call);                                                                          \
    INFO(exstar_cuda_error_string(rc_));                                                       \
    REQUIRE(rc_ == 0);                                                                         \
  } while (0)

// A device buffer holding a copy of a host vector (or n words).
struct Dev {
  void *p = nullptr;
  size_t bytes = 0;
  explicit Dev(size_t b) : bytes(b) { REQUIRE(cudaMalloc(&p, b ? b : 8) == cudaSuccess); }
  Dev(Dev &&o) noexcept : p(o.p), bytes(o.bytes) { o.p = nullptr; }
  Dev(const Dev &) = delete;
  Dev &operator=(const Dev &) = delete;
  Dev &operator=(Dev &&) = delete;
  ~Dev() { cudaFree(p); }
  template <class T> T *as() const { return static_cast<T *>(p); }
};

cudaStream_t g_stream = nullptr;
exstar_cuda_stream stream() { return reinterpret_cast<exstar_cuda_stream>(g_stream); }

// On the kernels' stream, then waited for: a plain cudaMemcpy from pageable memory may return
// before its DMA ends, and g_stream (non-blocking) would not wait for it, so a kernel could read
// a vector half copied (seen once, 2026-11-27: NaN-mix cases whose finite digits differed).
Dev upload(const std::vector<double> &v)
{
  Dev d(v.size() * sizeof(double));
  if (!v.empty()) {
    REQUIRE(cudaMemcpyAsync(d.p, v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice, g_stream) ==
            cudaSuccess);
    REQUIRE(cudaStreamSynchronize(g_stream) == cudaSuccess);
  }
  return d;
}

Words download_words(const Dev &acc)
{
  Words w(EXSTAR_ACC_WORDS);
  REQUIRE(cudaMemcpy(w.data(), acc.p, sizeof(long long) * w.size(), cudaMemcpyDeviceToHost) ==
          cudaSuccess);
  return w;
}

struct Result {
  Words words;
  double value;
};

Result gpu_round(const Dev &acc)
{
  Dev r(sizeof(double));
  KERNEL_OK(exstar_cuda_acc_round(acc.as<long long>(), r.as<double>(), stream()));
  CUDA_OK(cudaStreamSynchronize(g_stream));
  Result res;
  CUDA_OK(cudaMemcpy(&res.value, r.p, sizeof(double), cudaMemcpyDeviceToHost));
  res.words = download_words(acc);
  return res;
}

// A strided vector: the elements and the buffer that holds them.
struct Vec {
  int64_t n, off, inc;
  std::vector<double> buf;
};

Vec place(const std::vector<double> &elems, int64_t off, int64_t inc)
{
  Vec v{(int64_t)elems.size(), off, inc, {}};
  const int64_t n = v.n, step = inc < 0 ? -inc : inc;
  v.buf.assign(n > 0 ? off + (n - 1) * step + 1 : off + 1,
               std::numeric_limits<double>::quiet_NaN()); // gaps are poison
  for (int64_t i = 0; i < n; ++i) {
    int64_t at = inc > 0 ? off + i * inc : off + (n - 1 - i) * step;
    v.buf[at] = elems[i];
  }
  return v;
}

Result cpu_dot(const Vec &x, const Vec &y)
{
  Result r{Words(EXSTAR_ACC_WORDS), 0};
  exstar_cpu_acc_zero(r.words.data(), 1);
  exstar_cpu_dot(x.n, x.buf.data(), x.off, x.inc, y.buf.data(), y.off, y.inc, r.words.data());
  r.value = exstar_cpu_acc_round(r.words.data());
  return r;
}

Result gpu_dot(const Vec &x, const Vec &y)
{
  Dev dx = upload(x.buf), dy = upload(y.buf), acc(sizeof(long long) * EXSTAR_ACC_WORDS);
  KERNEL_OK(exstar_cuda_acc_zero(acc.as<long long>(), 1, stream()));
  KERNEL_OK(exstar_cuda_dot(x.n, dx.as<double>(), x.off, x.inc, dy.as<double>(), y.off, y.inc,
                            acc.as<long long>(), stream()));
  return gpu_round(acc);
}

Result cpu_sum(const Vec &x)
{
  Result r{Words(EXSTAR_ACC_WORDS), 0};
  exstar_cpu_acc_zero(r.words.data(), 1);
  exstar_cpu_sum(x.n, x.buf.data(), x.off, x.inc, r.words.data());
  r.value = exstar_cpu_acc_round(r.words.data());
  return r;
}

Result gpu_sum(const Vec &x)
{
  Dev dx = upload(x.buf), acc(sizeof(long long) * EXSTAR_ACC_WORDS);
  KERNEL_OK(exstar_cuda_acc_zero(acc.as<long long>(), 1, stream()));
  KERNEL_OK(exstar_cuda_sum(x.n, dx.as<double>(), x.off, x.inc, acc.as<long long>(), stream()));
  return gpu_round(acc);
}

void require_same(const Result &gpu, const Result &cpu)
{
  int first_diff = -1;
  for (int i = 0; i < EXSTAR_ACC_WORDS && first_diff < 0; ++i)
    if (gpu.words[i] != cpu.words[i]) first_diff = i;
  INFO("first differing word " << first_diff
                               << (first_diff >= 0 ? " gpu " + std::to_string(gpu.words[first_diff]) +
                                                         " cpu " + std::to_string(cpu.words[first_diff])
                                                   : std::string()));
  char buf[128];
  std::snprintf(buf, sizeof buf, "gpu %a cpu %a", gpu.value, cpu.value);
  INFO(buf);
  CHECK(first_diff == -1);
  CHECK(bits(gpu.value) == bits(cpu.value));
}

// ---- data ------------------------------------------------------------------------------------
std::mt19937_64 &rng()
{
  static std::mt19937_64 g(20261122);
  return g;
}

std::vector<double> uniform(int64_t n)
{
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto &e : v) e = d(rng());
  return v;
}

// Random sign, random mantissa, exponent uniform in [emin, emax].
std::vector<double> wide(int64_t n, int emin, int emax)
{
  std::uniform_real_distribution<double> m(0.5, 1.0);
  std::uniform_int_distribution<int> e(emin, emax);
  std::vector<double> v(n);
  for (auto &x : v) x = std::ldexp(rng()() & 1 ? -m(rng()) : m(rng()), e(rng()));
  return v;
}

std::vector<double> subnormals(int64_t n)
{
  std::vector<double> v(n);
  for (auto &x : v) {
    uint64_t u = rng()() & 0x800fffffffffffffULL; // exponent field 0
    std::memcpy(&x, &u, 8);
  }
  return v;
}

// Mostly uniform, with NaN / ±inf / ±0 sprinkled in at a given rate.
std::vector<double> sprinkle(std::vector<double> v, unsigned mask, int every)
{
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[5] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, 0.0, -0.0};
  std::uniform_int_distribution<int> pick(0, 4);
  for (size_t i = 0; i < v.size(); ++i)
    if (rng()() % every == 0) {
      int k = pick(rng());
      if (mask & (1u << k)) v[i] = specials[k];
    }
  return v;
}

const int64_t kSizes[] = {0, 1, 7, 1000, 1000003, int64_t(1) << 24};

} // namespace

TEST_CASE("dot: random data, every size", "[dot]")
{
  for (int64_t n : kSizes) {
    INFO("n = " << n);
    Vec x = place(uniform(n), 0, 1), y = place(uniform(n), 0, 1);
    require_same(gpu_dot(x, y), cpu_dot(x, y));
  }
}

namespace {

// x · x with one device copy of x, as nrm2 calls it (the kernel then reads x once, through
// core/sumsq.h's windows), against the CPU's dot of x with itself: the same words.
void require_sumsq_words(const std::vector<double> &elems, int64_t off)
{
  const Vec x = place(elems, off, 1);
  Dev dx = upload(x.buf), acc(sizeof(long long) * EXSTAR_ACC_WORDS);
  KERNEL_OK(exstar_cuda_acc_zero(acc.as<long long>(), 1, stream()));
  KERNEL_OK(exstar_cuda_dot(x.n, dx.as<double>(), x.off, 1, dx.as<double>(), x.off, 1, acc.as<long long>(), stream()));
  const Result got = gpu_round(acc), want = cpu_dot(x, x);
  INFO("n = " << x.n << ", off = " << off);
  CHECK(got.words == want.words);
  CHECK(bits(got.value) == bits(want.value));
}

} // namespace

TEST_CASE("nrm2's sum of squares: one read of x gives the dot's exact words, every data class",
          "[dot][nrm2]")
{
  // long enough that every thread fills several windows (2^(C-2) squares each)
  const int64_t n = (int64_t(1) << 25) + 3;
  std::vector<double> v = uniform(n);
  require_sumsq_words(v, 0);
  require_sumsq_words(v, 1); // the peeled first element
  std::vector<double> up(v); // magnitudes growing along each thread's elements: windows reopen
  for (int64_t i = 0; i < n; ++i) up[(size_t)i] = std::ldexp(1.0 + std::fabs(v[(size_t)i]), (int)(i / 4096) % 600 - 300);
  require_sumsq_words(up, 0);
  std::vector<double> down(up.rbegin(), up.rend()); // shrinking: remainders below the window
  require_sumsq_words(down, 0);
  require_sumsq_words(wide(n / 8, -540, 540), 0);  // squares overflow and underflow
  require_sumsq_words(wide(n / 8, -40, 40), 1);
  require_sumsq_words(sprinkle(uniform(n / 8), 0x1f, 1000), 0);
  // squares on both sides of an open window's floor (2^-18 of the square that opened it: here
  // x near 2^-9 against x near 1), full mantissas: the window takes some, the exact step the rest
  std::vector<double> floor_mix = uniform(n / 8);
  for (size_t i = 0; i < floor_mix.size(); ++i) {
    const double u = std::fabs(floor_mix[i]);
    floor_mix[i] = i % 3 == 0 ? 1.0 + u : std::ldexp(i % 3 == 1 ? 1.0 + u / 4 : 1.0 - u / 4, -9);
  }
  require_sumsq_words(floor_mix, 0);
  std::vector<double> mixed = uniform(n / 8);
  for (size_t i = 0; i < mixed.size(); i += 7) mixed[i] = subnormals(1)[0];
  for (size_t i = 3; i < mixed.size(); i += 11) mixed[i] *= 0x1p-400;
  require_sumsq_words(mixed, 0);
}

TEST_CASE("sum: random data, every size", "[sum]")
{
  for (int64_t n : kSizes) {
    INFO("n = " << n);
    Vec x = place(uniform(n), 0, 1);
    require_same(gpu_sum(x), cpu_sum(x));
  }
}

TEST_CASE("dot and sum: huge exponent ranges", "[dot][sum]")
{
  for (int64_t n : {int64_t(7), int64_t(1000), int64_t(1000003)}) {
    INFO("n = " << n);
    // every product from underflowing to overflowing: fast and slow paths together
    Vec x = place(wide(n, -1074, 1023), 0, 1), y = place(wide(n, -1074, 1023), 0, 1);
    require_same(gpu_dot(x, y), cpu_dot(x, y));
    require_same(gpu_sum(x), cpu_sum(x));
    // finite results with heavy spilling: exponents over a few hundred binades
    Vec a = place(wide(n, -300, 300), 0, 1), b = place(wide(n, -300, 300), 0, 1);
    require_same(gpu_dot(a, b), cpu_dot(a, b));
    require_same(gpu_sum(a), cpu_sum(a));
  }
}

TEST_CASE("dot: products that overflow or underflow in double", "[dot]")
{
  Vec x = place({0x1p1000, -0x1p1000, 1.0}, 0, 1), y = place({0x1p100, 0x1p100, 1.0}, 0, 1);
  Result g = gpu_dot(x, y);
  require_same(g, cpu_dot(x, y));
  CHECK(g.value == 1.0);
  // underflowing products whose exact sum is a normal number
  std::vector<double> xs(1000, 0x1p-600), ys(1000, 0x1p-450);
  Vec ux = place(xs, 0, 1), uy = place(ys, 0, 1);
  Result u = gpu_dot(ux, uy);
  require_same(u, cpu_dot(ux, uy));
  CHECK(u.value == 1000 * 0x1p-1050);
  // DBL_MAX² a million times: the top digits, rounding to +inf
  std::vector<double> big(1000003, DBL_MAX);
  Vec bx = place(big, 0, 1);
  Result bgd = gpu_dot(bx, bx);
  require_same(bgd, cpu_dot(bx, bx));
  CHECK(std::isinf(bgd.value));
  // the FPE head flushed over and over: 2^24 terms of 2^995
  std::vector<double> h(int64_t(1) << 24, 0x1p995);
  Vec hx = place(h, 0, 1);
  Result hs = gpu_sum(hx);
  require_same(hs, cpu_sum(hx));
  CHECK(hs.value == 0x1p1019);
}

TEST_CASE("dot and sum: subnormals", "[dot][sum]")
{
  for (int64_t n : {int64_t(1), int64_t(1000), int64_t(1000003)}) {
    INFO("n = " << n);
    Vec x = place(subnormals(n), 0, 1), y = place(uniform(n), 0, 1);
    require_same(gpu_sum(x), cpu_sum(x));
    require_same(gpu_dot(x, y), cpu_dot(x, y));
    Vec z = place(subnormals(n), 0, 1);
    require_same(gpu_dot(x, z), cpu_dot(x, z)); // every product below 2^-2000
  }
}

TEST_CASE("dot and sum: NaN, ±inf, ±0 mixes", "[dot][sum][special]")
{
  const int64_t n = 100003;
  // each subset of {NaN, +inf, -inf, +0, -0}
  for (unsigned mask = 0; mask < 32; ++mask) {
    INFO("mask = " << mask);
    Vec x = place(sprinkle(uniform(n), mask, 997), 0, 1);
    Vec y = place(sprinkle(uniform(n), mask, 991), 0, 1);
    require_same(gpu_sum(x), cpu_sum(x));
    require_same(gpu_dot(x, y), cpu_dot(x, y));
  }
  // only zeros: -0 exactly when every term is -0
  for (double z : {0.0, -0.0}) {
    Vec x = place(std::vector<double>(1001, z), 0, 1);
    Vec p = place(std::vector<double>(1001, 1.0), 0, 1);
    Result s = gpu_sum(x), d = gpu_dot(x, p);
    require_same(s, cpu_sum(x));
    require_same(d, cpu_dot(x, p));
    CHECK(bits(s.value) == bits(z));
    CHECK(bits(d.value) == bits(z));
  }
  // 0 · inf is NaN; +inf and -inf together are NaN
  const double inf = std::numeric_limits<double>::infinity();
  Vec a = place({1.0, 0.0, 2.0}, 0, 1), b = place({1.0, inf, 2.0}, 0, 1);
  Result r = gpu_dot(a, b);
  require_same(r, cpu_dot(a, b));
  CHECK(std::isnan(r.value));
  Vec c = place({inf, 1.0, -inf}, 0, 1);
  Result q = gpu_sum(c);
  require_same(q, cpu_sum(c));
  CHECK(std::isnan(q.value));
  // empty: +0
  Vec e = place({}, 0, 1);
  Result z = gpu_sum(e);
  require_same(z, cpu_sum(e));
  CHECK(bits(z.value) == 0);
}

TEST_CASE("dot and sum: cancellation", "[dot][sum]")
{
  // x and -x interleaved with tiny terms: the exact sum is the sum of the tiny ones
  const int64_t n = 1000003;
  std::vector<double> v = wide(n, -40, 40);
  for (int64_t i = 1; i < n; i += 2) v[i] = -v[i - 1];
  v[n / 2] = 0x1p-1000;
  Vec x = place(v, 0, 1), ones = place(std::vector<double>(n, 1.0), 0, 1);
  Result s = gpu_sum(x);
  require_same(s, cpu_sum(x));
  require_same(gpu_dot(x, ones), cpu_dot(x, ones));
}

TEST_CASE("dot and sum: strides and offsets", "[dot][sum][strides]")
{
  const int64_t incs[] = {1, 2, 3, -1, -2, -5};
  const int64_t offs[] = {0, 1, 2, 3};
  for (int64_t n : {int64_t(1), int64_t(2), int64_t(7), int64_t(1000), int64_t(100001)})
    for (int64_t ix : incs)
      for (int64_t iy : incs)
        for (int64_t ox : offs) {
          const int64_t oy = (ox * 7 + ix * 3 + iy) & 3; // a mix of alignments of x and y
          INFO("n " << n << " incx " << ix << " incy " << iy << " offx " << ox << " offy " << oy);
          Vec x = place(wide(n, -60, 60), ox, ix), y = place(wide(n, -60, 60), oy, iy);
          require_same(gpu_dot(x, y), cpu_dot(x, y));
          if (iy == 1) require_same(gpu_sum(x), cpu_sum(x));
        }
}

TEST_CASE("accumulating twice equals merging two", "[acc]")
{
  const int64_t n = 300007;
  for (unsigned mask : {0u, 1u, 2u, 26u}) {
    INFO("special mask " << mask);
    Vec x1 = place(sprinkle(wide(n, -200, 200), mask, 4999), 0, 1);
    Vec y1 = place(wide(n, -200, 200), 0, 1);
    Vec x2 = place(sprinkle(uniform(n + 1), mask, 4999), 1, 1);
    Vec y2 = place(uniform(n + 1), 0, -2);
    const size_t wbytes = sizeof(long long) * EXSTAR_ACC_WORDS;
    Dev dx1 = upload(x1.buf), dy1 = upload(y1.buf), dx2 = upload(x2.buf), dy2 = upload(y2.buf);
    Dev a(wbytes), b1(wbytes), b2(wbytes);
    // twice into one accumulator
    KERNEL_OK(exstar_cuda_acc_zero(a.as<long long>(), 1, stream()));
    KERNEL_OK(exstar_cuda_dot(n, dx1.as<double>(), 0, 1, dy1.as<double>(), 0, 1,
                              a.as<long long>(), stream()));
    KERNEL_OK(exstar_cuda_dot(n + 1, dx2.as<double>(), 1, 1, dy2.as<double>(), 0, -2,
                              a.as<long long>(), stream()));
    // two accumulators, merged
    KERNEL_OK(exstar_cuda_acc_zero(b1.as<long long>(), 1, stream()));
    KERNEL_OK(exstar_cuda_acc_zero(b2.as<long long>(), 1, stream()));
    KERNEL_OK(exstar_cuda_dot(n, dx1.as<double>(), 0, 1, dy1.as<double>(), 0, 1,
                              b1.as<long long>(), stream()));
    KERNEL_OK(exstar_cuda_dot(n + 1, dx2.as<double>(), 1, 1, dy2.as<double>(), 0, -2,
                              b2.as<long long>(), stream()));
    KERNEL_OK(exstar_cuda_acc_merge(b1.as<long long>(), b2.as<long long>(), 1, stream()));
    Result ra = gpu_round(a), rb = gpu_round(b1);
    // the CPU, both ways
    Result c{Words(EXSTAR_ACC_WORDS), 0};
    exstar_cpu_acc_zero(c.words.data(), 1);
    exstar_cpu_dot(n, x1.buf.data(), 0, 1, y1.buf.data(), 0, 1, c.words.data());
    exstar_cpu_dot(n + 1, x2.buf.data(), 1, 1, y2.buf.data(), 0, -2, c.words.data());
    c.value = exstar_cpu_acc_round(c.words.data());
    Words c2(EXSTAR_ACC_WORDS);
    exstar_cpu_acc_zero(c2.data(), 1);
    exstar_cpu_dot(n + 1, x2.buf.data(), 1, 1, y2.buf.data(), 0, -2, c2.data());
    Result cm = cpu_dot(x1, y1);
    exstar_cpu_acc_merge(cm.words.data(), c2.data(), 1);
    cm.value = exstar_cpu_acc_round(cm.words.data());
    require_same(ra, c);
    require_same(rb, c);
    require_same(cm, c);
    // and the GPU sum on top of a dot's accumulator (mixed reductions merge too)
    KERNEL_OK(exstar_cuda_sum(n, dx1.as<double>(), 0, 1, a.as<long long>(), stream()));
    exstar_cpu_sum(n, x1.buf.data(), 0, 1, c.words.data());
    c.value = exstar_cpu_acc_round(c.words.data());
    require_same(gpu_round(a), c);
  }
}

TEST_CASE("zero and merge on arrays of accumulators", "[acc]")
{
  const int64_t count = 3, n = 10007;
  const size_t wbytes = sizeof(long long) * EXSTAR_ACC_WORDS;
  Dev a(count * wbytes), b(count * wbytes);
  KERNEL_OK(exstar_cuda_acc_zero(a.as<long long>(), count, stream()));
  KERNEL_OK(exstar_cuda_acc_zero(b.as<long long>(), count, stream()));
  std::vector<Vec> xs, ys;
  Words cpu(count * EXSTAR_ACC_WORDS);
  exstar_cpu_acc_zero(cpu.data(), count);
  Words cpu_b(count * EXSTAR_ACC_WORDS);
  exstar_cpu_acc_zero(cpu_b.data(), count);
  for (int64_t k = 0; k < count; ++k) {
    xs.push_back(place(wide(n, -100, 100), 0, 1));
    ys.push_back(place(wide(n, -100, 100), 0, 1));
  }
  for (int64_t k = 0; k < count; ++k) {
    Dev dx = upload(xs[k].buf), dy = upload(ys[k].buf);
    long long *ak = a.as<long long>() + k * EXSTAR_ACC_WORDS;
    long long *bk = b.as<long long>() + k * EXSTAR_ACC_WORDS;
    KERNEL_OK(exstar_cuda_dot(n, dx.as<double>(), 0, 1, dy.as<double>(), 0, 1, ak, stream()));
    KERNEL_OK(exstar_cuda_sum(n, dy.as<double>(), 0, 1, bk, stream()));
    CUDA_OK(cudaStreamSynchronize(g_stream));
    exstar_cpu_dot(n, xs[k].buf.data(), 0, 1, ys[k].buf.data(), 0, 1, &cpu[k * EXSTAR_ACC_WORDS]);
    exstar_cpu_sum(n, ys[k].buf.data(), 0, 1, &cpu_b[k * EXSTAR_ACC_WORDS]);
  }
  KERNEL_OK(exstar_cuda_acc_merge(a.as<long long>(), b.as<long long>(), count, stream()));
  exstar_cpu_acc_merge(cpu.data(), cpu_b.data(), count);
  CUDA_OK(cudaStreamSynchronize(g_stream));
  Words got(count * EXSTAR_ACC_WORDS);
  CUDA_OK(cudaMemcpy(got.data(), a.p, count * wbytes, cudaMemcpyDeviceToHost));
  CHECK(got == cpu);
}

TEST_CASE("the scalar CPU reference agrees on the same data", "[ref]")
{
  const int64_t n = 1000003;
  Vec x = place(wide(n, -500, 500), 0, 1), y = place(wide(n, -500, 500), 0, 1);
  Words r(EXSTAR_ACC_WORDS);
  exstar_cpu_acc_zero(r.data(), 1);
  exstar_cpu_dot_ref(n, x.buf.data(), 0, 1, y.buf.data(), 0, 1, r.data());
  Result ref{r, exstar_cpu_acc_round(r.data())};
  require_same(gpu_dot(x, y), ref);
}

TEST_CASE("errors are returned, not aborted", "[errors]")
{
  Dev x(8 * 16), acc(sizeof(long long) * EXSTAR_ACC_WORDS);
  int rc = exstar_cuda_dot(4, x.as<double>(), 0, 0, x.as<double>(), 0, 1, acc.as<long long>(),
                           stream());
  CHECK(rc < 0);
  CHECK(std::strlen(exstar_cuda_error_string(rc)) > 0);
  rc = exstar_cuda_sum(4, nullptr, 0, 1, acc.as<long long>(), stream());
  CHECK(rc < 0);
  CHECK(std::string(exstar_cuda_error_string(0)) == "no error");
}

int main(int argc, char **argv)
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIP: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    std::printf("device 0: %s (%d SMs)\n", prop.name, prop.multiProcessorCount);
  if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) {
    std::printf("cannot create a stream\n");
    return 1;
  }
  int rc = Catch::Session().run(argc, argv);
  cudaStreamDestroy(g_stream);
  return rc;
}
