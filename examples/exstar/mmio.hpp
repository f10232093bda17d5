// MatrixMarket files: read strictly in the forms users have, written as real general arrays.
//
//   %%MatrixMarket matrix FORMAT FIELD SYMMETRY
//   % comments
//   rows cols [entries]
//   data
//
// Read (densified into one column-major array):
//   array       real | integer                general | symmetric | skew-symmetric
//   coordinate  real | integer | pattern      general | symmetric | skew-symmetric (not pattern)
// array data is one value per line, column by column; symmetric arrays store the lower triangle
// (diagonal included), skew-symmetric ones the strictly lower triangle. coordinate data is
// "row col value" per line ("row col" for pattern: the value is 1), 1-based; symmetric and
// skew-symmetric files hold entries on or below the diagonal only, mirrored (negated for skew,
// a NaN mirrored as it is) above it; the diagonal of a skew-symmetric matrix is +0 (entries given there must be zero).
// Entries never given are +0.
// Duplicates: coordinate entries of one position are ADDED (the format's rule) and the sum is
// defined as RN(exact sum of the values read), rounded once to nearest-even, so it does not
// depend on their order in the file (core/accumulator.h computes it; -0 only when every term is
// -0; NaN when a term is NaN or +inf meets -inf). An entry given once keeps its value's bits.
// A sum of finite duplicates that overflows is an error, as an overflowing literal is.
// complex and hermitian files are refused (exstar has no complex arithmetic yet).
//
// Values are written with %.17g (inf, -inf, nan spelled so), so every double round-trips;
// reading takes anything strtod takes as a whole token (decimal, hex floats, inf, nan), each
// value rounded once to the nearest double; integer fields take [+-]digits only.
#ifndef EXSTAR_TOOL_MMIO_HPP
#define EXSTAR_TOOL_MMIO_HPP

#include "errors.hpp"
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace cli {

struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> values;  // column-major, leading dimension rows
  std::string file;            // where it was read from, for messages
  int64_t size_line = 0;       // line of the "rows cols" header, for messages

  double &at(int64_t i, int64_t j) { return values[(size_t)(i + j * rows)]; }
  double at(int64_t i, int64_t j) const { return values[(size_t)(i + j * rows)]; }
};

// Matrices of more elements (rows x cols), and coordinate files of more entries, are refused
// before anything is allocated: 16 GiB of doubles.
const int64_t mm_max_elements = int64_t(1) << 31;

// Called with a file's declared rows and columns once its size line is read, before anything
// is allocated for its values; it may throw (the tool's memory check, memory.hpp).
using SizeCheck = std::function<void(int64_t rows, int64_t cols)>;

// Reads a file; any defect throws Failure("FILE:LINE: what").
Matrix read_matrix(const std::string &path, const SizeCheck &check = nullptr);
// The same from a stream; name stands for the file in messages. max_elements replaces
// mm_max_elements (the fuzzer passes a small bound, so that a short input cannot ask for 16 GiB).
Matrix read_matrix(std::istream &in, const std::string &name, int64_t max_elements = mm_max_elements,
                   const SizeCheck &check = nullptr);
// RN(x_0 + ... + x_{n-1}): the exact sum rounded once (the rule for duplicate entries).
double exact_sum(const double *x, size_t n);
// The declared rows and columns of a regular file, from its banner and size line alone (a
// defect there throws Failure as read_matrix does); false, reading nothing, for anything else
// (a pipe would lose what was read). Lets a command check its memory before reading any input.
bool read_size(const std::string &path, int64_t *rows, int64_t *cols);
// Same, and the array must be a vector (n x 1, or 1 x n).
Matrix read_vector(const std::string &path, const SizeCheck &check = nullptr);
// Throws Failure("FILE:LINE: ...") unless v has n elements (other names the file n came from).
void expect_length(const Matrix &v, int64_t n, const std::string &other);

// An output of one command (option name and path, for messages).
struct NamedOutput {
  const char *option;
  std::string path;
};

// Checks every output of a command before anything is computed: its directory exists and is
// writable, it is not a directory, and no two outputs are one file under two spellings (a
// character device such as /dev/null may take several). Throws Failure (or UsageError for
// the same file twice) with one line that says nothing was computed.
void check_outputs(const std::vector<NamedOutput> &outputs);

// An output file that appears only on commit(). A regular or absent file is written to a
// temporary file beside it (beside a symlink's final target: the link stays a link), which
// takes an existing file's mode and is renamed over it at the end; without commit, or when
// SIGINT, SIGTERM, SIGHUP or SIGPIPE ends the process, the temporary file is removed. A
// character device or FIFO (/dev/null, /dev/full, a pipe) is written in place, never replaced.
class OutputFile {
public:
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;
  FILE *stream() { return stream_; }
  // Closes the file (checking every write) without renaming it yet.
  void finish();
  // finish() if needed, then rename onto the target.
  void commit();

private:
  std::string path_;     // as the user gave it, for messages
  std::string target_;   // what the temporary file replaces (a symlink's final target)
  std::string temp_;     // empty when written in place
  int temp_slot_ = -1;   // its entry in the list that the signal handler removes
  FILE *stream_ = nullptr;
  bool committed_ = false;
};

// The outputs of one command together: every file finished (all writes checked) before any is
// renamed, so that a failed write leaves every old file as it was.
void commit_together(const std::vector<OutputFile *> &files);

// Writes m (rows x cols) in MatrixMarket array format; comment is one optional % line.
void write_matrix(OutputFile &out, int64_t rows, int64_t cols, const std::vector<double> &values,
                  const std::string &comment = "");

} // namespace cli

#endif
