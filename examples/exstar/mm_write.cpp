// MatrixMarket writer (the output files themselves: output_file.cpp).
#include "cli.hpp"
#include "mmio.hpp"

namespace cli {

void write_matrix(OutputFile &out, int64_t rows, int64_t cols, const std::vector<double> &values,
                  const std::string &comment)
{
  FILE *f = out.stream();
  std::fprintf(f, "%%%%MatrixMarket matrix array real general\n");
  if (!comment.empty()) std::fprintf(f, "%% %s\n", comment.c_str());
  std::fprintf(f, "%lld %lld\n", (long long)rows, (long long)cols);
  for (double v : values) std::fprintf(f, "%s\n", format_double(v).c_str());
}

} // namespace cli
