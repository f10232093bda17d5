// Strict MatrixMarket reader: every defect is one message "FILE:LINE: what".
#include "cli.hpp"
#include "mmio.hpp"
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cli {

namespace {

// Arrays larger than this are refused before allocating (16 GiB of doubles).
const int64_t max_elements = int64_t(1) << 31;

class LineReader {
public:
  explicit LineReader(const std::string &path) : path_(path), in_(path, std::ios::binary)
  {
    if (!in_) throw Failure(path + ": cannot open: " + std::strerror(errno));
  }
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
  [[noreturn]] void fail(const std::string &what) const
  {
    throw Failure(path_ + ":" + std::to_string(std::max(line_, 1)) + ": " + what);
  }
  int line() const { return line_; }

private:
  std::string path_;
  std::ifstream in_;
  int line_ = 0;
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

void parse_banner(LineReader &r)
{
  std::string line;
  if (!r.next(line)) r.fail("empty file (expected a %%MatrixMarket banner)");
  std::vector<std::string> t = split(line);
  if (t.empty() || t[0] != "%%MatrixMarket")
    r.fail("not a MatrixMarket file (the first line must start with %%MatrixMarket)");
  if (t.size() != 5) r.fail("malformed banner (expected '%%MatrixMarket matrix array real general')");
  const char *expected[] = {"matrix", "array", "real", "general"};
  const char *what[] = {"object", "format", "field", "symmetry"};
  for (int k = 0; k < 4; ++k)
    if (lower(t[k + 1]) != expected[k])
      r.fail("unsupported " + std::string(what[k]) + " " + quoted(t[k + 1]) + " (exstar reads only '" +
             expected[k] + "'; the files are '%%MatrixMarket matrix array real general')");
}

int64_t parse_size(LineReader &r, const std::string &t)
{
  bool digits = !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  errno = 0;
  long long v = digits ? std::strtoll(t.c_str(), nullptr, 10) : -1;
  if (!digits || errno == ERANGE) r.fail("bad size " + quoted(t) + " (expected a non-negative integer)");
  return v;
}

void parse_sizes(LineReader &r, Matrix &m)
{
  std::string line;
  do {
    if (!r.next(line)) r.fail("missing size line 'rows cols'");
  } while (blank(line) || line[0] == '%');
  std::vector<std::string> t = split(line);
  if (t.size() != 2) r.fail("bad size line " + quoted(line) + " (expected 'rows cols')");
  m.rows = parse_size(r, t[0]);
  m.cols = parse_size(r, t[1]);
  if (m.cols != 0 && m.rows > max_elements / m.cols)
    r.fail("array too large (" + t[0] + " x " + t[1] + ")");
  m.size_line = r.line();
}

double parse_value(LineReader &r, const std::string &t)
{
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || *end != '\0') r.fail("not a number: " + quoted(t));
  // Underflow to a subnormal or zero is the correct rounding; overflow of a finite literal is not.
  if (errno == ERANGE && std::isinf(v)) r.fail("value out of the double range: " + quoted(t));
  return v;
}

void parse_values(LineReader &r, Matrix &m)
{
  size_t count = (size_t)(m.rows * m.cols);
  m.values.reserve(count);
  std::string line;
  while (r.next(line)) {
    std::vector<std::string> t = split(line);
    if (t.empty()) continue;
    if (line[0] == '%') r.fail("comment inside the data (comments go before the size line)");
    if (m.values.size() == count)
      r.fail("extra data after the " + std::to_string(count) + " values of a " + std::to_string(m.rows) + "x" +
             std::to_string(m.cols) + " array");
    if (t.size() != 1) r.fail("expected one value per line, found " + std::to_string(t.size()));
    m.values.push_back(parse_value(r, t[0]));
  }
  if (m.values.size() != count)
    r.fail("truncated: expected " + std::to_string(count) + " values, found " + std::to_string(m.values.size()));
}

} // namespace

Matrix read_matrix(const std::string &path)
{
  LineReader r(path);
  Matrix m;
  m.file = path;
  parse_banner(r);
  parse_sizes(r, m);
  parse_values(r, m);
  return m;
}

Matrix read_vector(const std::string &path)
{
  Matrix m = read_matrix(path);
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
