// libexstar_blas: what the standard symbols cost over exstar's own calls (issue 26's targets:
// dgemm_ at n = 1024 within 5% of exstar_dgemm; a call at n = 8 within 20 µs in all).
//   exstar_bench_blas [--big N] [--reps R]
// Prints one CSV row per (op, n, what): seconds per call, the median of R timed calls after a
// warm-up. "what": exstar (exstar's blocking call through StarPU), blas (the Fortran symbol,
// with its default small-call path), blas-starpu (the symbol with every call through StarPU),
// blas-here (the symbol with every call on the calling thread, exstar's CPU kernel).
// StarPU is started once by libexstar_blas with the user's STARPU_* environment.
#include <exstar/exstar.h>
#include "blas/exstar_blas.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

extern "C" {
void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *, const double *,
            const int *, const double *, const int *, const double *, double *, const int *, size_t, size_t);
double ddot_(const int *, const double *, const int *, const double *, const int *);
void dgesv_(const int *, const int *, double *, const int *, int *, double *, const int *, int *);
void dgemv_(const char *, const int *, const int *, const double *, const double *, const int *, const double *,
            const int *, const double *, double *, const int *, size_t);
}

namespace {

double median_seconds(int reps, const std::function<void()> &f)
{
  f(); // warm-up (first-call costs: StarPU's perfmodels, allocations)
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto a = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void row(const char *op, int n, const char *what, double s) { std::printf("%s,%d,%s,%.9f\n", op, n, what, s); }

} // namespace

int main(int argc, char **argv)
{
  int big = 1024, reps = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--big")) big = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
  }
  if (exstar_blas_init() != 0) return 1;
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::printf("op,n,what,seconds\n");
  for (int n : {8, 16, 32, 64, 128, big}) {
    const int r = n <= 32 ? 2001 : n <= 128 ? 101 : reps;
    std::vector<double> A((size_t)n * n), B((size_t)n * n), C((size_t)n * n), x((size_t)n), y((size_t)n);
    for (auto *v : {&A, &B, &C, &x, &y})
      for (double &e : *v) e = u(rng);
    const double alpha = 1.0, beta = 0.0;
    const int one = 1;
    row("gemm", n, "exstar", median_seconds(r, [&] {
          exstar_dgemm('N', 'N', n, n, n, alpha, A.data(), n, B.data(), n, beta, C.data(), n);
        }));
    auto blas_gemm = [&] { dgemm_("N", "N", &n, &n, &n, &alpha, A.data(), &n, B.data(), &n, &beta, C.data(), &n, 1, 1); };
    row("gemm", n, "blas", median_seconds(r, blas_gemm));
    exstar_blas_set_small(0);
    row("gemm", n, "blas-starpu", median_seconds(r, blas_gemm));
    if (n <= 128) {
      exstar_blas_set_small(1e18);
      row("gemm", n, "blas-here", median_seconds(r, blas_gemm));
    }
    exstar_blas_set_small(-1);
    if (n > 32) continue;
    std::vector<double> S((size_t)n * n), T;
    std::vector<int> piv((size_t)n);
    for (int i = 0; i < n; ++i) A[(size_t)(i + i * n)] += n; // well conditioned
    row("gesv", n, "exstar", median_seconds(r, [&] {
          S = A, T = x;
          int64_t info;
          exstar_dgesv(n, 1, S.data(), n, piv.data(), T.data(), n, 0, &info);
        }));
    row("gesv", n, "blas", median_seconds(r, [&] {
          S = A, T = x;
          int info;
          dgesv_(&n, &one, S.data(), &n, piv.data(), T.data(), &n, &info);
        }));
    double d = 0;
    row("dot", n, "exstar", median_seconds(r, [&] { exstar_ddot(n, x.data(), 1, y.data(), 1, &d); }));
    row("dot", n, "blas", median_seconds(r, [&] { d = ddot_(&n, x.data(), &one, y.data(), &one); }));
    row("gemv", n, "exstar", median_seconds(r, [&] {
          exstar_dgemv('N', n, n, alpha, A.data(), n, x.data(), 1, beta, y.data(), 1);
        }));
    row("gemv", n, "blas", median_seconds(r, [&] {
          dgemv_("N", &n, &n, &alpha, A.data(), &n, x.data(), &one, &beta, y.data(), &one, 1);
        }));
  }
  return 0;
}
