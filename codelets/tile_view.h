/* The view of a tiled task's buffers (exstar_lu_tiled_args followed by its exstar_lu_tiled_buf
 * list) that the tiled factorizations' CPU and CUDA kernels take, shared by their codelets
 * (codelets/lu_tiled.cpp, codelets/potrf_tiled.cpp). Internal. */
#ifndef EXSTAR_CODELETS_TILE_VIEW_H
#define EXSTAR_CODELETS_TILE_VIEW_H
#include "codelets/level3_glue.h"
#include "codelets/lu_tiled.h"
#include "kernels_cpu/lu_tiled.h"
#ifdef EXSTAR_WITH_CUDA_CODELETS
#include "codelets/glue.h"
#include "kernels_cuda/lu_tiled.h"
#endif
#include <vector>

namespace exstar_tiles {

// The view of the tiles given to a task: pointer and ld per tile of the grid, NULL elsewhere.
struct task_view {
  std::vector<double *> a, lc;
  std::vector<exstar_gemm_state_entry *> st;
  std::vector<int64_t> lda, ldst, ldlc;
  std::vector<int32_t *> perm;
  int32_t *ipiv = nullptr;
  exstar_tile_view v;
};

inline void make_view(void *buffers[], const exstar_lu_tiled_args *h, task_view &t)
{
  const size_t tiles = (size_t)(h->mt * h->nt), cols = (size_t)h->nt;
  t.a.assign(tiles, nullptr), t.st.assign(tiles, nullptr), t.lda.assign(tiles, 0), t.ldst.assign(tiles, 0);
  t.lc.assign(cols, nullptr), t.ldlc.assign(cols, 0), t.perm.assign(cols, nullptr);
  bool copies = false;
  const exstar_lu_tiled_buf *b = (const exstar_lu_tiled_buf *)(h + 1);
  for (int q = 0; q < h->nbuf; ++q) {
    const size_t x = (size_t)(b[q].I + b[q].J * h->mt);
    if (b[q].kind == EXSTAR_LU_TILE) {
      t.a[x] = (double *)STARPU_MATRIX_GET_PTR(buffers[q]);
      t.lda[x] = (int64_t)STARPU_MATRIX_GET_LD(buffers[q]);
    } else if (b[q].kind == EXSTAR_LU_STATE) {
      // a block column's states from tile row I0 = max(I, 0) down: tile (I, J)'s at row (I − I0) nb
      exstar_gemm_state_entry *col = (exstar_gemm_state_entry *)STARPU_MATRIX_GET_PTR(buffers[q]);
      const int64_t ld = (int64_t)STARPU_MATRIX_GET_LD(buffers[q]), I0 = b[q].I > 0 ? b[q].I : 0;
      for (int64_t I = I0; I < h->mt; ++I) {
        t.st[(size_t)(I + b[q].J * h->mt)] = col + (I - I0) * h->nb;
        t.ldst[(size_t)(I + b[q].J * h->mt)] = ld;
      }
    } else if (b[q].kind == EXSTAR_LU_TILE_STATE) {
      t.st[x] = (exstar_gemm_state_entry *)STARPU_MATRIX_GET_PTR(buffers[q]);
      t.ldst[x] = (int64_t)STARPU_MATRIX_GET_LD(buffers[q]);
    } else if (b[q].kind == EXSTAR_LU_LCOL) {
      t.lc[(size_t)b[q].J] = (double *)STARPU_MATRIX_GET_PTR(buffers[q]);
      t.ldlc[(size_t)b[q].J] = (int64_t)STARPU_MATRIX_GET_LD(buffers[q]);
      copies = true;
    } else if (b[q].kind == EXSTAR_LU_PERM) {
      t.perm[(size_t)b[q].J] = (int32_t *)STARPU_VECTOR_GET_PTR(buffers[q]);
    } else {
      t.ipiv = (int32_t *)STARPU_VECTOR_GET_PTR(buffers[q]);
    }
  }
  t.v = exstar_tile_view{h->m,          h->n,           h->nb,         h->mt,
                         h->nt,         t.a.data(),     t.lda.data(),  t.st.data(),
                         t.ldst.data(), copies ? t.lc.data() : nullptr, t.ldlc.data(), copies ? t.perm.data() : nullptr};
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
// The tiles a task was given, for the CUDA launchers (device pointers in host arrays).
inline exstar_cuda_tiles cuda_tiles(const task_view &t)
{
  return exstar_cuda_tiles{t.v.m,        t.v.n,         t.v.nb, t.v.mt, t.v.nt, t.a.data(), t.lda.data(),
                           reinterpret_cast<void *const *>(t.st.data()), t.ldst.data(), t.v.lc, t.ldlc.data(),
                           t.v.perm};
}

// Unpacks a tiled task for a CUDA launcher: launch(h, t, v, stream) returns its status.
template <class Launch> void run_cuda(void *buffers[], void *cl_arg, const char *what, Launch launch)
{
  const exstar_lu_tiled_args *h = (const exstar_lu_tiled_args *)cl_arg;
  task_view t;
  make_view(buffers, h, t);
  const exstar_cuda_tiles v = cuda_tiles(t);
  exstar_codelet_cuda_run(what, [&](cudaStream_t s) { return launch(*h, t, v, s); });
}
#endif

} // namespace exstar_tiles
#endif
