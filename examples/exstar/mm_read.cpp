// Strict MatrixMarket reader: every defect is one message "FILE:LINE: what" (mmio.hpp says
// which forms are read and how coordinate files are densified).
#include "mmio.hpp"
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <sstream>
#include <sys/stat.h>

namespace cli {

namespace {

class LineReader {
public:
  LineReader(std::istream &in, const std::string &name) : name_(name), in_(in) {}
  // Next line without its end of line (LF or CRLF); false at end of file.
  bool next(std::string &s)
  {
    if (!std::getline(in_, s)) {
      if (in_.bad()) fail("read error");
      return false;
    }
    ++line_;
    if (!s.empty() && s.back() == '\r') s.pop_back();
    return true;
  }
  [[noreturn]] void fail(const std::string &what) const { fail_at(std::max<int64_t>(line_, 1), what); }
  [[noreturn]] void fail_at(int64_t line, const std::string &what) const
  {
    throw Failure(name_ + ":" + std::to_string(line) + ": " + what);
  }
  int64_t line() const { return line_; }

private:
  std::string name_;
  std::istream &in_;
  int64_t line_ = 0;
};

std::vector<std::string> split(const std::string &s)
{
  std::istringstream in(s);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  return tokens;
}

std::string lower(std::string s)
{
  for (char &c : s) c = (char)std::tolower((unsigned char)c);
  return s;
}

// A token quoted in a message, cut short so a binary file gives a readable line.
std::string quoted(const std::string &t)
{
  std::string s = t.size() > 40 ? t.substr(0, 40) + "..." : t;
  for (char &c : s)
    if (!std::isprint((unsigned char)c)) c = '?';
  return "'" + s + "'";
}

bool blank(const std::string &s) { return split(s).empty(); }

enum class Format { array, coordinate };
enum class Field { real, integer, pattern };
enum class Symmetry { general, symmetric, skew };

struct Header {
  Format format = Format::array;
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  int64_t entries = 0;  // coordinate: the entry count of the size line
};

const char *const banner_help = "'%%MatrixMarket matrix array|coordinate real|integer|pattern general|symmetric|skew-symmetric'";

Header parse_banner(LineReader &r)
{
  std::string line;
  if (!r.next(line)) r.fail("empty file (expected a %%MatrixMarket banner)");
  std::vector<std::string> t = split(line);
  if (t.empty() || t[0] != "%%MatrixMarket")
    r.fail("not a MatrixMarket file (the first line must start with %%MatrixMarket)");
  if (t.size() != 5) r.fail(std::string("malformed banner (expected ") + banner_help + ")");
  const std::string object = lower(t[1]), format = lower(t[2]), field = lower(t[3]), symmetry = lower(t[4]);
  if (object != "matrix") r.fail("unsupported object " + quoted(t[1]) + " (exstar reads only 'matrix')");
  Header h;
  if (format == "array") h.format = Format::array;
  else if (format == "coordinate") h.format = Format::coordinate;
  else r.fail("unsupported format " + quoted(t[2]) + " (exstar reads 'array' and 'coordinate')");
  if (field == "real") h.field = Field::real;
  else if (field == "integer") h.field = Field::integer;
  else if (field == "pattern" && h.format == Format::coordinate) h.field = Field::pattern;
  else if (field == "pattern") r.fail("unsupported field 'pattern' for an array (pattern is for coordinate files)");
  else if (field == "complex") r.fail("unsupported field " + quoted(t[3]) + " (exstar has no complex arithmetic yet)");
  else r.fail("unsupported field " + quoted(t[3]) + " (exstar reads 'real', 'integer' and 'pattern')");
  if (symmetry == "general") h.symmetry = Symmetry::general;
  else if (symmetry == "symmetric") h.symmetry = Symmetry::symmetric;
  else if (symmetry == "skew-symmetric") h.symmetry = Symmetry::skew;
  else if (symmetry == "hermitian")
    r.fail("unsupported symmetry " + quoted(t[4]) + " (a complex matrix; exstar has no complex arithmetic yet)");
  else r.fail("unsupported symmetry " + quoted(t[4]) + " (exstar reads 'general', 'symmetric' and 'skew-symmetric')");
  // The format's own rule (NIST's mmio.c refuses it too): a pattern has no signs to negate.
  if (h.field == Field::pattern && h.symmetry == Symmetry::skew)
    r.fail("a 'pattern' matrix cannot be 'skew-symmetric' (the format has no such matrices)");
  return h;
}

int64_t parse_size(LineReader &r, const std::string &t, const char *what)
{
  bool digits = !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  errno = 0;
  long long v = digits ? std::strtoll(t.c_str(), nullptr, 10) : -1;
  if (!digits || errno == ERANGE)
    r.fail(std::string("bad ") + what + " " + quoted(t) + " (expected a non-negative integer)");
  return v;
}

void parse_sizes(LineReader &r, Header &h, Matrix &m, int64_t max_elements)
{
  std::string line;
  do {
    if (!r.next(line)) r.fail(h.format == Format::array ? "missing size line 'rows cols'" : "missing size line 'rows cols entries'");
  } while (blank(line) || line[0] == '%');
  std::vector<std::string> t = split(line);
  if (h.format == Format::array && t.size() != 2) r.fail("bad size line " + quoted(line) + " (expected 'rows cols')");
  if (h.format == Format::coordinate && t.size() != 3)
    r.fail("bad size line " + quoted(line) + " (expected 'rows cols entries')");
  m.rows = parse_size(r, t[0], "size");
  m.cols = parse_size(r, t[1], "size");
  if (m.cols != 0 && m.rows > max_elements / m.cols)
    r.fail(std::string(h.format == Format::array ? "array" : "matrix") + " too large (" + t[0] + " x " + t[1] + ")");
  if (h.symmetry != Symmetry::general && m.rows != m.cols)
    r.fail(std::string("a ") + (h.symmetry == Symmetry::symmetric ? "symmetric" : "skew-symmetric") +
           " matrix must be square, got " + t[0] + " x " + t[1]);
  if (h.format == Format::coordinate) {
    h.entries = parse_size(r, t[2], "entry count");
    if (h.entries > max_elements) r.fail("too many entries (" + t[2] + ")");
  }
  m.size_line = r.line();
}

double parse_value(LineReader &r, const std::string &t, Field field)
{
  // An integer field holds [+-]digits; they are read as the nearest double, like real values.
  if (field == Field::integer) {
    size_t k = (t[0] == '+' || t[0] == '-') ? 1 : 0;
    if (k == t.size() || !std::all_of(t.begin() + (long)k, t.end(), [](char c) { return c >= '0' && c <= '9'; }))
      r.fail("not an integer: " + quoted(t));
  }
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || *end != '\0') r.fail("not a number: " + quoted(t));
  // Underflow to a subnormal or zero is the correct rounding; overflow of a finite literal is not.
  if (errno == ERANGE && std::isinf(v)) r.fail("value out of the double range: " + quoted(t));
  return v;
}

// The next data line's tokens, skipping blank lines; false at the end of the file.
bool next_data(LineReader &r, std::vector<std::string> &t)
{
  std::string line;
  while (r.next(line)) {
    t = split(line);
    if (t.empty()) continue;
    if (line[0] == '%') r.fail("comment inside the data (comments go before the size line)");
    return true;
  }
  return false;
}

// The mirror of a skew-symmetric entry. A NaN stays as it is: it has no sign to negate, and
// the writer spells every NaN "nan", which reads back as this reader's NaN bits.
double negated(double v) { return std::isnan(v) ? v : -v; }

// array: `count` values, one per line; general arrays are m.values as they stand.
void parse_array(LineReader &r, const Header &h, Matrix &m)
{
  const int64_t n = m.rows;
  int64_t count = h.symmetry == Symmetry::general ? m.rows * m.cols
                  : h.symmetry == Symmetry::symmetric ? n * (n + 1) / 2
                                                      : (n > 0 ? n * (n - 1) / 2 : 0);
  const char *kind = h.symmetry == Symmetry::general ? "" : h.symmetry == Symmetry::symmetric ? "symmetric " : "skew-symmetric ";
  std::vector<double> stored;
  stored.reserve((size_t)count);
  std::vector<std::string> t;
  while (next_data(r, t)) {
    if ((int64_t)stored.size() == count)
      r.fail("extra data after the " + std::to_string(count) + " values of a " + kind + std::to_string(m.rows) + "x" +
             std::to_string(m.cols) + " array");
    if (t.size() != 1) r.fail("expected one value per line, found " + std::to_string(t.size()));
    stored.push_back(parse_value(r, t[0], h.field));
  }
  if ((int64_t)stored.size() != count)
    r.fail("truncated: expected " + std::to_string(count) + " values, found " + std::to_string(stored.size()));
  if (h.symmetry == Symmetry::general) {
    m.values = std::move(stored);
    return;
  }
  // The lower triangle column by column (strictly lower for skew), mirrored above.
  m.values.assign((size_t)(n * n), 0.0);
  size_t k = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = h.symmetry == Symmetry::skew ? j + 1 : j; i < n; ++i) {
      double v = stored[k++];
      m.at(i, j) = v;
      if (i != j) m.at(j, i) = h.symmetry == Symmetry::skew ? negated(v) : v;
    }
}

