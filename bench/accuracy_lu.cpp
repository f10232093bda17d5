// Accuracy study of the LU solvers: forward and backward error of A·x = b against condition
// numbers from 1e2 to 1e40, for the exact LU (exstar_dgesv, with and without refinement), the
// plain-double LU on the same task graph (exstar_dgesv_plain) and OpenBLAS's LAPACK dgesv.
//
// Matrices: cond <= 1e14 from gen_matrix_cond (tests/support); beyond, where a double matrix
// built by rounding cannot hold its condition number, A = P·L·U built EXACTLY in double: L unit
// lower with entries in {-1/8, 0, 1/8} (few bits), U unit upper bidiagonal with superdiagonal ±t
// (t = 1 + k/8), rows permuted: every entry is one exact product sum, so cond(A) is genuine.
// b := RN(A·x_true) (exact gemv), x_true uniform in [-1,1). The reference x* solves A·x = b (the
// stored b) by Gaussian elimination in MPFR at 1024 bits; cond is ||A||∞·||A⁻¹||∞ from the MPFR
// inverse. Errors: forward ||x̂ − x*||∞/||x*||∞, backward ||b − A·x̂||∞/(||A||∞·||x̂||∞ + ||b||∞)
// with the residual from the exact gemv.
//
//   exstar_accuracy_lu [--n N]... [--csv FILE] [--png FILE] [--backend cpu|opencl|all]
// CSV lines: cond,method,forward_error,backward_error (plus n). Default n = 32 and 64.
#include <exstar/exstar.h>
#include "tests/support/generators.hpp"
#include <mpfr.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b, const int *ldb,
                       int *info);

namespace {

constexpr mpfr_prec_t kPrec = 1024;
using Dense = std::vector<double>; // n x n column-major

// An MPFR matrix of r x c, column-major.
struct MpMat {
  int r, c;
  std::vector<mpfr_t> v;
  MpMat(int r_, int c_) : r(r_), c(c_), v((size_t)r_ * c_)
  {
    for (auto &x : v) mpfr_init2(x, kPrec);
  }
  ~MpMat()
  {
    for (auto &x : v) mpfr_clear(x);
  }
  mpfr_t &at(int i, int j) { return v[i + (size_t)j * r]; }
};

// Solves A·X = R in place (R: n x k) by Gaussian elimination with partial pivoting in MPFR.
void mp_solve(const Dense &A, int n, MpMat &R)
{
  MpMat M(n, n);
  for (int k = 0; k < n * n; ++k) mpfr_set_d(M.v[k], A[k], MPFR_RNDN);
  mpfr_t t, f;
  mpfr_inits2(kPrec, t, f, (mpfr_ptr)0);
  for (int j = 0; j < n; ++j) {
    int p = j;
    for (int i = j + 1; i < n; ++i)
      if (mpfr_cmpabs(M.at(i, j), M.at(p, j)) > 0) p = i;
    for (int c = 0; c < n; ++c) mpfr_swap(M.at(j, c), M.at(p, c));
    for (int c = 0; c < R.c; ++c) mpfr_swap(R.at(j, c), R.at(p, c));
    for (int i = j + 1; i < n; ++i) {
      mpfr_div(f, M.at(i, j), M.at(j, j), MPFR_RNDN);
      for (int c = j; c < n; ++c) {
        mpfr_mul(t, f, M.at(j, c), MPFR_RNDN);
        mpfr_sub(M.at(i, c), M.at(i, c), t, MPFR_RNDN);
      }
      for (int c = 0; c < R.c; ++c) {
        mpfr_mul(t, f, R.at(j, c), MPFR_RNDN);
        mpfr_sub(R.at(i, c), R.at(i, c), t, MPFR_RNDN);
      }
    }
  }
  for (int c = 0; c < R.c; ++c)
    for (int i = n - 1; i >= 0; --i) {
      for (int k = i + 1; k < n; ++k) {
        mpfr_mul(t, M.at(i, k), R.at(k, c), MPFR_RNDN);
        mpfr_sub(R.at(i, c), R.at(i, c), t, MPFR_RNDN);
      }
      mpfr_div(R.at(i, c), R.at(i, c), M.at(i, i), MPFR_RNDN);
    }
  mpfr_clears(t, f, (mpfr_ptr)0);
}

double norm_inf_matrix(const Dense &A, int n)
{
  double best = 0.0;
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += std::fabs(A[i + (size_t)j * n]);
    best = std::max(best, s);
  }
  return best;
}

double norm_inf(const std::vector<double> &x)
{
  double m = 0.0;
  for (double v : x) m = std::max(m, std::fabs(v));
  return m;
}

