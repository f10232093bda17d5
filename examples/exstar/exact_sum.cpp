// RN of the exact sum of a few doubles, for the duplicate entries of MatrixMarket files: the
// library's own exact accumulator (core/), used directly, so that the reader needs neither
// StarPU nor an initialized library (the fuzzer and its replay run it alone).
#include "mmio.hpp"
#include "core/accumulator.h"

#define EXSTAR_ACC_PTR exstar_i64 *
#define EXSTAR_ACC_ADD(p, v) (*(p) += (v))
#define EXSTAR_ACC_SFX _mm
#include "core/acc_ops.inc"

namespace cli {

double exact_sum(const double *x, size_t n)
{
  std::vector<exstar_i64> acc(EXSTAR_ACC_WORDS, 0);
  // Each deposit adds less than 2^32 to a word; normalizing every 2^28 terms keeps every word
  // far below 2^63 (the bound core/accumulator.h gives for its short calls).
  const size_t normalize_every = (size_t)EXSTAR_ACC_SHORT_CALL_TERMS;
  int flags = 0;
  for (size_t i = 0; i < n; ++i) {
    int deposit = 0;
    flags |= exstar_term_flags(x[i], &deposit);
    if (deposit) exstar_acc_add_double_mm(acc.data(), x[i]);
    if ((i + 1) % normalize_every == 0) exstar_acc_normalize_mm(acc.data());
  }
  exstar_acc_add_flags_mm(acc.data(), flags);
  exstar_acc_normalize_mm(acc.data());
  return exstar_acc_round_private(acc.data());
}

} // namespace cli
