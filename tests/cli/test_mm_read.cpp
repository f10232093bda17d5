// The MatrixMarket reader's contract (examples/exstar/mmio.hpp): every form it reads gives the
// bits of the same matrix written as an 'array real general' file, and duplicate coordinate
// entries add up to RN(their exact sum), checked against the MPFR oracle.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include "examples/exstar/mmio.hpp"
#include "generators.hpp"
#include "oracle.hpp"
#include <cmath>
#include <cstring>
#include <dirent.h>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using cli::Matrix;
using namespace exstar_test;

namespace {

Matrix read_text(const std::string &text, const std::string &name = "test.mtx")
{
  std::istringstream in(text);
  return cli::read_matrix(in, name);
}

// Same dimensions and the same bits in every element.
bool same_bits(const Matrix &a, const Matrix &b)
{
  return a.rows == b.rows && a.cols == b.cols && a.values.size() == b.values.size() &&
         std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)) == 0;
}

// As the tool writes values (cli::format_double): %.17g, with inf, -inf and nan.
std::string text_of(double v)
{
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string array_general(int64_t rows, int64_t cols, const std::vector<double> &colmajor)
{
  std::string s = "%%MatrixMarket matrix array real general\n" + std::to_string(rows) + " " + std::to_string(cols) + "\n";
  for (double v : colmajor) s += text_of(v) + "\n";
  return s;
}

std::vector<std::string> data_files()
{
  std::vector<std::string> names;
  DIR *d = opendir(EXSTAR_MM_DATA_DIR);
  REQUIRE(d != nullptr);
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    bool mtx = n.size() > 4 && n.compare(n.size() - 4, 4, ".mtx") == 0;
    bool ref = n.size() > 8 && n.compare(n.size() - 8, 8, ".ref.mtx") == 0;
    if (mtx && !ref) names.push_back(n.substr(0, n.size() - 4));
  }
  closedir(d);
  return names;
}

// A random value of many kinds: ordinary, tiny, huge, zeros of both signs, now and then inf.
double random_value(Rng &rng)
{
  switch (rand_below(rng, 8)) {
  case 0: return gen_exp_spread(1, -1074, -1000, rng)[0];
  case 1: return gen_exp_spread(1, 900, 1000, rng)[0];
  case 2: return rand_below(rng, 2) ? 0.0 : -0.0;
  case 3: return rand_below(rng, 16) == 0 ? (rand_below(rng, 2) ? INFINITY : -INFINITY) : 1.0;
  default: return gen_exp_spread(1, -60, 60, rng)[0];
  }
}

enum class Symmetry { general, symmetric, skew };
enum class Field { real, integer, pattern };

struct Generated {
  std::string coordinate;  // the file under test
  std::string twin;        // the same matrix as an array real general file
};

// A random rows x cols matrix in coordinate form: each stored position given as 1 to 3
// entries (duplicates), entries shuffled; the twin holds RN(exact sum) of each position's
// entries computed by MPFR, mirrored as the symmetry says.
Generated generate(Rng &rng, Symmetry sym, Field field)
{
  const int64_t rows = 1 + (int64_t)rand_below(rng, 7);
  const int64_t cols = sym == Symmetry::general ? 1 + (int64_t)rand_below(rng, 7) : rows;
  std::vector<double> dense((size_t)(rows * cols), 0.0);
  std::vector<std::string> lines;
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = sym == Symmetry::general ? 0 : j; i < rows; ++i) {
      if (rand_below(rng, 3) == 0) continue;  // never given: +0
      std::vector<double> parts(1 + rand_below(rng, 3));
      for (double &p : parts)
        p = field == Field::pattern ? 1.0
            : field == Field::integer ? (double)((int64_t)rand_below(rng, 2001) - 1000)
            : random_value(rng);
      if (sym == Symmetry::skew && i == j) {
        for (double &p : parts) p = rand_below(rng, 2) ? 0.0 : -0.0;  // allowed, ignored: the diagonal is +0
      } else {
        double v = parts.size() == 1 ? parts[0] : ref_sum(parts);
        dense[(size_t)(i + j * rows)] = v;
        if (i != j && sym == Symmetry::symmetric) dense[(size_t)(j + i * rows)] = v;
        if (i != j && sym == Symmetry::skew) dense[(size_t)(j + i * rows)] = std::isnan(v) ? v : -v;
      }
      for (double p : parts)
        lines.push_back(std::to_string(i + 1) + " " + std::to_string(j + 1) +
                        (field == Field::pattern ? "" : " " + text_of(p)));
    }
  std::vector<int> perm = random_permutation((int)lines.size(), rng);
  const char *fields[] = {"real", "integer", "pattern"};
  const char *syms[] = {"general", "symmetric", "skew-symmetric"};
  Generated g;
  g.coordinate = std::string("%%MatrixMarket matrix coordinate ") + fields[(int)field] + " " + syms[(int)sym] +
                 "\n% generated\n" + std::to_string(rows) + " " + std::to_string(cols) + " " +
                 std::to_string(lines.size()) + "\n";
  for (int k : perm) g.coordinate += lines[(size_t)k] + "\n";
  g.twin = array_general(rows, cols, dense);
  return g;
}

} // namespace

TEST_CASE("every file of tests/cli/data reads bit for bit as its array real general twin", "[mm]")
{
  std::vector<std::string> names = data_files();
  REQUIRE(names.size() >= 10);
  for (const std::string &n : names) {
    INFO(n);
    Matrix m = cli::read_matrix(std::string(EXSTAR_MM_DATA_DIR) + "/" + n + ".mtx");
    Matrix twin = cli::read_matrix(std::string(EXSTAR_MM_DATA_DIR) + "/" + n + ".ref.mtx");
    CHECK(same_bits(m, twin));
  }
}