// ||A||∞·||A⁻¹||∞ with the inverse from MPFR.
double cond_inf(const Dense &A, int n)
{
  MpMat I(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) mpfr_set_d(I.at(i, j), i == j ? 1.0 : 0.0, MPFR_RNDN);
  mp_solve(A, n, I);
  double ninv = 0.0;
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += std::fabs(mpfr_get_d(I.at(i, j), MPFR_RNDN));
    ninv = std::max(ninv, s);
  }
  return norm_inf_matrix(A, n) * ninv;
}

// The exact P·L·U construction of the file comment, with parameter t.
Dense exact_plu(int n, double t, exstar_test::Rng &rng)
{
  Dense L((size_t)n * n, 0.0), A((size_t)n * n, 0.0);
  std::vector<double> sup((size_t)n, 0.0);
  for (int j = 0; j < n; ++j) {
    L[j + (size_t)j * n] = 1.0;
    for (int i = j + 1; i < n; ++i) L[i + (size_t)j * n] = ((double)exstar_test::rand_below(rng, 3) - 1.0) / 8.0;
    sup[j] = exstar_test::rand_below(rng, 2) ? t : -t;
  }
  const std::vector<int> perm = exstar_test::random_permutation(n, rng);
  // (L·U)(i, j) = l(i,j) + l(i,j-1)·u(j-1,j): two terms of few bits each, exact in double.
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      A[perm[i] + (size_t)j * n] = L[i + (size_t)j * n] + (j > 0 ? L[i + (size_t)(j - 1) * n] * sup[j - 1] : 0.0);
  return A;
}

struct Problem {
  Dense A;
  double cond;
};

// One matrix per decade 1e2, 1e4, ..., 1e40 (the first whose cond falls in the decade).
std::vector<Problem> problems(int n)
{
  std::vector<Problem> out;
  std::vector<bool> have(41, false);
  for (int d = 2; d <= 14; d += 2) {
    Dense A = exstar_test::gen_matrix_cond(n, std::pow(10.0, d), 1000 + d);
    out.push_back({A, cond_inf(A, n)});
    have[d] = true;
  }
  exstar_test::Rng rng(4242 + n);
  for (int k = 0; k <= 200 && !have[40]; ++k) {
    Dense A = exact_plu(n, 1.0 + k / 8.0, rng);
    const double c = cond_inf(A, n);
    const int d = (int)std::floor(std::log10(c));
    if (d < 16 || d > 40 || d % 2 || have[d]) continue;
    have[d] = true;
    out.push_back({A, c});
  }
  return out;
}

struct Errors {
  double forward, backward;
};

Errors errors(const Dense &A, int n, const std::vector<double> &b, const std::vector<double> &x,
              const std::vector<double> &xstar)
{
  double num = 0.0;
  for (int i = 0; i < n; ++i) num = std::max(num, std::fabs(x[i] - xstar[i]));
  std::vector<double> r = b;
  exstar_dgemv('N', n, n, -1.0, A.data(), n, x.data(), 1, 1.0, r.data(), 1);
  return {num / norm_inf(xstar), norm_inf(r) / (norm_inf_matrix(A, n) * norm_inf(x) + norm_inf(b))};
}

using Solver = int (*)(int n, Dense &A, std::vector<double> &x);

int solve_exact(int n, Dense &A, std::vector<double> &x, int steps)
{
  std::vector<int32_t> ipiv(n);
  int64_t info;
  return exstar_dgesv(n, 1, A.data(), n, ipiv.data(), x.data(), n, steps, &info);
}
int solve_exact0(int n, Dense &A, std::vector<double> &x) { return solve_exact(n, A, x, 0); }
int solve_exact2(int n, Dense &A, std::vector<double> &x) { return solve_exact(n, A, x, 2); }
int solve_plain(int n, Dense &A, std::vector<double> &x)
{
  std::vector<int32_t> ipiv(n);
  int64_t info;
  return exstar_dgesv_plain(n, 1, A.data(), n, ipiv.data(), x.data(), n, &info);
}
int solve_lapack(int n, Dense &A, std::vector<double> &x)
{
  std::vector<int> ipiv(n);
  int one = 1, info = 0;
  dgesv_(&n, &one, A.data(), &n, ipiv.data(), x.data(), &n, &info);
  return info == 0 ? EXSTAR_SUCCESS : EXSTAR_ERR_SINGULAR;
}

