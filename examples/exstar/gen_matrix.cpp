// gen matrix / gen triangular: A = Q1 diag(s) Q2 with Householder reflectors, and the R factor
// of its QR. Plain double arithmetic: test data, not results, so rounding here only makes the
// condition number approximate.
#include "gen.hpp"
#include "memory.hpp"
#include "mmio.hpp"
#include <cmath>
#include <cstdio>

namespace cli {

namespace {

using Dense = std::vector<double>;  // n x n, column-major

// s_i = C^(-i/(n-1)): geometric from 1 down to 1/C.
Dense diagonal(const GenParams &p)
{
  int64_t n = p.n;
  Dense a((size_t)(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) a[(size_t)(i + i * n)] = n == 1 ? 1.0 : std::pow(p.cond, -(double)i / (double)(n - 1));
  return a;
}

std::vector<double> random_direction(Rng &rng, int64_t n)
{
  std::vector<double> v((size_t)n);
  for (double &e : v) e = rng.nonzero_symmetric();
  return v;
}

double squared_norm(const std::vector<double> &v)
{
  double s = 0.0;
  for (double e : v) s += e * e;
  return s;
}

// a := a (I - 2 u u^T / u^T u)
void reflect_right(Dense &a, int64_t n, const std::vector<double> &u)
{
  double f = 2.0 / squared_norm(u);
  for (int64_t i = 0; i < n; ++i) {
    double w = 0.0;
    for (int64_t j = 0; j < n; ++j) w += a[(size_t)(i + j * n)] * u[(size_t)j];
    for (int64_t j = 0; j < n; ++j) a[(size_t)(i + j * n)] -= f * w * u[(size_t)j];
  }
}

// a := (I - 2 v v^T / v^T v) a, on rows and columns from k on (v[0..k) ignored).
void reflect_left(Dense &a, int64_t n, const std::vector<double> &v, int64_t k)
{
  double vv = 0.0;
  for (int64_t i = k; i < n; ++i) vv += v[(size_t)i] * v[(size_t)i];
  if (vv == 0.0) return;
  for (int64_t j = k; j < n; ++j) {
    double z = 0.0;
    for (int64_t i = k; i < n; ++i) z += v[(size_t)i] * a[(size_t)(i + j * n)];
    for (int64_t i = k; i < n; ++i) a[(size_t)(i + j * n)] -= 2.0 * z / vv * v[(size_t)i];
  }
}

Dense conditioned_matrix(const GenParams &p)
{
  Rng rng(p.seed);
  Dense a = diagonal(p);
  reflect_right(a, p.n, random_direction(rng, p.n));
  reflect_left(a, p.n, random_direction(rng, p.n), 0);
  return a;
}

// Householder QR in place; returns R (upper triangular, exact zeros below the diagonal).
Dense r_factor(Dense a, int64_t n)
{
  std::vector<double> v((size_t)n);
  for (int64_t k = 0; k + 1 < n; ++k) {
    double norm = 0.0;
    for (int64_t i = k; i < n; ++i) norm += a[(size_t)(i + k * n)] * a[(size_t)(i + k * n)];
    norm = std::sqrt(norm);
    double akk = a[(size_t)(k + k * n)];
    for (int64_t i = k; i < n; ++i) v[(size_t)i] = a[(size_t)(i + k * n)];
    v[(size_t)k] = akk + (akk < 0 ? -norm : norm);  // the sign that avoids cancellation
    reflect_left(a, n, v, k);
    for (int64_t i = k + 1; i < n; ++i) a[(size_t)(i + k * n)] = 0.0;
  }
  return a;
}

Dense transposed(const Dense &a, int64_t n)
{
  Dense t(a.size());
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) t[(size_t)(j + i * n)] = a[(size_t)(i + j * n)];
  return t;
}

void write_square(const std::string &path, int64_t n, const Dense &a, const std::string &what, const GenParams &p)
{
  char note[160];
  std::snprintf(note, sizeof note, "exstar gen %s --n %lld --cond %g --seed %llu", what.c_str(), (long long)p.n,
                p.cond, (unsigned long long)p.seed);
  OutputFile out(path);
  write_matrix(out, n, n, a, note);
  out.commit();
}

} // namespace

int gen_matrix(const Args &args, const GenParams &p)
{
  std::string path = args.output();
  check_outputs({{"-o", path}});
  check_memory(args, matrix_words(p.n, p.n), entries_bytes(p.n, p.n), false); // no library call
  write_square(path, p.n, conditioned_matrix(p), "matrix", p);
  return EXIT_OK;
}

int gen_triangular(const Args &args, const GenParams &p)
{
  std::string path = args.output(), uplo = args.text("--uplo", "U");
  if (uplo != "U" && uplo != "L" && uplo != "u" && uplo != "l") throw UsageError("--uplo: expected U or L");
  check_outputs({{"-o", path}});
  check_memory(args, matrix_words(p.n, p.n), entries_bytes(p.n, p.n, 16), false); // A and R (or R's transpose)
  Dense r = r_factor(conditioned_matrix(p), p.n);
  bool lower = uplo == "L" || uplo == "l";
  write_square(path, p.n, lower ? transposed(r, p.n) : r, lower ? "triangular --uplo L" : "triangular", p);
  return EXIT_OK;
}

} // namespace cli
