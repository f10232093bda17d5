// A user's program: exact dot through the installed exstar.
#include <exstar/exstar.hpp>
#include <cstdio>

int main()
{
  try {
    exstar_config cfg;
    exstar_config_default(&cfg);
    cfg.backends = EXSTAR_BACKEND_CPU;
    exstar::runtime rt(&cfg);
    // (2^1000, -2^1000, 1) . (2^100, 2^100, 1) = 1 exactly, although 2^1100 overflows
    double d = exstar::dot({0x1p1000, -0x1p1000, 1.0}, {0x1p100, 0x1p100, 1.0});
    std::printf("dot = %.17g\n", d);
    return d == 1.0 ? 0 : 1;
  } catch (const exstar::error &e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