void write_plot(const std::string &csv, const std::string &png)
{
  const std::string gp = csv + ".gp";
  FILE *f = std::fopen(gp.c_str(), "w");
  if (!f) return;
  std::fprintf(f,
               "set terminal pngcairo noenhanced size 1200,500\nset output '%s'\nset datafile separator ','\n"
               "set logscale xy\nset format x '1e%%T'\nset format y '1e%%T'\nset key left top\n"
               "set xlabel 'cond_inf(A)'\nset yrange [1e-18:10]\nset multiplot layout 1,2\n",
               png.c_str());
  const char *methods[] = {"exstar_exact", "exstar_exact_refined2", "exstar_plain", "lapack_dgesv"};
  for (int col = 3; col <= 4; ++col) {
    std::fprintf(f, "set title '%s'\nplot ", col == 3 ? "forward error" : "backward error");
    for (int m = 0; m < 4; ++m)
      std::fprintf(f, "%s'%s' using (strcol(2) eq '%s' ? $1 : 1/0):($%d < 1e-18 ? 1e-18 : ($%d > 1 ? 1 : $%d)) "
                      "with points pt %d title '%s'",
                   m ? ", " : "", csv.c_str(), methods[m], col, col, col, 5 + 2 * m, methods[m]);
    std::fprintf(f, "\n");
  }
  std::fprintf(f, "unset multiplot\n");
  std::fclose(f);
  std::string cmd = "gnuplot '" + gp + "' 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "accuracy_lu: gnuplot failed or absent (%s)\n", gp.c_str());
}

} // namespace

int main(int argc, char **argv)
{
  std::vector<int> sizes;
  std::string csv = "accuracy_lu.csv", png;
  unsigned backends = EXSTAR_BACKEND_CPU;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--n" && i + 1 < argc) sizes.push_back(std::atoi(argv[++i]));
    else if (a == "--csv" && i + 1 < argc) csv = argv[++i];
    else if (a == "--png" && i + 1 < argc) png = argv[++i];
    else if (a == "--backend" && i + 1 < argc) {
      std::string b = argv[++i];
      backends = b == "opencl" ? EXSTAR_BACKEND_OPENCL : b == "all" ? EXSTAR_BACKEND_ALL : EXSTAR_BACKEND_CPU;
    } else {
      std::fprintf(stderr, "usage: %s [--n N]... [--csv FILE] [--png FILE] [--backend cpu|opencl|all]\n", argv[0]);
      return 2;
    }
  }
  if (sizes.empty()) sizes = {32, 64};
  exstar_config cfg;
  exstar_config_default(&cfg);
  cfg.backends = backends;
  if (exstar_init(&cfg) != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "exstar_init: %s\n", exstar_last_error());
    return 1;
  }
  FILE *out = std::fopen(csv.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", csv.c_str());
    return 1;
  }
  std::fprintf(out, "cond,method,forward_error,backward_error,n\n");
  const std::pair<const char *, Solver> methods[] = {{"exstar_exact", solve_exact0},
                                                     {"exstar_exact_refined2", solve_exact2},
                                                     {"exstar_plain", solve_plain},
                                                     {"lapack_dgesv", solve_lapack}};
  for (int n : sizes) {
    exstar_test::Rng rng(77 + n);
    for (const Problem &p : problems(n)) {
      std::vector<double> xtrue = exstar_test::gen_uniform(n, rng), b(n, 0.0);
      exstar_dgemv('N', n, n, 1.0, p.A.data(), n, xtrue.data(), 1, 0.0, b.data(), 1);
      MpMat R(n, 1);
      for (int i = 0; i < n; ++i) mpfr_set_d(R.at(i, 0), b[i], MPFR_RNDN);
      mp_solve(p.A, n, R);
      std::vector<double> xstar(n);
      for (int i = 0; i < n; ++i) xstar[i] = mpfr_get_d(R.at(i, 0), MPFR_RNDN);
      for (const auto &m : methods) {
        Dense A = p.A;
        std::vector<double> x = b;
        const int s = m.second(n, A, x);
        if (s != EXSTAR_SUCCESS && s != EXSTAR_ERR_NONFINITE) {
          std::fprintf(out, "%.3e,%s,nan,nan,%d\n", p.cond, m.first, n);
          continue;
        }
        const Errors e = errors(p.A, n, b, x, xstar);
        std::fprintf(out, "%.3e,%s,%.3e,%.3e,%d\n", p.cond, m.first, e.forward, e.backward, n);
      }
    }
  }
  std::fclose(out);
  exstar_shutdown();
  std::printf("wrote %s\n", csv.c_str());
  if (png.empty()) png = csv.substr(0, csv.size() >= 4 && csv.compare(csv.size() - 4, 4, ".csv") == 0
                                           ? csv.size() - 4 : csv.size()) + ".png";
  write_plot(csv, png);
  return 0;
}
