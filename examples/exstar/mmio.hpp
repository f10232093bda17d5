// MatrixMarket array files (real general), read strictly and written atomically.
//
//   %%MatrixMarket matrix array real general
//   % comments
//   rows cols
//   one value per line, column-major (a vector is an n x 1 array)
//
// Values are written with %.17g (inf, -inf, nan spelled so), so every double round-trips;
// reading takes anything strtod takes as a whole token (decimal, hex floats, inf, nan).
#ifndef EXSTAR_TOOL_MMIO_HPP
#define EXSTAR_TOOL_MMIO_HPP

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace cli {

struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> values;  // column-major, leading dimension rows
  std::string file;            // where it was read from, for messages
  int size_line = 0;           // line of the "rows cols" header, for messages

  double &at(int64_t i, int64_t j) { return values[(size_t)(i + j * rows)]; }
  double at(int64_t i, int64_t j) const { return values[(size_t)(i + j * rows)]; }
};

// Reads a file; any defect throws Failure("FILE:LINE: what").
Matrix read_matrix(const std::string &path);
// Same, and the array must be a vector (n x 1, or 1 x n).
Matrix read_vector(const std::string &path);
// Throws Failure("FILE:LINE: ...") unless v has n elements (other names the file n came from).
void expect_length(const Matrix &v, int64_t n, const std::string &other);

// An output file that appears only on commit(): data goes to a temporary file in the same
// directory, renamed over the target at the end. Without commit the temporary file is removed.
class OutputFile {
public:
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;
  FILE *stream() { return stream_; }
  // Closes the temporary file (checking every write) without renaming it yet.
  void finish();
  // finish() if needed, then rename onto the target.
  void commit();

private:
  std::string path_, temp_;
  FILE *stream_ = nullptr;
  bool committed_ = false;
};

// Writes m (rows x cols) in MatrixMarket array format; comment is one optional % line.
void write_matrix(OutputFile &out, int64_t rows, int64_t cols, const std::vector<double> &values,
                  const std::string &comment = "");

} // namespace cli

#endif
