// Composing exstar's LU with a user's own tasks in ONE StarPU graph, and a batch.
//
// The user's codelet "fill" (W A) writes a diagonally dominant matrix into a StarPU matrix
// handle; exstar_dgetrf_insert then submits the LU tasks on the same handle; StarPU orders them
// by their data dependencies alone (no wait in between), and a user's task "check" (R A)
// reading the factors runs after the last LU task. The factors are the same bits whatever the
// scheduler or workers. Then a batch of independent matrices is factored at once.
//
//   compose_lu [n]     (default 64)
#include <exstar/exstar.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// The user's own codelet: a(i,j) = 1/(1 + |i-j|) + n on the diagonal (CPU only: any worker
// kind may be used; StarPU moves the data).
void fill_cpu(void *buffers[], void *)
{
  double *a = (double *)STARPU_MATRIX_GET_PTR(buffers[0]);
  const int64_t m = STARPU_MATRIX_GET_NX(buffers[0]), n = STARPU_MATRIX_GET_NY(buffers[0]);
  const int64_t ld = STARPU_MATRIX_GET_LD(buffers[0]);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) a[i + j * ld] = 1.0 / (1.0 + (double)(i > j ? i - j : j - i)) + (i == j ? n : 0);
}

// The user's check, as a task: the product of U's diagonal (the determinant up to sign).
void det_cpu(void *buffers[], void *cl_arg)
{
  double *out;
  starpu_codelet_unpack_args(cl_arg, &out);
  const double *a = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
  const int64_t n = STARPU_MATRIX_GET_NY(buffers[0]), ld = STARPU_MATRIX_GET_LD(buffers[0]);
  double d = 1.0;
  for (int64_t j = 0; j < n; ++j) d *= a[j + j * ld] / (double)n; // scaled: no overflow
  *out = d;
}

struct starpu_codelet make_cl(void (*f)(void *[], void *), enum starpu_data_access_mode mode, const char *name)
{
  struct starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.cpu_funcs[0] = f;
  cl.nbuffers = 1;
  cl.modes[0] = mode;
  cl.name = name;
  return cl;
}

} // namespace

int main(int argc, char **argv)
{
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 64;
  if (n < 1) return 2;
  if (exstar_init(nullptr) != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "exstar_init: %s\n", exstar_last_error());
    return 1;
  }
  int rc = 0;
  {
    // ---- one graph: user's fill -> exstar's LU -> user's check ----
    std::vector<double> A((size_t)(n * n));
    std::vector<int32_t> ipiv((size_t)n);
    starpu_data_handle_t hA, hp;
    starpu_matrix_data_register(&hA, STARPU_MAIN_RAM, (uintptr_t)A.data(), n, n, n, sizeof(double));
    starpu_vector_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)ipiv.data(), n, sizeof(int32_t));
    struct starpu_codelet fill = make_cl(fill_cpu, STARPU_W, "user_fill");
    struct starpu_codelet det = make_cl(det_cpu, STARPU_R, "user_det");
    double scaled_det = 0.0;
    double *out = &scaled_det;
    int s = starpu_task_insert(&fill, STARPU_W, hA, 0) ? EXSTAR_ERR_STARPU : EXSTAR_SUCCESS;
    if (s == EXSTAR_SUCCESS) s = exstar_dgetrf_insert(n, n, hA, hp, 16);
    if (s == EXSTAR_SUCCESS && starpu_task_insert(&det, STARPU_R, hA, STARPU_VALUE, &out, sizeof out, 0))
      s = EXSTAR_ERR_STARPU;
    starpu_data_unregister(hp); // waits for the graph
    starpu_data_unregister(hA);
    if (s != EXSTAR_SUCCESS) {
      std::fprintf(stderr, "graph: %s\n", exstar_last_error());
      rc = 1;
    } else {
      std::printf("fill -> getrf -> det: det(A)/n^n = %.17g, u(0,0) = %.17g, ipiv[0] = %d\n", scaled_det, A[0],
                  ipiv[0]);
    }

    // ---- a batch: 8 matrices, all graphs submitted before any wait ----
    const int count = 8;
    std::vector<std::vector<double>> mats(count, std::vector<double>((size_t)(n * n)));
    std::vector<std::vector<int32_t>> pivs(count, std::vector<int32_t>((size_t)n));
    std::vector<double *> Ap;
    std::vector<int32_t *> pp;
    std::vector<int64_t> info(count);
    for (int b = 0; b < count; ++b) {
      for (int64_t k = 0; k < n * n; ++k) // a multiplicative hash of k: values in [-1, 1]
        mats[b][k] = (double)((uint64_t)(k * k + 31 * k + 1009 * b) * 2654435761ull % 2003) / 1001.0 - 1.0;
      Ap.push_back(mats[b].data());
      pp.push_back(pivs[b].data());
    }
    s = exstar_dgetrf_batch(count, n, n, Ap.data(), n, pp.data(), info.data());
    if (s != EXSTAR_SUCCESS && s != EXSTAR_ERR_SINGULAR) {
      std::fprintf(stderr, "batch: %s\n", exstar_last_error());
      rc = 1;
    } else {
      for (int b = 0; b < count; ++b)
        std::printf("batch %d: info = %lld, u(n-1,n-1) = %.17g\n", b, (long long)info[b], mats[b][n * n - 1]);
    }
  }
  exstar_shutdown();
  return rc;
}
