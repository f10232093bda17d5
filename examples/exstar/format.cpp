// How numbers are written: %.17g (every double round-trips through strtod) or %a, with the
// special values spelled inf, -inf and nan on every C library.
#include "cli.hpp"
#include <cmath>
#include <cstdio>

namespace cli {

std::string format_double(double value, bool hex)
{
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, hex ? "%a" : "%.17g", value);
  return buf;
}

void print_scalar(double value, bool hex)
{
  std::printf("%s\n", format_double(value, hex).c_str());
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) throw Failure("cannot write to standard output");
}

void note_plain(const char *what)
{
  std::fprintf(stderr, "exstar: note: --plain: %s in plain double arithmetic, NOT reproducible and NOT "
                       "correctly rounded (a baseline)\n", what);
}

} // namespace cli
