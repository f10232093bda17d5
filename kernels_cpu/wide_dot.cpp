// kernels_cpu/dot.cpp compiled a second time for AVX-512 (see wide.h), its entry point renamed
// *_wide. The standard headers come first so that their inline functions keep the baseline
// target; all that follows the pragma is local to this file (anonymous namespaces, static
// inline core), so no AVX-512 code can reach a baseline caller through the linker.
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <vector>

#ifdef EXSTAR_CPU_HAVE_WIDE
// instantiated here, before the pragma: the kernels' std::vector<double> code stays baseline
// (its instances are shared with the baseline copies through the linker)
template class std::vector<double>;
#pragma GCC target("arch=x86-64-v4,prefer-vector-width=512")
#define EXSTAR_CPU_WIDE 1
#include "kernels_cpu/dot.cpp"
#endif