struct Entry {
  int64_t pos;   // i + j*rows, 0-based
  double value;
  int64_t line;
};

int64_t parse_index(LineReader &r, const std::string &t, const char *what, int64_t size)
{
  int64_t v = parse_size(r, t, what);
  if (v < 1 || v > size)
    r.fail(std::string(what) + " " + t + " out of range [1, " + std::to_string(size) + "]");
  return v - 1;
}

std::string position(int64_t i, int64_t j) { return "(" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ")"; }

// coordinate: h.entries lines "row col [value]", densified; duplicates added (mmio.hpp).
void parse_coordinate(LineReader &r, const Header &h, Matrix &m)
{
  const size_t fields = h.field == Field::pattern ? 2 : 3;
  std::vector<Entry> entries;
  // The count is only a claim until the entries are there: reserve a bounded amount.
  entries.reserve((size_t)std::min<int64_t>(h.entries, 1 << 16));
  std::vector<std::string> t;
  while (next_data(r, t)) {
    if ((int64_t)entries.size() == h.entries)
      r.fail("extra data after the " + std::to_string(h.entries) + " entries announced on line " +
             std::to_string(m.size_line));
    if (t.size() != fields)
      r.fail(std::string("expected '") + (fields == 2 ? "row col" : "row col value") + "', found " +
             std::to_string(t.size()) + " field" + (t.size() == 1 ? "" : "s"));
    int64_t i = parse_index(r, t[0], "row index", m.rows);
    int64_t j = parse_index(r, t[1], "column index", m.cols);
    double v = fields == 2 ? 1.0 : parse_value(r, t[2], h.field);
    if (h.symmetry != Symmetry::general && i < j)
      r.fail("entry " + position(i, j) + " above the diagonal of a " +
             (h.symmetry == Symmetry::symmetric ? "symmetric" : "skew-symmetric") +
             " matrix (only the lower triangle is stored)");
    if (h.symmetry == Symmetry::skew && i == j && v != 0.0)
      r.fail("nonzero diagonal entry " + position(i, j) + " of a skew-symmetric matrix");
    entries.push_back({i + j * m.rows, v, r.line()});
  }
  if ((int64_t)entries.size() != h.entries)
    r.fail("truncated: expected " + std::to_string(h.entries) + " entries, found " + std::to_string(entries.size()));

  // Group the duplicates. Their exact sum does not depend on the order; sorting by line too only
  // makes the line quoted by a message the same on every library.
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.pos != b.pos ? a.pos < b.pos : a.line < b.line; });
  m.values.assign((size_t)(m.rows * m.cols), 0.0);
  std::vector<double> terms;
  for (size_t g = 0; g < entries.size();) {
    size_t end = g + 1;
    while (end < entries.size() && entries[end].pos == entries[g].pos) ++end;
    const int64_t i = entries[g].pos % (m.rows > 0 ? m.rows : 1), j = entries[g].pos / (m.rows > 0 ? m.rows : 1);
    double v = entries[g].value;
    if (end - g > 1) {
      terms.clear();
      bool finite = true;
      for (size_t k = g; k < end; ++k) {
        terms.push_back(entries[k].value);
        finite = finite && std::isfinite(entries[k].value);
      }
      v = exact_sum(terms.data(), terms.size());
      if (finite && std::isinf(v))
        r.fail_at(entries[end - 1].line, "the " + std::to_string(end - g) + " entries at " + position(i, j) +
                                             " add up to a value out of the double range");
    }
    g = end;
    if (h.symmetry == Symmetry::skew && i == j) continue;  // zero entries; the diagonal stays +0
    m.at(i, j) = v;
    if (i != j && h.symmetry == Symmetry::symmetric) m.at(j, i) = v;
    if (i != j && h.symmetry == Symmetry::skew) m.at(j, i) = negated(v);
  }
}

} // namespace

