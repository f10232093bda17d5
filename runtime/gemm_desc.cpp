// The exact gemm on descriptors (include/exstar/tiles.h): one exstar_gemm_tiles_cl task a tile
// of C, on its tile row of op(A) and tile column of op(B); on several GPUs each tile of C is
// computed on its GPU of the near-square grid the blocking exstar_dgemm uses.
#include "runtime/internal.h"
#include "runtime/getrf_tiled.h"
#include <cstring>
#include <vector>

namespace {

bool is_notrans(char t) { return t == 'N' || t == 'n'; }
bool is_trans(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

// op(X)'s rows and columns (as op, not as stored).
void op_shape(char t, const exstar_rt::tiled_desc &x, int64_t *rows, int64_t *cols)
{
  *rows = is_notrans(t) ? x.m : x.n;
  *cols = is_notrans(t) ? x.n : x.m;
}

// Tile l of op(X)'s tile row (op(A)) or tile column (op(B)) p, as stored.
starpu_data_handle_t op_tile(char t, const exstar_rt::tiled_desc &x, bool row_of_op, int64_t p, int64_t l)
{
  const bool swap = row_of_op == is_notrans(t); // op(A) 'N': A(p, l); op(B) 'N': B(l, p)
  return swap ? x.tile(p, l) : x.tile(l, p);
}

int check_args(const char *who, char transa, char transb, exstar_desc A, exstar_desc B, exstar_desc C)
{
  if (!is_notrans(transa) && !is_trans(transa))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: transa must be 'N', 'T' or 'C'", who);
  if (!is_notrans(transb) && !is_trans(transb))
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: transb must be 'N', 'T' or 'C'", who);
  if (!A || !B || !C) return exstar_set_error(EXSTAR_ERR_ARG, "%s: A, B or C is NULL", who);
  if (C == A || C == B) return exstar_set_error(EXSTAR_ERR_ARG, "%s: C must not be A or B", who);
  const exstar_rt::tiled_desc &a = *exstar_rt::desc_tiles(A), &b = *exstar_rt::desc_tiles(B),
                              &c = *exstar_rt::desc_tiles(C);
  if (a.nb != c.nb || b.nb != c.nb)
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: A, B and C must have one tile size (nb %lld, %lld, %lld)", who,
                            (long long)a.nb, (long long)b.nb, (long long)c.nb);
  int64_t am, ak, bk, bn;
  op_shape(transa, a, &am, &ak);
  op_shape(transb, b, &bk, &bn);
  if (am != c.m || bn != c.n || ak != bk)
    return exstar_set_error(EXSTAR_ERR_ARG,
                            "%s: op(A) is %lld x %lld, op(B) %lld x %lld and C %lld x %lld: the shapes do not match",
                            who, (long long)am, (long long)ak, (long long)bk, (long long)bn, (long long)c.m,
                            (long long)c.n);
  return EXSTAR_SUCCESS;
}

} // namespace

int exstar_dgemm_desc_insert(char transa, char transb, double alpha, exstar_desc A, exstar_desc B, double beta,
                             exstar_desc C)
{
  const char *who = "exstar_dgemm_desc_insert";
  exstar_rt::clear_error();
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = check_args(who, transa, transb, A, B, C)) return s;
  const exstar_rt::tiled_desc &a = *exstar_rt::desc_tiles(A), &b = *exstar_rt::desc_tiles(B),
                              &c = *exstar_rt::desc_tiles(C);
  int64_t am, k;
  op_shape(transa, a, &am, &k);
  const int64_t kt = (k + c.nb - 1) / c.nb;
  // masks that outlive this call: the tasks run after it returns, and StarPU keeps the pointer
  const std::vector<std::vector<uint32_t>> &gpus = exstar_rt::lasting_gpu_worker_masks();
  unsigned pg, qg;
  exstar_rt::gemm_gpu_grid(gpus.size(), &pg, &qg);
  std::vector<starpu_data_descr> bufs((size_t)(2 * kt + 1));
  for (int64_t J = 0; J < c.nt; ++J)
    for (int64_t I = 0; I < c.mt; ++I) {
      exstar_gemm_tiles_args args;
      std::memset(&args, 0, sizeof args);
      args.transa = is_notrans(transa) ? 'N' : 'T';
      args.transb = is_notrans(transb) ? 'N' : 'T';
      args.m = (int64_t)starpu_matrix_get_nx(c.tile(I, J)), args.n = (int64_t)starpu_matrix_get_ny(c.tile(I, J));
      args.k = k, args.kb = c.nb, args.kt = kt, args.alpha = alpha, args.beta = beta;
      args.exact_only = exstar_rt::exact_only();
      for (int64_t l = 0; l < kt; ++l) {
        bufs[(size_t)l] = {op_tile(transa, a, true, I, l), STARPU_R};
        bufs[(size_t)(kt + l)] = {op_tile(transb, b, false, J, l), STARPU_R};
      }
      bufs[(size_t)(2 * kt)] = {c.tile(I, J), beta == 0.0 ? STARPU_W : STARPU_RW};
      const std::vector<uint32_t> *on = pg ? &gpus[(size_t)((I % pg) * qg + J % qg)] : nullptr;
      const int ret =
          on ? starpu_task_insert(&exstar_gemm_tiles_cl, STARPU_DATA_MODE_ARRAY, bufs.data(), (int)bufs.size(),
                                  STARPU_VALUE, &args, sizeof args, STARPU_TASK_WORKERIDS, (unsigned)on->size(),
                                  on->data(), STARPU_NAME, "exstar_gemm_tiles", 0)
             : starpu_task_insert(&exstar_gemm_tiles_cl, STARPU_DATA_MODE_ARRAY, bufs.data(), (int)bufs.size(),
                                  STARPU_VALUE, &args, sizeof args, STARPU_NAME, "exstar_gemm_tiles", 0);
      if (ret != 0) return exstar_rt::submit_status(ret, who);
    }
  return EXSTAR_SUCCESS;
}
