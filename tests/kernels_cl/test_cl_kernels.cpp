// The OpenCL kernels against the CPU kernels, bit for bit: the rounded doubles AND the
// normalized accumulator words, on every OpenCL device found. Exit code 77 (ctest SKIP) when
// there is no usable device.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "kernels_cl/kernels_cl.h"
#include "kernels_cpu/kernels_cpu.h"
#include "core/strides.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using Words = std::vector<exstar_i64>;

std::string build_log(cl_program p, cl_device_id d)
{
  size_t size = 0;
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  if (size) clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, size, &log[0], nullptr);
  return log;
}

// Builds text for one device; returns the program or null with *err and *log filled.
cl_program build(cl_context ctx, cl_device_id dev, const char *text, cl_int *err, std::string *log)
{
  cl_program p = clCreateProgramWithSource(ctx, 1, &text, nullptr, err);
  if (*err != CL_SUCCESS) return nullptr;
  *err = clBuildProgram(p, 1, &dev, exstar_cl_build_options(), nullptr, nullptr);
  *log = build_log(p, dev);
  if (*err != CL_SUCCESS) {
    clReleaseProgram(p);
    return nullptr;
  }
  return p;
}

// The kernels this test drives (each named exstar_<k> in the program).
#define TESTED_KERNELS X(acc_zero) X(acc_merge) X(acc_normalize) X(acc_round) X(sum) X(dot)

struct Device {
  std::string name;
  cl_device_id id = nullptr;
  cl_context ctx = nullptr;
  cl_command_queue q = nullptr;
  cl_program prog = nullptr;
#define X(k) cl_kernel k = nullptr;
  TESTED_KERNELS
#undef X
};

bool has_ext(cl_device_id d, const char *ext)
{
  size_t size = 0;
  clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
  std::string s(size, '\0');
  clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, size, &s[0], nullptr);
  return s.find(ext) != std::string::npos;
}

std::vector<cl_device_id> all_devices()
{
  std::vector<cl_device_id> out;
  cl_uint np = 0;
  if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return out;
  std::vector<cl_platform_id> ps(np);
  clGetPlatformIDs(np, ps.data(), nullptr);
  for (cl_platform_id p : ps) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> ds(nd);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ds.data(), nullptr);
    for (cl_device_id d : ds)
      if (has_ext(d, "cl_khr_fp64") && has_ext(d, "cl_khr_int64_base_atomics")) out.push_back(d);
      else std::printf("SKIP device without cl_khr_fp64 / cl_khr_int64_base_atomics\n");
  }
  return out;
}

