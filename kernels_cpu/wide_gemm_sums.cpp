// kernels_cpu/gemm_sums.cpp compiled a second time for AVX-512 (see wide.h): an 8 x 4 tile of
// 512-bit lanes, its entry point fast_sums_wide. The standard headers and the vectors' code come
// first so that they keep the baseline target (see wide_dot.cpp).
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <vector>

#ifdef EXSTAR_CPU_HAVE_WIDE
template class std::vector<double>;
template class std::vector<int>;
template class std::vector<short>; // int16_t
template class std::vector<unsigned long long>; // exstar_u64
#pragma GCC target("arch=x86-64-v4,prefer-vector-width=512")
#define EXSTAR_CPU_WIDE 1
#include "kernels_cpu/gemm_sums.cpp"
#endif