Matrix read_matrix(std::istream &in, const std::string &name, int64_t max_elements, const SizeCheck &check)
{
  LineReader r(in, name);
  Matrix m;
  m.file = name;
  Header h = parse_banner(r);
  parse_sizes(r, h, m, max_elements);
  if (check) check(m.rows, m.cols);
  if (h.format == Format::array) parse_array(r, h, m);
  else parse_coordinate(r, h, m);
  return m;
}

Matrix read_matrix(const std::string &path, const SizeCheck &check)
{
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure(path + ": cannot open: " + std::strerror(errno));
  return read_matrix(in, path, mm_max_elements, check);
}

bool read_size(const std::string &path, int64_t *rows, int64_t *cols)
{
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false; // read_matrix says why
  LineReader r(in, path);
  Matrix m;
  Header h = parse_banner(r);
  parse_sizes(r, h, m, mm_max_elements);
  *rows = m.rows, *cols = m.cols;
  return true;
}

Matrix read_vector(const std::string &path, const SizeCheck &check)
{
  Matrix m = read_matrix(path, check);
  if (m.cols != 1 && m.rows != 1)
    throw Failure(path + ":" + std::to_string(m.size_line) + ": expected a vector (n x 1), got a " +
                  std::to_string(m.rows) + "x" + std::to_string(m.cols) + " array");
  // A 1 x n array holds the same values in the same order as n x 1.
  m.rows = (int64_t)m.values.size();
  m.cols = 1;
  return m;
}

void expect_length(const Matrix &v, int64_t n, const std::string &other)
{
  if (v.rows != n)
    throw Failure(v.file + ":" + std::to_string(v.size_line) + ": length " + std::to_string(v.rows) +
                  " does not match " + other + " (" + std::to_string(n) + ")");
}

} // namespace cli
