// Input checks and the pivot file of getrf / gesv (see lu.hpp).
#include "lu.hpp"
#include "cli.hpp"
#include <cmath>
#include <cstdio>

namespace cli {

void require_square(const Matrix &a)
{
  if (a.rows != a.cols)
    throw Failure(a.file + ":" + std::to_string(a.size_line) + ": expected a square matrix, got " +
                  std::to_string(a.rows) + "x" + std::to_string(a.cols));
}

void require_finite(const Matrix &a, const std::string &what)
{
  for (int64_t j = 0; j < a.cols; ++j)
    for (int64_t i = 0; i < a.rows; ++i)
      if (!std::isfinite(a.at(i, j)))
        throw Failure(a.file + ": entry (" + std::to_string(i + 1) + "," + std::to_string(j + 1) + ") is " +
                      format_double(a.at(i, j)) + ": " + what + " needs finite input (nothing computed)");
}

int64_t count_nonfinite(const std::vector<double> &values)
{
  int64_t k = 0;
  for (double v : values) k += !std::isfinite(v);
  return k;
}

void warn_overflow(const std::string &what, int64_t count, const std::string &done)
{
  std::fprintf(stderr, "exstar: warning: %s overflowed: %lld %s inf or NaN (the exact values lie beyond the "
                       "double range); %s\n", what.c_str(), (long long)count, count == 1 ? "entry is" : "entries are",
               done.c_str());
}

void write_pivots(OutputFile &out, const std::vector<int32_t> &ipiv)
{
  // Small integers are exact doubles and %.17g prints them without a point: "3".
  std::vector<double> values(ipiv.begin(), ipiv.end());
  write_matrix(out, (int64_t)ipiv.size(), 1, values,
               "ipiv (LAPACK, 1-based): row i was interchanged with row ipiv(i), for i = 1, 2, ...");
}

} // namespace cli

namespace cli {

void lu_shape(const Args &args)
{
  if (args.has("--nb") && args.has("--unblocked")) throw UsageError("--nb and --unblocked exclude each other");
  if (args.has("--unblocked")) exstar_set_lu_tile(-1);
  else exstar_set_lu_tile(args.integer("--nb", 0, 1, INT32_MAX));
}

const char *const lu_shape_help =
    "  --nb NB        tile edge of the tiled LU (default: exstar_default_tile, 128); never\n"
    "                 changes a bit of the result\n"
    "  --unblocked    the unblocked graph on one matrix handle (the reference; slow)\n";

} // namespace cli
