// Driver of the exact gemv: argument checks, blocking into row x column blocks of tasks, the
// per-block accumulator arrays (STARPU_REDUX) and one finish task per output block.
#include "runtime/internal.h"
#include "runtime/check_handles.h"
#include "codelets/codelets.h"
#include "core/accumulator.h"
#include <cstring>

namespace {

// Terms one task adds to an accumulator at most (kernels' digit headroom: 2^26).
constexpr int64_t kMaxInner = (int64_t)1 << 24;
// Accumulators in one array handle at most (a StarPU vector has fewer than 2^32 elements).
constexpr int64_t kMaxOuter = (int64_t)1 << 20;

bool is_notrans(char t) { return t == 'N' || t == 'n'; }
bool is_trans(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

// An operand with no element is not read, so its handle may be NULL (exstar_dgemv registers
// none for it); any handle given is checked.
int check_vec_operand(const char *who, const char *name, starpu_data_handle_t h, int64_t n, int64_t off, int64_t inc)
{
  if (n == 0 && !h) return EXSTAR_SUCCESS;
  return exstar_rt::check_vector_handle(who, name, h, n, off, inc);
}

int check_matrix_operand(const char *who, starpu_data_handle_t A, int64_t m, int64_t n, int64_t ia, int64_t ja)
{
  if ((m == 0 || n == 0) && !A) return EXSTAR_SUCCESS;
  return exstar_rt::check_matrix_handle(who, "A", A, ia, ja, m, n);
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Only CPU workers run: the fused gemv task (CPU only) cannot leave an accelerator idle.
bool cpu_only() { return starpu_cuda_worker_get_count() == 0 && starpu_opencl_worker_get_count() == 0; }

// Block sizes: the caller's, else the output split into one block per worker; both capped.
void block_sizes(bool notrans, int64_t m, int64_t n, int64_t *mb, int64_t *nb)
{
  const int64_t leny = notrans ? m : n;
  const int64_t split = leny > 0 ? ceil_div(leny, exstar_rt::default_nparts()) : 1;
  if (*mb <= 0) *mb = notrans ? split : (m > 0 ? m : 1);
  if (*nb <= 0) *nb = notrans ? (n > 0 ? n : 1) : split;
  int64_t *inner = notrans ? nb : mb, *outer = notrans ? mb : nb;
  if (*inner > kMaxInner) *inner = kMaxInner;
  if (*outer > kMaxOuter) *outer = kMaxOuter;
}

// The tasks of one output block [o0, o0+olen): accumulate over inner blocks, then finish.
int insert_output_block(const char *who, bool notrans, int64_t m, int64_t n, double alpha, starpu_data_handle_t A,
                        int64_t ia, int64_t ja, starpu_data_handle_t x, int64_t offx, int64_t incx, double beta,
                        starpu_data_handle_t y, int64_t offy, int64_t incy, int64_t o0, int64_t olen, int64_t iblk)
{
  const int64_t leny = notrans ? m : n, lenx = notrans ? n : m;
  // one inner block: its task alone adds to accs, which need no reduction
  const bool alone = lenx <= iblk;
  if (alone && lenx > 0 && cpu_only()) {
    // the whole output block in one CPU task: the fast path with its exact fallback, no
    // accumulators in between (the same bits). It writes a workspace of its own (the blocks
    // run concurrently: they only read y), copied into y by a short task.
    starpu_data_handle_t out;
    starpu_vector_data_register(&out, -1, 0, (uint32_t)olen, sizeof(double));
    exstar_gemv_fused_args a;
    std::memset(&a, 0, sizeof a);
    a.trans = notrans ? 'N' : 'T';
    a.m = notrans ? olen : lenx;
    a.n = notrans ? lenx : olen;
    a.ia = ia + (notrans ? o0 : 0);
    a.ja = ja + (notrans ? 0 : o0);
    a.alpha = alpha;
    a.offx = offx;
    a.incx = incx;
    a.beta = beta;
    a.offy = exstar_rt::subvector_offset(leny, offy, incy, o0, olen);
    a.incy = incy;
    a.exact_only = exstar_rt::exact_only();
    int ret = starpu_task_insert(&exstar_gemv_fused_cl, STARPU_R, A, STARPU_R, x, STARPU_R, y, STARPU_W, out,
                                 STARPU_VALUE, &a, sizeof a, STARPU_NAME, "exstar_gemv_fused", 0);
    if (ret == 0) {
      exstar_trsv_update_args u;
      std::memset(&u, 0, sizeof u);
      u.n = olen, u.add = 0, u.offd = 0, u.incd = 1, u.offx = a.offy, u.incx = incy;
      ret = starpu_task_insert(&exstar_trsv_update_cl, STARPU_R, out, STARPU_RW, y, STARPU_VALUE, &u, sizeof u,
                               STARPU_NAME, "exstar_gemv_copy", 0);
    }
    starpu_data_unregister_submit(out);
    return ret == 0 ? EXSTAR_SUCCESS : exstar_rt::submit_status(ret, who);
  }
  starpu_data_handle_t accs;
  if (int s = exstar_accs_register(&accs, olen)) return s;
  int ret = 0;
  for (int64_t k0 = 0; k0 < lenx && ret == 0; k0 += iblk) {
    const int64_t klen = lenx - k0 < iblk ? lenx - k0 : iblk;
    exstar_gemv_acc_args a;
    std::memset(&a, 0, sizeof a);
    a.trans = notrans ? 'N' : 'T';
    a.m = notrans ? olen : klen;
    a.n = notrans ? klen : olen;
    a.ia = ia + (notrans ? o0 : k0);
    a.ja = ja + (notrans ? k0 : o0);
    a.alpha = alpha;
    a.offx = exstar_rt::subvector_offset(lenx, offx, incx, k0, klen);
    a.incx = incx;
    a.offacc = 0;
    ret = starpu_task_insert(alone ? &exstar_gemv_acc_rw_cl : &exstar_gemv_acc_cl, STARPU_EXECUTE_WHERE,
                             exstar_rt::where_for(A), STARPU_R, A, STARPU_R, x, alone ? STARPU_RW : STARPU_REDUX, accs,
                             STARPU_VALUE, &a, sizeof a, STARPU_NAME, "exstar_gemv_acc", 0);
  }
  if (ret == 0) {
    exstar_gemv_finish_args f;
    std::memset(&f, 0, sizeof f);
    f.n = olen;
    f.beta = beta;
    f.offy = exstar_rt::subvector_offset(leny, offy, incy, o0, olen);
    f.incy = incy;
    f.offacc = 0;
    ret = starpu_task_insert(&exstar_gemv_finish_cl, STARPU_R, accs, STARPU_RW, y, STARPU_VALUE, &f, sizeof f,
                             STARPU_NAME, "exstar_gemv_finish", 0);
  }
  starpu_data_unregister_submit(accs);
  return ret == 0 ? EXSTAR_SUCCESS : exstar_rt::submit_status(ret, who);
}

} // namespace

int exstar_accs_register(starpu_data_handle_t *accs, int64_t count)
{
  const char *who = "exstar_accs_register";
  if (int s = exstar_rt::require_init(who)) return s;
  if (!accs) return exstar_set_error(EXSTAR_ERR_ARG, "%s: accs is NULL", who);
  if (count < 1 || count > (int64_t)(UINT32_MAX / EXSTAR_ACC_WORDS))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: count %lld out of [1, 2^32/%d]", who, (long long)count,
                            (int)EXSTAR_ACC_WORDS);
  return exstar_rt::register_accs(who, accs, count);
}

int exstar_dgemv_insert(char trans, int64_t m, int64_t n, double alpha, starpu_data_handle_t A, int64_t ia, int64_t ja,
                        starpu_data_handle_t x, int64_t offx, int64_t incx, double beta, starpu_data_handle_t y,
                        int64_t offy, int64_t incy, int64_t mb, int64_t nb)
{
  const char *who = "exstar_dgemv_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (!is_notrans(trans) && !is_trans(trans))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: trans must be 'N' or 'T'", who);
  if (m < 0 || n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0", who);
  if (mb < 0 || nb < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: mb or nb < 0", who);
  const bool notrans = is_notrans(trans);
  const int64_t leny = notrans ? m : n, lenx = notrans ? n : m;
  if (int s = check_matrix_operand(who, A, m, n, ia, ja)) return s;
  if (int s = check_vec_operand(who, "x", x, lenx, offx, incx)) return s;
  if (int s = check_vec_operand(who, "y", y, leny, offy, incy)) return s;
  if (leny == 0) return EXSTAR_SUCCESS;
  if (int s = exstar_rt::check_fits(who, "A", lenx > 0 ? A : nullptr)) return s;
  block_sizes(notrans, m, n, &mb, &nb);
  const int64_t oblk = notrans ? mb : nb, iblk = notrans ? nb : mb;
  for (int64_t o0 = 0; o0 < leny; o0 += oblk) {
    const int64_t olen = leny - o0 < oblk ? leny - o0 : oblk;
    if (int s = insert_output_block(who, notrans, m, n, alpha, A, ia, ja, x, offx, incx, beta, y, offy, incy, o0,
                                    olen, iblk))
      return s;
  }
  return EXSTAR_SUCCESS;
}

int exstar_dgemv(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t lda, const double *x,
                 int64_t incx, double beta, double *y, int64_t incy)
{
  const char *who = "exstar_dgemv";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (!is_notrans(trans) && !is_trans(trans))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: trans must be 'N' or 'T'", who);
  if (m < 0 || n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: m or n < 0", who);
  if (lda < (m > 1 ? m : 1)) return exstar_set_error(EXSTAR_ERR_ARG, "%s: lda < max(1, m)", who);
  const bool notrans = is_notrans(trans);
  const int64_t leny = notrans ? m : n, lenx = notrans ? n : m;
  if (m > 0 && n > 0 && !A) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A is NULL", who);
  if (int s = exstar_rt::check_vector(who, "x", lenx, x, incx)) return s;
  if (int s = exstar_rt::check_vector(who, "y", leny, y, incy)) return s;
  if (lda > UINT32_MAX || m > UINT32_MAX || n > UINT32_MAX ||
      (uint64_t)exstar_rt::vector_span(lenx, incx) > UINT32_MAX ||
      (uint64_t)exstar_rt::vector_span(leny, incy) > UINT32_MAX)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: dimensions beyond 2^32 are not supported", who);
  if (leny == 0) return EXSTAR_SUCCESS;
  starpu_data_handle_t hA = nullptr, hx = nullptr;
  if (lenx > 0) {
    starpu_matrix_data_register(&hA, STARPU_MAIN_RAM, (uintptr_t)A, (uint32_t)lda, (uint32_t)m, (uint32_t)n,
                                sizeof(double));
    hx = exstar_rt::register_vector(x, exstar_rt::vector_span(lenx, incx));
  }
  starpu_data_handle_t hy = exstar_rt::register_vector(y, exstar_rt::vector_span(leny, incy));
  int s = exstar_dgemv_insert(trans, m, n, alpha, hA, 0, 0, hx, 0, incx, beta, hy, 0, incy, 0, 0);
  starpu_data_unregister(hy);
  if (hx) starpu_data_unregister(hx);
  if (hA) starpu_data_unregister(hA);
  if (s == EXSTAR_SUCCESS) s = exstar_rt::take_codelet_error();
  return s;
}
