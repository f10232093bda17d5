// Whether the wide (AVX-512) copies of the hot kernels run: compiled in, supported by this
// CPU, and not turned off with EXSTAR_CPU_ISA=baseline. Decided once.
#include "kernels_cpu/wide.h"
#include <stdlib.h>
#include <string.h>

namespace {

int decide()
{
#ifdef EXSTAR_CPU_HAVE_WIDE
  const char *isa = getenv("EXSTAR_CPU_ISA");
  if (isa && strcmp(isa, "baseline") == 0) return 0;
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl");
#else
  return 0;
#endif
}

} // namespace

int exstar_cpu_wide_enabled(void)
{
  static const int enabled = decide();
  return enabled;
}