std::vector<Device> &devices()
{
  static std::vector<Device> devs;
  static bool done = false;
  if (done) return devs;
  done = true;
  const char *err = nullptr;
  char *src = exstar_cl_source(nullptr, &err);
  if (!src) FAIL("exstar_cl_source: " << (err ? err : "?"));
  std::unique_ptr<char, void (*)(void *)> hold(src, std::free);
  for (cl_device_id id : all_devices()) {
    Device d;
    d.id = id;
    char name[256] = {0};
    clGetDeviceInfo(id, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    d.name = name;
    cl_int e;
    d.ctx = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &e);
    REQUIRE(e == CL_SUCCESS);
    d.q = clCreateCommandQueue(d.ctx, id, 0, &e);
    REQUIRE(e == CL_SUCCESS);
    std::string log;
    d.prog = build(d.ctx, id, src, &e, &log);
    if (!d.prog) FAIL("build failed on " << d.name << " (" << e << "):\n" << log);
#define X(k)                                                     \
  d.k = clCreateKernel(d.prog, "exstar_" #k, &e);                \
  if (e != CL_SUCCESS) FAIL("clCreateKernel exstar_" #k << " " << e);
    TESTED_KERNELS
#undef X
    devs.push_back(d);
  }
  return devs;
}

#define CHECK_CL(call)                                                 \
  do {                                                                 \
    cl_int e_ = (call);                                                \
    if (e_ != CL_SUCCESS) FAIL(#call " returned " << e_);              \
  } while (0)

cl_mem buffer(Device &d, const void *host, size_t bytes)
{
  cl_int e;
  cl_mem m = clCreateBuffer(d.ctx, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
                            bytes ? bytes : 8, host && bytes ? const_cast<void *>(host) : nullptr, &e);
  if (e != CL_SUCCESS) FAIL("clCreateBuffer " << e);
  return m;
}

// Accumulator buffers: the region at word offset kAccOff, guard words around it.
constexpr cl_ulong kAccOff = 3, kAccGuard = 5;
constexpr exstar_i64 kGuard = 0x5a5a5a5a5a5a5a5aLL;
constexpr size_t kAccBufWords = kAccOff + EXSTAR_ACC_WORDS + kAccGuard;

cl_mem acc_buffer(Device &d)
{
  Words init(kAccBufWords, kGuard);
  cl_mem m = buffer(d, init.data(), init.size() * 8);
  CHECK_CL(exstar_cl_acc_zero(d.q, d.acc_zero, m, kAccOff, 1));
  return m;
}

Words read_acc(Device &d, cl_mem m)
{
  Words all(kAccBufWords);
  CHECK_CL(clEnqueueReadBuffer(d.q, m, CL_TRUE, 0, all.size() * 8, all.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < all.size(); ++i)
    if (i < kAccOff || i >= kAccOff + EXSTAR_ACC_WORDS)
      if (all[i] != kGuard) FAIL("guard word " << i << " overwritten on " << d.name);
  return Words(all.begin() + kAccOff, all.begin() + kAccOff + EXSTAR_ACC_WORDS);
}

double round_acc(Device &d, cl_mem acc)
{
  double init[4] = {-7.0, -7.0, -7.0, -7.0};
  cl_mem r = buffer(d, init, sizeof init);
  CHECK_CL(exstar_cl_acc_round(d.q, d.acc_round, acc, kAccOff, r, 2));
  CHECK_CL(clEnqueueReadBuffer(d.q, r, CL_TRUE, 0, sizeof init, init, 0, nullptr, nullptr));
  clReleaseMemObject(r);
  CHECK(init[0] == -7.0);
  CHECK(init[1] == -7.0);
  CHECK(init[3] == -7.0);
  return init[2];
}

uint64_t bits(double x)
{
  uint64_t u;
  std::memcpy(&u, &x, 8);
  return u;
}
double from_bits(uint64_t u)
{
  double x;
  std::memcpy(&x, &u, 8);
  return x;
}

struct Result {
  double value;
  Words words;
};

// A strided view: n elements of data at (off, inc).
struct Vec {
  std::vector<double> data;
  int64_t n, off, inc;
};

// Places the n values v at (off, inc), filling the gaps with values that must not be read.
Vec strided(const std::vector<double> &v, int64_t off, int64_t inc)
{
  int64_t n = (int64_t)v.size();
  int64_t ainc = inc < 0 ? -inc : inc;
  size_t len = (size_t)(off + (n > 0 ? (n - 1) * ainc + 1 : 0));
  Vec s{std::vector<double>(len, std::nan("")), n, off, inc};
  int64_t first = exstar_first_index(n, off, inc);
  for (int64_t i = 0; i < n; ++i) s.data[(size_t)(first + i * inc)] = v[(size_t)i];
  return s;
}

Result cpu_sum(const Vec &x)
{
  Result r{0, Words(EXSTAR_ACC_WORDS)};
  exstar_cpu_acc_zero(r.words.data(), 1);
  exstar_cpu_sum(x.n, x.data.data(), x.off, x.inc, r.words.data());
  r.value = exstar_cpu_acc_round(r.words.data());
  return r;
}

Result cpu_dot(const Vec &x, const Vec &y)
{
  Result r{0, Words(EXSTAR_ACC_WORDS)};
  exstar_cpu_acc_zero(r.words.data(), 1);
  exstar_cpu_dot(x.n, x.data.data(), x.off, x.inc, y.data.data(), y.off, y.inc, r.words.data());
  r.value = exstar_cpu_acc_round(r.words.data());
  return r;
}

Result cl_sum(Device &d, const Vec &x)
{
  cl_mem bx = buffer(d, x.data.data(), x.data.size() * 8);
  cl_mem acc = acc_buffer(d);
  CHECK_CL(exstar_cl_sum(d.q, d.sum, d.acc_normalize, x.n, bx, x.off, x.inc, acc, kAccOff));
  Result r{round_acc(d, acc), read_acc(d, acc)};
  clReleaseMemObject(bx);
  clReleaseMemObject(acc);
  return r;
}

Result cl_dot(Device &d, const Vec &x, const Vec &y)
{
  cl_mem bx = buffer(d, x.data.data(), x.data.size() * 8);
  cl_mem by = buffer(d, y.data.data(), y.data.size() * 8);
  cl_mem acc = acc_buffer(d);
  CHECK_CL(exstar_cl_dot(d.q, d.dot, d.acc_normalize, x.n, bx, x.off, x.inc, by, y.off, y.inc,
                         acc, kAccOff));
  Result r{round_acc(d, acc), read_acc(d, acc)};
  clReleaseMemObject(bx);
  clReleaseMemObject(by);
  clReleaseMemObject(acc);
  return r;
}

void same(const Result &cl, const Result &cpu, const std::string &what)
{
  INFO(what);
  INFO("cl " << cl.value << " (" << std::hex << bits(cl.value) << "), cpu " << cpu.value << " ("
             << bits(cpu.value) << ")" << std::dec);
  CHECK(bits(cl.value) == bits(cpu.value));
  int first_diff = -1;
  for (int i = 0; i < EXSTAR_ACC_WORDS; ++i)
    if (cl.words[i] != cpu.words[i]) { first_diff = i; break; }
  INFO("first differing word " << first_diff << " of " << EXSTAR_ACC_WORDS << ": cl "
       << (first_diff >= 0 ? cl.words[first_diff] : 0) << " cpu "
       << (first_diff >= 0 ? cpu.words[first_diff] : 0));
  CHECK(first_diff == -1);
}

void check_sum(const std::vector<double> &v, int64_t off, int64_t inc, const std::string &what)
{
  Vec x = strided(v, off, inc);
  Result ref = cpu_sum(x);
  for (Device &d : devices())
    same(cl_sum(d, x), ref, "sum " + what + " n=" + std::to_string(v.size()) + " off=" +
                                std::to_string(off) + " inc=" + std::to_string(inc) + " on " + d.name);
}

void check_dot(const std::vector<double> &a, const std::vector<double> &b, int64_t offx,
               int64_t incx, int64_t offy, int64_t incy, const std::string &what)
{
  Vec x = strided(a, offx, incx), y = strided(b, offy, incy);
  Result ref = cpu_dot(x, y);
  for (Device &d : devices())
    same(cl_dot(d, x, y), ref, "dot " + what + " n=" + std::to_string(a.size()) + " on " + d.name);
}

// ---- data -------------------------------------------------------------------------------------
std::mt19937_64 &rng()
{
  static std::mt19937_64 g(20240611);
  return g;
}

std::vector<double> uniform(size_t n)
{
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (double &x : v) x = u(rng());
  return v;
}

// Any finite double: random sign, exponent field 0..2046 (subnormals included), mantissa.
std::vector<double> any_finite(size_t n, int emin_field = 0, int emax_field = 2046)
{
  std::uniform_int_distribution<int> e(emin_field, emax_field);
  std::vector<double> v(n);
  for (double &x : v) {
    uint64_t u = rng()();
    x = from_bits((u & 0x800fffffffffffffULL) | ((uint64_t)e(rng()) << 52));
  }
  return v;
}

// Heavy cancellation: pairs x, -x, shuffled, plus a few small terms.
std::vector<double> cancelling(size_t n)
{
  std::vector<double> v = any_finite(n / 2, 900, 2000);
  size_t h = v.size();
  for (size_t i = 0; i < h; ++i) v.push_back(-v[i]);
  std::vector<double> small = any_finite(n - v.size(), 1, 100);
  v.insert(v.end(), small.begin(), small.end());
  std::shuffle(v.begin(), v.end(), rng());
  return v;
}

const std::vector<size_t> kSizes = {0, 1, 7, 1000, 1000003};

} // namespace

// ---- tests -----------------------------------------------------------------------------------

TEST_CASE("program source and build options", "[source]")
{
  const char *err = nullptr;
  char *src = exstar_cl_source(nullptr, &err);
  REQUIRE(src != nullptr);
  std::string s(src);
  std::free(src);
  CHECK(s.find("#include \"") == std::string::npos); // only the C++/CUDA branches keep <...> includes
  CHECK(s.find("__kernel void exstar_sum(") != std::string::npos);
  CHECK(s.find("__kernel void exstar_dot(") != std::string::npos);
  CHECK(s.find("__kernel void exstar_acc_round(") != std::string::npos);
  auto count = [&](const std::string &needle) {
    size_t c = 0;
    for (size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++c;
    return c;
  };
  CHECK(count("---- exstar: core/accumulator.h ----") == 1);
  CHECK(count("---- exstar: core/portable.h ----") == 1);
  CHECK(count("---- exstar: kernels_cl/acc_cl.clh ----") == 1);
  CHECK(count("---- exstar: core/acc_ops.inc ----") >= 3); // a template: inlined at each instantiation
  std::string opts = exstar_cl_build_options();
  for (const char *bad : {"fast", "mad", "unsafe", "denorms", "finite", "no-signed-zeros"})
    CHECK(opts.find(bad) == std::string::npos);

  src = exstar_cl_source("/nonexistent/exstar/dir", &err);
  CHECK(src == nullptr);
  REQUIRE(err != nullptr);
  CHECK(std::string(err).find("cannot read") != std::string::npos);
}

TEST_CASE("a broken program fails to build cleanly", "[build]")
{
  // An installed-layout directory whose sum.cl does not compile.
  char tmpl[] = "/tmp/exstar_cl_broken_XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  std::string dir = tmpl;
  mkdir((dir + "/core").c_str(), 0700);
  mkdir((dir + "/kernels_cl").c_str(), 0700);
  auto copy = [&](const std::string &rel) {
    std::ifstream in(std::string(EXSTAR_SOURCE_DIR) + "/" + rel, std::ios::binary);
    std::ofstream out(dir + "/" + rel, std::ios::binary);
    out << in.rdbuf();
  };
  for (const char *sub : {"core", "kernels_cl"}) // every source the program is made of
    for (const auto &e : std::filesystem::directory_iterator(std::string(EXSTAR_SOURCE_DIR) + "/" + sub)) {
      std::string name = e.path().filename().string(), ext = e.path().extension().string();
      if (ext == ".h" || ext == ".inc" || ext == ".cl" || ext == ".clh") copy(std::string(sub) + "/" + name);
    }
  {
    std::ofstream out(dir + "/kernels_cl/sum.cl");
    out << "#include \"kernels_cl/acc_cl.clh\"\n__kernel void exstar_sum(__global double *x)\n"
           "{ x[0] = this_is_not_declared; }\n";
  }
  const char *err = nullptr;
  char *src = exstar_cl_source(dir.c_str(), &err);
  INFO((err ? err : ""));
  REQUIRE(src != nullptr);
  std::unique_ptr<char, void (*)(void *)> hold(src, std::free);
  for (Device &d : devices()) {
    cl_int e = CL_SUCCESS;
    std::string log;
    cl_program p = build(d.ctx, d.id, src, &e, &log);
    CHECK(p == nullptr);
    CHECK(e != CL_SUCCESS);
    std::printf("expected build failure on %s (%d), log:\n%s\n", d.name.c_str(), (int)e, log.c_str());
    const char *garbage = "this is not OpenCL C {";
    p = build(d.ctx, d.id, garbage, &e, &log);
    CHECK(p == nullptr);
    CHECK(e != CL_SUCCESS);
  }
  for (const char *f : {"core/portable.h", "core/accumulator.h", "core/acc_ops.inc",
                        "core/strides.h", "kernels_cl/acc_cl.clh", "kernels_cl/acc.cl",
                        "kernels_cl/dot.cl", "kernels_cl/sum.cl"})
    std::remove((dir + "/" + f).c_str());
  rmdir((dir + "/core").c_str());
  rmdir((dir + "/kernels_cl").c_str());
  rmdir(dir.c_str());
}

TEST_CASE("sum and dot of random data", "[sum][dot]")
{
  for (size_t n : kSizes) {
    std::vector<double> x = uniform(n), y = uniform(n);
    check_sum(x, 0, 1, "uniform");
    check_dot(x, y, 0, 1, 0, 1, "uniform");
  }
}

TEST_CASE("huge exponent ranges, overflowing and underflowing products, subnormals", "[sum][dot]")
{
  for (size_t n : kSizes) {
    std::vector<double> x = any_finite(n), y = any_finite(n);
    check_sum(x, 0, 1, "any finite");
    check_dot(x, y, 0, 1, 0, 1, "any finite");
    std::vector<double> s = any_finite(n, 0, 0), t = any_finite(n, 0, 3);
    check_sum(s, 0, 1, "subnormal");
    check_dot(s, t, 0, 1, 0, 1, "subnormal x tiny");
    std::vector<double> big = any_finite(n, 1900, 2046);
    check_dot(big, big, 0, 1, 0, 1, "overflowing products");
    check_sum(big, 0, 1, "huge");
    std::vector<double> c = cancelling(n), ones(n, 1.0);
    check_sum(c, 0, 1, "cancelling");
    check_dot(c, ones, 0, 1, 0, 1, "cancelling");
  }
  check_dot({0x1p1000, -0x1p1000, 1.0}, {0x1p100, 0x1p100, 1.0}, 0, 1, 0, 1, "2^1100 cancels");
  Vec x = strided({0x1p1000, -0x1p1000, 1.0}, 0, 1), y = strided({0x1p100, 0x1p100, 1.0}, 0, 1);
  for (Device &d : devices()) CHECK(bits(cl_dot(d, x, y).value) == bits(1.0));
  // the sum of the largest doubles overflows only in the rounding
  check_sum({DBL_MAX, DBL_MAX, -DBL_MAX}, 0, 1, "DBL_MAX");
  check_sum({DBL_MAX, DBL_MAX}, 0, 1, "overflow to inf");
  check_dot({0x1p-1074, 0x1p-1074}, {0x1p-1074, 0x1p1023}, 0, 1, 0, 1, "tiny products");
}

TEST_CASE("NaN, infinities and signed zeros", "[sum][dot]")
{
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const std::vector<std::vector<double>> small = {
      {-0.0}, {0.0}, {-0.0, -0.0}, {-0.0, 0.0}, {inf}, {-inf}, {inf, -inf}, {nan}, {1.0, nan},
      {inf, 1.0, -0.0}, {-inf, -inf, 5.0}, {1.0, -1.0}, {-1.0, 1.0, -0.0}, {DBL_MAX, inf}};
  for (const auto &v : small) {
    check_sum(v, 0, 1, "specials");
    std::vector<double> ones(v.size(), 1.0), negz(v.size(), -0.0), zero(v.size(), 0.0);
    check_dot(v, ones, 0, 1, 0, 1, "specials * 1");
    check_dot(v, negz, 0, 1, 0, 1, "specials * -0");
    check_dot(v, zero, 0, 1, 0, 1, "specials * 0");
  }
  check_dot({0.0, 1.0}, {inf, 2.0}, 0, 1, 0, 1, "0 * inf");
  check_dot({-0.0, 0.0}, {1.0, -1.0}, 0, 1, 0, 1, "-0 products");
  // specials scattered through long vectors, seen by many work-groups
  for (size_t n : {size_t(1000), size_t(1000003)}) {
    std::vector<double> x = uniform(n), y = uniform(n);
    std::vector<double> z(n, -0.0);
    check_sum(z, 0, 1, "all -0");
    check_dot(z, y, 0, 1, 0, 1, "-0 * y");
    std::uniform_int_distribution<size_t> pos(0, n - 1);
    for (int k = 0; k < 50; ++k) x[pos(rng())] = inf;
    check_sum(x, 0, 1, "+inf scattered");
    check_dot(x, y, 0, 1, 0, 1, "+-inf scattered");
    for (int k = 0; k < 50; ++k) y[pos(rng())] = -0.0;
    check_dot(x, y, 0, 1, 0, 1, "inf and -0 scattered");
    for (int k = 0; k < 50; ++k) x[pos(rng())] = -inf;
    check_sum(x, 0, 1, "+-inf scattered");
    x[pos(rng())] = nan;
    check_sum(x, 0, 1, "nan scattered");
    check_dot(y, x, 0, 1, 0, 1, "nan scattered");
  }
}

TEST_CASE("strides and offsets", "[sum][dot]")
{
  for (size_t n : kSizes) {
    std::vector<double> x = any_finite(n, 800, 1300), y = uniform(n);
    for (int64_t inc : {int64_t(1), int64_t(2), int64_t(-1), int64_t(-3)}) {
      check_sum(x, 5, inc, "strided");
      check_dot(x, y, 3, inc, 0, inc == 1 ? -2 : 1, "strided");
      check_dot(x, y, 0, 1, 7, inc, "strided y");
    }
  }
}

TEST_CASE("adding twice into one accumulator equals merging two", "[acc]")
{
  for (size_t n : {size_t(0), size_t(7), size_t(1000003)}) {
    Vec x = strided(any_finite(n, 700, 1400), 0, 1), y = strided(uniform(n), 1, -2);
    std::vector<double> ninf = uniform(n ? n : 1);
    ninf[0] = -std::numeric_limits<double>::infinity();
    Vec z = strided(ninf, 0, 1);
    // CPU reference: both into one accumulator.
    Words ref(EXSTAR_ACC_WORDS);
    exstar_cpu_acc_zero(ref.data(), 1);
    exstar_cpu_sum(x.n, x.data.data(), x.off, x.inc, ref.data());
    exstar_cpu_dot(y.n, y.data.data(), y.off, y.inc, z.data.data(), z.off, z.inc, ref.data());
    double refv = exstar_cpu_acc_round(ref.data());
    for (Device &d : devices()) {
      INFO("n=" << n << " on " << d.name);
      cl_mem bx = buffer(d, x.data.data(), x.data.size() * 8);
      cl_mem by = buffer(d, y.data.data(), y.data.size() * 8);
      cl_mem bz = buffer(d, z.data.data(), z.data.size() * 8);
      cl_mem a = acc_buffer(d), b = acc_buffer(d), c = acc_buffer(d);
      CHECK_CL(exstar_cl_sum(d.q, d.sum, d.acc_normalize, x.n, bx, x.off, x.inc, a, kAccOff));
      CHECK_CL(exstar_cl_dot(d.q, d.dot, d.acc_normalize, y.n, by, y.off, y.inc, bz, z.off,
                             z.inc, a, kAccOff));
      CHECK_CL(exstar_cl_sum(d.q, d.sum, d.acc_normalize, x.n, bx, x.off, x.inc, b, kAccOff));
      CHECK_CL(exstar_cl_dot(d.q, d.dot, d.acc_normalize, y.n, by, y.off, y.inc, bz, z.off,
                             z.inc, c, kAccOff));
      CHECK_CL(exstar_cl_acc_merge(d.q, d.acc_merge, b, kAccOff, c, kAccOff, 1));
      Result ra{round_acc(d, a), read_acc(d, a)}, rb{round_acc(d, b), read_acc(d, b)};
      Result rr{refv, ref};
      same(ra, rr, "twice into one");
      same(rb, rr, "merge of two");
      // the CPU merge of the same two gives the same words
      Words c1(EXSTAR_ACC_WORDS), c2(EXSTAR_ACC_WORDS);
      exstar_cpu_acc_zero(c1.data(), 1);
      exstar_cpu_acc_zero(c2.data(), 1);
      exstar_cpu_sum(x.n, x.data.data(), x.off, x.inc, c1.data());
      exstar_cpu_dot(y.n, y.data.data(), y.off, y.inc, z.data.data(), z.off, z.inc, c2.data());
      exstar_cpu_acc_merge(c1.data(), c2.data(), 1);
      CHECK(c1 == ref);
      // zeroing works on a used accumulator
      CHECK_CL(exstar_cl_acc_zero(d.q, d.acc_zero, a, kAccOff, 1));
      CHECK(read_acc(d, a) == Words(EXSTAR_ACC_WORDS, 0));
      for (cl_mem m : {bx, by, bz, a, b, c}) clReleaseMemObject(m);
    }
  }
}

int main(int argc, char **argv)
{
  if (all_devices().empty()) {
    std::printf("SKIP: no OpenCL device (with cl_khr_fp64 and cl_khr_int64_base_atomics); "
                "test_cl_kernels SKIPPED\n");
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
