// The plain-double baselines (see baseline.hpp).
#include "baseline.hpp"

namespace cli {

double plain_dot(const std::vector<double> &x, const std::vector<double> &y)
{
  double s = 0.0;
  for (size_t i = 0; i < x.size(); ++i) s += x[i] * y[i];
  return s;
}

void plain_gemv(bool trans, const Matrix &a, double alpha, const std::vector<double> &x, double beta,
                std::vector<double> &y)
{
  for (double &v : y) v = beta == 0.0 ? 0.0 : beta * v;
  for (int64_t j = 0; j < a.cols; ++j)
    for (int64_t i = 0; i < a.rows; ++i) {
      if (trans) y[(size_t)j] += alpha * a.at(i, j) * x[(size_t)i];
      else y[(size_t)i] += alpha * x[(size_t)j] * a.at(i, j);
    }
}

void plain_trsv(char uplo, bool trans, bool unit, const Matrix &t, std::vector<double> &x)
{
  int64_t n = t.rows;
  bool lower = (uplo == 'L') != trans;
  for (int64_t k = 0; k < n; ++k) {
    int64_t i = lower ? k : n - 1 - k;
    double s = x[(size_t)i];
    for (int64_t l = 0; l < k; ++l) {
      int64_t j = lower ? l : n - 1 - l;
      s -= (trans ? t.at(j, i) : t.at(i, j)) * x[(size_t)j];
    }
    x[(size_t)i] = unit ? s : s / t.at(i, i);
  }
}

void plain_gemm(bool ta, bool tb, const Matrix &a, const Matrix &b, double alpha, double beta, int64_t m, int64_t n,
                int64_t k, std::vector<double> &c)
{
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double s = 0.0;
      for (int64_t l = 0; l < k; ++l) s += (ta ? a.at(l, i) : a.at(i, l)) * (tb ? b.at(j, l) : b.at(l, j));
      double &cij = c[(size_t)(i + j * m)];
      cij = alpha * s + (beta == 0.0 ? 0.0 : beta * cij);
    }
}

void plain_trsm(char side, char uplo, bool trans, bool unit, double alpha, const Matrix &t, int64_t m, int64_t n,
                std::vector<double> &x)
{
  const bool left = side == 'L';
  const int64_t nrhs = left ? n : m, len = left ? m : n;
  for (int64_t v = 0; v < nrhs; ++v) {
    std::vector<double> col((size_t)len);
    for (int64_t i = 0; i < len; ++i) col[(size_t)i] = alpha * (left ? x[(size_t)(i + v * m)] : x[(size_t)(v + i * m)]);
    plain_trsv(uplo, left ? trans : !trans, unit, t, col);
    for (int64_t i = 0; i < len; ++i) (left ? x[(size_t)(i + v * m)] : x[(size_t)(v + i * m)]) = col[(size_t)i];
  }
}

} // namespace cli
