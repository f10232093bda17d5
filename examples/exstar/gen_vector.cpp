// gen vector: Ogita, Rump and Oishi's GenDot ("Accurate sum and dot product", SIAM J. Sci.
// Comput. 26(6), 2005, Algorithm 6.1), with its partial dot products computed exactly by exstar.
#include "gen.hpp"
#include "memory.hpp"
#include "mmio.hpp"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cli {

namespace {

// RN(x_0 y_0 + ... + x_{k-1} y_{k-1}) as k grows one step at a time: every pair is added
// exactly into one exstar accumulator, so each step costs O(1) tasks, not a new O(k) dot.
class PrefixDot {
public:
  PrefixDot()
  {
    check(exstar_acc_register(&acc_));
    starpu_variable_data_register(&result_, STARPU_MAIN_RAM, (uintptr_t)&value_, sizeof value_);
  }
  ~PrefixDot()
  {
    exstar_acc_unregister(acc_);
    starpu_data_unregister(result_);
  }
  PrefixDot(const PrefixDot &) = delete;
  PrefixDot &operator=(const PrefixDot &) = delete;

  // Adds x[0..n) . y[0..n) exactly. The arrays must stay unchanged until the tasks are done.
  void add(const double *x, const double *y, int64_t n)
  {
    starpu_data_handle_t hx, hy;
    starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, (uint32_t)n, sizeof(double));
    starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y, (uint32_t)n, sizeof(double));
    int s = exstar_ddot_insert(n, hx, 0, 1, hy, 0, 1, acc_, n > 1 ? 0 : 1);
    starpu_data_unregister_submit(hx);
    starpu_data_unregister_submit(hy);
    check(s);
  }

  // The rounded value of everything added so far.
  double rounded()
  {
    check(exstar_acc_round_insert(acc_, result_));
    if (starpu_data_acquire(result_, STARPU_R) != 0) throw Failure("gen vector: starpu_data_acquire failed");
    double v = value_;
    starpu_data_release(result_);
    return v;
  }

private:
  starpu_data_handle_t acc_ = nullptr, result_ = nullptr;
  double value_ = 0.0;
};

// The values of x and y, before the final shuffle.
void gendot(Rng &rng, const GenParams &p, std::vector<double> &x, std::vector<double> &y)
{
  int64_t n = p.n, n2 = (n + 1) / 2;
  double b = std::log2(p.cond);
  // First half: random exponents between 0 and b/2, the extremes always present.
  for (int64_t i = 0; i < n2; ++i) {
    int e = i == 0 ? (int)std::lround(b / 2) + 1 : i == n2 - 1 ? 0 : (int)std::lround(rng.unit() * b / 2);
    x[i] = std::ldexp(rng.symmetric(), e);
    y[i] = std::ldexp(rng.symmetric(), e);
  }
  // Second half: exponents falling linearly from b/2 to 0, each y_i chosen so that the partial
  // dot cancels down to about 2^e_i: that cancellation makes the condition number.
  PrefixDot dot;
  dot.add(x.data(), y.data(), n2);
  int64_t m = n - n2;
  for (int64_t k = 0; k < m; ++k) {
    int64_t i = n2 + k;
    int e = m == 1 ? 0 : (int)std::lround(b / 2 - (double)k * (b / 2) / (double)(m - 1));
    x[i] = std::ldexp(rng.nonzero_symmetric(), e);
    y[i] = (std::ldexp(rng.symmetric(), e) - dot.rounded()) / x[i];
    dot.add(&x[i], &y[i], 1);
  }
  starpu_task_wait_for_all();
}

// Shuffles the pairs (x_i, y_i) together (Fisher-Yates), so the big terms are not all first.
void shuffle_pairs(Rng &rng, std::vector<double> &x, std::vector<double> &y)
{
  for (size_t i = x.size(); i > 1; --i) {
    size_t j = (size_t)rng.below(i);
    std::swap(x[i - 1], x[j]);
    std::swap(y[i - 1], y[j]);
  }
}

std::string default_y_name(const std::string &x_name)
{
  const std::string ext = ".mtx";
  bool has_ext = x_name.size() > ext.size() && x_name.compare(x_name.size() - ext.size(), ext.size(), ext) == 0;
  return (has_ext ? x_name.substr(0, x_name.size() - ext.size()) : x_name) + "_y.mtx";
}

} // namespace

int gen_vector(const Args &args, const GenParams &p)
{
  if (p.n < 2) throw UsageError("gen vector needs --n >= 2");
  std::string xname = args.output(), yname = args.has("-o2") ? args.output("-o2") : default_y_name(xname);
  check_outputs({{"-o", xname}, {"-o2", yname}});
  check_memory(args, matrix_words(p.n, 1), entries_bytes(p.n, 1, 4 * 8), true); // x, y, |x|, |y|
  std::vector<double> x((size_t)p.n), y((size_t)p.n), ax((size_t)p.n), ay((size_t)p.n);
  Rng rng(p.seed);
  double dot = 0.0, absdot = 0.0;
  {
    Session session(args);
    gendot(rng, p, x, y);
    shuffle_pairs(rng, x, y);
    for (size_t i = 0; i < x.size(); ++i) ax[i] = std::fabs(x[i]), ay[i] = std::fabs(y[i]);
    check(exstar_ddot(p.n, x.data(), 1, y.data(), 1, &dot));
    check(exstar_ddot(p.n, ax.data(), 1, ay.data(), 1, &absdot));
  }
  double cond = 2.0 * absdot / std::fabs(dot);
  char note[160];
  std::snprintf(note, sizeof note, "exstar gen vector --n %lld --cond %g --seed %llu: RN(x.y) = %s, cond = %.3g",
                (long long)p.n, p.cond, (unsigned long long)p.seed, format_double(dot).c_str(), cond);
  OutputFile fx(xname), fy(yname);
  write_matrix(fx, p.n, 1, x, note);
  write_matrix(fy, p.n, 1, y, note);
  commit_together({&fx, &fy});
  std::printf("dot %s\ncond %.3g\n", format_double(dot).c_str(), cond);
  return EXIT_OK;
}

} // namespace cli
