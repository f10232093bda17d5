// The triangle option of 'exstar potrf' and 'exstar posv', its checks and memory.
#include "symmetric.hpp"
#include "cli.hpp"
#include "memory.hpp"
#include <cmath>

namespace cli {

char uplo_option(const Args &args)
{
  const std::string u = args.text("--uplo", "L");
  if (u == "L" || u == "l") return 'L';
  if (u == "U" || u == "u") return 'U';
  throw UsageError("--uplo takes L or U, not '" + u + "'");
}

void require_finite_triangle(const Matrix &a, char uplo, const std::string &what)
{
  for (int64_t j = 0; j < a.cols; ++j)
    for (int64_t i = uplo == 'L' ? j : 0; i < (uplo == 'L' ? a.rows : j + 1); ++i)
      if (!std::isfinite(a.at(i, j)))
        throw Failure(a.file + ": entry (" + std::to_string(i + 1) + "," + std::to_string(j + 1) + ") is " +
                      format_double(a.at(i, j)) + ": " + what + " needs finite input");
}

void keep_triangle(Matrix &a, char uplo)
{
  for (int64_t j = 0; j < a.cols; ++j)
    for (int64_t i = 0; i < a.rows; ++i)
      if (uplo == 'L' ? i < j : i > j) a.at(i, j) = 0.0;
}

int64_t potrf_bytes(int64_t n, char uplo)
{
  const int64_t each = 16 + 8 + (uplo == 'U' ? 8 : 0); // half a state, a tile copy, the transpose
  return entries_bytes(n, n, each);
}

} // namespace cli
