/* The user guide's example (docs/user-guide.md): exstar's codelets in a StarPU graph of your own.
 *
 * The program starts StarPU itself, then exstar on top of it. In one task graph:
 *   1. the user's own codelet "user_fill" writes x and y (mode W);
 *   2. exstar_ddot_insert adds the exact dot of the first half of x, y into an exact
 *      accumulator, and a second call adds the second half into the SAME accumulator
 *      (STARPU_REDUX: one longer exact reduction, split over the workers);
 *   3. the same dot again, this time by inserting exstar's codelet exstar_dot_cl directly
 *      with its argument block (struct exstar_reduce_args);
 *   4. exstar_acc_round_insert rounds each accumulator once into a double;
 *   5. the user's codelet "user_report" reads both doubles (mode R) and prints them.
 * No wait in between: StarPU orders the tasks by their data alone.
 *
 * The data make plain double arithmetic fail: x = (2^60, 1, -2^60, 2^60, 1, -2^60, ...),
 * y = (1, 1, ...), so the exact dot is the number of triples, while a plain left-to-right
 * loop loses every 1 (2^60 + 1 rounds to 2^60) and returns 0.
 *
 *   guide_example [triples]     (default 100000); exit code 0 when both results are exact
 *
 * Build: this file is built by exstar's CMake (target guide_example) and run by ctest
 * (test guide_example); outside the tree: cc guide_example.c $(pkg-config --cflags --libs exstar) */
#include <exstar/exstar.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- the user's own codelets (CPU only here; StarPU moves the data where needed) ---- */
static void user_fill_cpu(void *buffers[], void *cl_arg)
{
  (void)cl_arg;
  double *x = (double *)STARPU_VECTOR_GET_PTR(buffers[0]);
  double *y = (double *)STARPU_VECTOR_GET_PTR(buffers[1]);
  const size_t n = STARPU_VECTOR_GET_NX(buffers[0]);
  for (size_t i = 0; i < n; ++i) {
    x[i] = i % 3 == 0 ? 0x1p60 : i % 3 == 1 ? 1.0 : -0x1p60;
    y[i] = 1.0;
  }
}

static void user_report_cpu(void *buffers[], void *cl_arg)
{
  (void)cl_arg;
  const double *r1 = (const double *)STARPU_VARIABLE_GET_PTR(buffers[0]);
  const double *r2 = (const double *)STARPU_VARIABLE_GET_PTR(buffers[1]);
  printf("exact dot (insert helper): %.17g\nexact dot (raw codelet):   %.17g\n", *r1, *r2);
}

static struct starpu_codelet user_fill_cl = {
  .cpu_funcs = {user_fill_cpu}, .nbuffers = 2, .modes = {STARPU_W, STARPU_W}, .name = "user_fill"};
static struct starpu_codelet user_report_cl = {
  .cpu_funcs = {user_report_cpu}, .nbuffers = 2, .modes = {STARPU_R, STARPU_R}, .name = "user_report"};

static int fail(const char *what)
{
  fprintf(stderr, "guide_example: %s: %s\n", what, exstar_last_error());
  return 1;
}

int main(int argc, char **argv)
{
  const long triples = argc > 1 ? atol(argv[1]) : 100000;
  if (triples < 1) return 2;
  const int64_t n = 3 * (int64_t)triples, half = n / 2;

  /* Your own StarPU start (any starpu_conf, any scheduler), then exstar's programs. */
  if (starpu_init(NULL) != 0) {
    fprintf(stderr, "guide_example: starpu_init failed\n");
    return 1;
  }
  if (exstar_init(NULL) != EXSTAR_SUCCESS) { /* NULL: StarPU is already running */
    starpu_shutdown();
    return fail("exstar_init");
  }

  double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
  double r1 = 0.0, r2 = 0.0;
  starpu_data_handle_t hx, hy, hr1, hr2, acc1, acc2;
  if (!x || !y) return 1;
  starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, (uint32_t)n, sizeof(double));
  starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y, (uint32_t)n, sizeof(double));
  starpu_variable_data_register(&hr1, STARPU_MAIN_RAM, (uintptr_t)&r1, sizeof(double));
  starpu_variable_data_register(&hr2, STARPU_MAIN_RAM, (uintptr_t)&r2, sizeof(double));
  int rc = 0;
  if (exstar_acc_register(&acc1) != EXSTAR_SUCCESS || exstar_acc_register(&acc2) != EXSTAR_SUCCESS)
    return fail("exstar_acc_register");

  /* 1. the user's task writes the data */
  if (starpu_task_insert(&user_fill_cl, STARPU_W, hx, STARPU_W, hy, 0) != 0) rc = fail("user_fill");
  /* 2. two exact partial dots into one accumulator (0 parts: one task per worker each) */
  if (!rc && exstar_ddot_insert(half, hx, 0, 1, hy, 0, 1, acc1, 0) != EXSTAR_SUCCESS) rc = fail("ddot_insert");
  if (!rc && exstar_ddot_insert(n - half, hx, half, 1, hy, half, 1, acc1, 0) != EXSTAR_SUCCESS)
    rc = fail("ddot_insert");
  /* 3. the same dot by exstar's codelet itself: R x, R y, REDUX acc, one argument block */
  struct exstar_reduce_args args = {.n = n, .offx = 0, .incx = 1, .offy = 0, .incy = 1};
  if (!rc && starpu_task_insert(&exstar_dot_cl, STARPU_R, hx, STARPU_R, hy, STARPU_REDUX, acc2,
                                STARPU_VALUE, &args, sizeof args, 0) != 0)
    rc = fail("exstar_dot_cl");
  /* 4. the one rounding of each accumulator */
  if (!rc && exstar_acc_round_insert(acc1, hr1) != EXSTAR_SUCCESS) rc = fail("acc_round_insert");
  if (!rc && exstar_acc_round_insert(acc2, hr2) != EXSTAR_SUCCESS) rc = fail("acc_round_insert");
  /* 5. the user's task reads the results */
  if (!rc && starpu_task_insert(&user_report_cl, STARPU_R, hr1, STARPU_R, hr2, 0) != 0) rc = fail("user_report");

  /* Unregistering waits for the tasks on each handle and brings the data back home. */
  exstar_acc_unregister(acc1);
  exstar_acc_unregister(acc2);
  starpu_data_unregister(hr1);
  starpu_data_unregister(hr2);
  starpu_data_unregister(hx);
  starpu_data_unregister(hy);

  /* For comparison: the plain double loop (NOT reproducible, NOT correctly rounded). */
  double plain = 0.0;
  for (int64_t i = 0; i < n; ++i) plain += x[i] * y[i];
  printf("plain double loop:         %.17g\nexpected (exact):          %ld\n", plain, triples);
  if (!rc && (r1 != (double)triples || r2 != (double)triples)) {
    fprintf(stderr, "guide_example: wrong result\n");
    rc = 1;
  }

  free(x);
  free(y);
  exstar_shutdown(); /* exstar's programs; StarPU stays up: it is ours */
  starpu_shutdown();
  return rc;
}