TEST_CASE("generated coordinate files, with shuffled duplicate entries, read as their array twin", "[mm][generated]")
{
  Rng rng(20240615);
  const Symmetry syms[] = {Symmetry::general, Symmetry::symmetric, Symmetry::skew};
  const Field fields[] = {Field::real, Field::integer, Field::pattern};
  for (Symmetry sym : syms)
    for (Field field : fields) {
      if (field == Field::pattern && sym == Symmetry::skew) continue;  // not a MatrixMarket form
      for (int trial = 0; trial < 40; ++trial) {
        Generated g = generate(rng, sym, field);
        INFO(g.coordinate);
        CHECK(same_bits(read_text(g.coordinate), read_text(g.twin)));
      }
    }
}

TEST_CASE("generated symmetric and skew-symmetric arrays read as their array twin", "[mm][generated]")
{
  Rng rng(7);
  for (int skew = 0; skew < 2; ++skew)
    for (int trial = 0; trial < 30; ++trial) {
      const int64_t n = (int64_t)rand_below(rng, 7);
      std::vector<double> dense((size_t)(n * n), 0.0);
      std::string text = std::string("%%MatrixMarket matrix array real ") + (skew ? "skew-symmetric" : "symmetric") +
                         "\n" + std::to_string(n) + " " + std::to_string(n) + "\n";
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = skew ? j + 1 : j; i < n; ++i) {
          double v = random_value(rng);
          dense[(size_t)(i + j * n)] = v;
          dense[(size_t)(j + i * n)] = skew ? -v : v;
          text += text_of(v) + "\n";
        }
      INFO(text);
      CHECK(same_bits(read_text(text), read_text(array_general(n, n, dense))));
    }
}

TEST_CASE("duplicate entries add up to RN(exact sum), whatever their order", "[mm][duplicates]")
{
  auto entry_11 = [](const std::vector<std::string> &values) {
    std::string text = "%%MatrixMarket matrix coordinate real general\n1 1 " + std::to_string(values.size()) + "\n";
    for (const std::string &v : values) text += "1 1 " + v + "\n";
    return read_text(text).values[0];
  };
  CHECK(entry_11({"1e16", "1", "-1e16"}) == 1.0);  // a double loop gives 0
  CHECK(entry_11({"1", "1e16", "-1e16"}) == 1.0);
  CHECK(entry_11({"-1e16", "1e16", "1"}) == 1.0);
  CHECK(entry_11({"1", "0x1p-53", "0x1p-53"}) == 0x1.0000000000001p0);  // a double loop gives 1
  CHECK(std::signbit(entry_11({"-0", "-0"})));       // -0 only when every term is -0
  CHECK_FALSE(std::signbit(entry_11({"-0", "0"})));
  CHECK_FALSE(std::signbit(entry_11({"1", "-1"})));
  CHECK(std::isnan(entry_11({"inf", "-inf"})));
  CHECK(std::isnan(entry_11({"nan", "1"})));
  CHECK(entry_11({"inf", "1e308", "1e308"}) == INFINITY);
  CHECK(entry_11({"0x1p-1074", "0x1p-1074", "-0x1p-1073", "0x1p-1074"}) == 0x1p-1074);

  Rng rng(99);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> terms = gen_exp_spread(2 + (int)rand_below(rng, 30), -1074, 1000, rng);
    std::vector<std::string> text;
    for (double t : terms) text.push_back(text_of(t));
    const double want = ref_sum(terms);
    INFO("trial " << trial);
    double got = entry_11(text);
    CHECK(std::memcmp(&got, &want, sizeof got) == 0);
    CHECK(cli::exact_sum(terms.data(), terms.size()) == want);
  }
}

TEST_CASE("an entry given once keeps the bits of its value", "[mm][duplicates]")
{
  Matrix m = read_text("%%MatrixMarket matrix coordinate real general\n3 1 3\n1 1 -nan\n2 1 -0\n3 1 0x1p-1074\n");
  double neg_nan = -std::numeric_limits<double>::quiet_NaN();
  CHECK(std::memcmp(&m.values[0], &neg_nan, sizeof(double)) == 0);
  CHECK(std::signbit(m.values[1]));
  CHECK(m.values[2] == 0x1p-1074);
}

TEST_CASE("finite duplicates whose sum overflows are an error naming the position", "[mm][duplicates][errors]")
{
  CHECK_THROWS_WITH(read_text("%%MatrixMarket matrix coordinate real general\n2 2 3\n2 1 1e308\n1 1 1\n2 1 1e308\n"),
                    "test.mtx:5: the 2 entries at (2, 1) add up to a value out of the double range");
  CHECK_THROWS_AS(read_text("%%MatrixMarket matrix coordinate real general\n1 1 2\n1 1 -1e308\n1 1 -1e308\n"),
                  cli::Failure);
}

TEST_CASE("the stream reader refuses sizes above its bound before allocating", "[mm][errors]")
{
  std::istringstream a("%%MatrixMarket matrix coordinate real general\n1000 1000 0\n");
  CHECK_THROWS_WITH(cli::read_matrix(a, "a.mtx", 1000), "a.mtx:2: matrix too large (1000 x 1000)");
  std::istringstream b("%%MatrixMarket matrix coordinate real general\n10 10 2000\n");
  CHECK_THROWS_WITH(cli::read_matrix(b, "b.mtx", 1000), "b.mtx:2: too many entries (2000)");
}
