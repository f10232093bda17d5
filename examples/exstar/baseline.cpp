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

} // namespace cli
