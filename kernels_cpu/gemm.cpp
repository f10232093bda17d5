// Exact gemm on the CPU: core/gemm.h's fast sums (kernels_cpu/gemm_sums.cpp), the checked
// finish, and the exact repair of what the check declines.
#include "kernels_cpu/gemm.h"
#include "kernels_cpu/gemm_sums.h"
#include "kernels_cpu/gemm_exact.h"

static_assert(sizeof(exstar_gemm_state_entry) == sizeof(exstar_bdd), "the state entry is an exstar_bdd");

using namespace exstar_gemm;

namespace {

// Whether the first pass declined more than 1/32 of a sample of entries (every 61st): then a
// second full pass costs less than the entries' scalar retries.
bool declines_many(const sums &s, double alpha, double beta, const double *C, int64_t offc, int64_t ldc)
{
  int64_t seen = 0, bad = 0;
  for (int64_t x = 0; x < s.m * s.n; x += 61, ++seen) {
    const int64_t i = x % s.m, j = x / s.m;
    const double cin = beta != 0.0 ? C[offc + i + j * ldc] : 0.0;
    double y;
    bad += !exstar_gemm_finish_fast(s.S[(size_t)x], s.R[(size_t)x], s.bound(i, j), alpha, beta, cin, &y);
  }
  return bad * 32 > seen;
}

} // namespace

int64_t exstar_cpu_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double *A,
                         int64_t offa, int64_t lda, const double *B, int64_t offb, int64_t ldb, double beta, double *C,
                         int64_t offc, int64_t ldc, int exact_only)
{
  if (m <= 0 || n <= 0) return 0;
  const view a = op_view(transa, A, offa, lda), b = op_view(transb, B, offb, ldb);
  sums s;
  const bool fast = !exact_only && k > 0;
  if (fast) fast_sums(m, n, k, a, b, s);
  int64_t repaired = 0;
  // Many declines (wide exponent ranges): the retry pass of every entry at once, as a second
  // vectorized pass with each entry's own split constant, instead of one strided scalar pass an
  // entry (the same S and R: core/gemm.inc's retry); what it declines takes the exact path.
  const bool retry_all = fast && m * n >= 256 && k >= 16 && declines_many(s, alpha, beta, C, offc, ldc);
  exstar_i64 acc[EXSTAR_ACC_WORDS];
  std::vector<int64_t> declined; // i + j*m of the entries the first pass could not prove
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double &c = C[offc + i + j * ldc];
      const double cin = beta != 0.0 ? c : 0.0;
      double y;
      const size_t x = (size_t)(i + j * m);
      if (fast && exstar_gemm_finish_fast(s.S[x], s.R[x], s.bound(i, j), alpha, beta, cin, &y)) {
        c = y;
        continue;
      }
      if (fast && retry_all) {
        declined.push_back((int64_t)x);
        continue;
      }
      c = exact_only ? exstar_gemm_entry_exact_cpu(acc, k, alpha, a.p, a.off + i * a.rs, a.cs, b.p, b.off + j * b.cs, b.rs,
                                                   beta, cin)
                     : exstar_gemm_entry_repair_cpu(acc, k, alpha, a.p, a.off + i * a.rs, a.cs, b.p, b.off + j * b.cs,
                                                    b.rs, beta, cin);
      ++repaired;
    }
  if (!declined.empty()) {
    std::vector<double> sigma;
    product_sigmas(m, n, k, a, b, sigma);
    fast_sums(m, n, k, a, b, s, false, &sigma);
    for (const int64_t x : declined) {
      const int64_t i = x % m, j = x / m;
      double &c = C[offc + i + j * ldc];
      const double cin = beta != 0.0 ? c : 0.0;
      double y;
      c = exstar_gemm_finish_fast(s.S[(size_t)x], s.R[(size_t)x], s.bound(i, j), alpha, beta, cin, &y)
              ? y
              : exstar_gemm_entry_exact_cpu(acc, k, alpha, a.p, a.off + i * a.rs, a.cs, b.p, b.off + j * b.cs, b.rs, beta,
                                            cin);
    }
    repaired += (int64_t)declined.size();
  }
  return repaired;
}

void exstar_cpu_gemm_state_add(char transa, char transb, int64_t m, int64_t n, int64_t k, double sign,
                               const double *A, int64_t offa, int64_t lda, const double *B, int64_t offb, int64_t ldb,
                               exstar_gemm_state_entry *st, int64_t offst, int64_t ldst, char uplo)
{
  if (m <= 0 || n <= 0 || k <= 0) return;
  const bool lower = uplo == 'L';
  // The sums of a tile up to 256 x 256 kept per thread between calls (no page faults, no
  // fresh allocation per tile update); larger blocks for this call only.
  static thread_local sums kept;
  sums once;
  sums &s = m * n <= ((int64_t)1 << 16) ? kept : once;
  fast_sums(m, n, k, op_view(transa, A, offa, lda), op_view(transb, B, offb, ldb), s, lower);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = lower ? j : 0; i < m; ++i) {
      const size_t x = (size_t)(i + j * m);
      exstar_gemm_state_add((exstar_bdd *)&st[offst + i + j * ldst], s.S[x], s.R[x], exstar_gemm_bound(k, s.sigma[x]),
                            sign); // s.bound(i, j), inlined
    }
}

void exstar_cpu_gemm_state_init(int64_t m, int64_t n, const double *C, int64_t offc, int64_t ldc,
                                exstar_gemm_state_entry *st, int64_t offst, int64_t ldst)
{
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) exstar_gemm_state_init((exstar_bdd *)&st[offst + i + j * ldst], C[offc + i + j * ldc]);
}

int64_t exstar_cpu_gemm_state_round(int64_t m, int64_t n, const exstar_gemm_state_entry *st, int64_t offst,
                                    int64_t ldst, double *C, int64_t offc, int64_t ldc, unsigned char *mask)
{
  int64_t declined = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double y;
      const bool ok = exstar_bdd_round_ok((const exstar_bdd *)&st[offst + i + j * ldst], &y);
      if (ok) C[offc + i + j * ldc] = y;
      declined += !ok;
      if (mask) mask[i + j * m] = !ok;
    }
  return declined;
}
