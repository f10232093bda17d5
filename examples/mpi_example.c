/* exstar in an application's own StarPU-MPI graph: a distributed dot and gemv, exact.
 *
 * Every process runs this program. Each one owns one piece of x and y (the same numbers as the
 * guide's example: (2^60, 1, -2^60) repeated, against ones, so plain double arithmetic loses
 * every 1) and one row panel of a matrix A with its piece of z. The application registers its
 * pieces with StarPU-MPI (starpu_mpi_data_register: a tag and an owner each), then:
 *   1. exstar_mpi_ddot_insert: dot = RN(x·y) over all pieces, computed where `dot` lives
 *      (rank 0): each piece's exact sum on its owner, the exact accumulators sent and added;
 *   2. exstar_mpi_dgemv_insert: z := RN(A·x_small) piece by piece on the pieces' owners;
 *   3. the application's own codelet reads `dot` on rank 0 and prints it.
 * Rank 0 then recomputes both with one process's exstar_ddot / exstar_dgemv and checks the bits.
 *
 *   mpirun -np N mpi_example [triples per process]   (default 1000); exit 0 when exact
 *
 * Built by exstar's CMake when StarPU-MPI is found (target mpi_example; ctest mpi_example);
 * outside the tree: mpicc mpi_example.c $(pkg-config --cflags --libs exstar-mpi) */
#include <exstar/exstar.h>
#include <exstar/level2.h>
#include <exstar/mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 8, COLS = 5 }; /* each process's panel of A: ROWS x COLS */

static void report_cpu(void *buffers[], void *cl_arg)
{
  (void)cl_arg;
  printf("exact dot over all processes: %.17g\n", *(double *)STARPU_VARIABLE_GET_PTR(buffers[0]));
}
static struct starpu_codelet report_cl = {.cpu_funcs = {report_cpu}, .nbuffers = 1, .modes = {STARPU_R}};

/* Every failed call is said, with its rank; main then exits non-zero. */
static void fail(int rank, const char *call, const char *msg)
{
  fprintf(stderr, "mpi_example: rank %d: %s failed: %s\n", rank, call, msg);
}

int main(int argc, char **argv)
{
  if (exstar_mpi_init(&argc, &argv, NULL) != EXSTAR_SUCCESS) {
    fprintf(stderr, "mpi_example: %s\n", exstar_last_error());
    return 1;
  }
  const int me = exstar_mpi_rank(), np = exstar_mpi_size();
  const long triples = argc > 1 ? atol(argv[1]) : 1000;
  const long n = 3 * triples; /* elements per process */
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  for (long i = 0; i < n; ++i) x[i] = i % 3 == 1 ? 1.0 : (i % 3 == 0 ? 0x1p60 : -0x1p60), y[i] = 1.0;
  double panel[ROWS * COLS], z[ROWS], v[COLS] = {0x1p60, 1.0, -0x1p60, 3.0, 0x1p-60}, dot = 0.0;
  for (int i = 0; i < ROWS * COLS; ++i) panel[i] = (double)((i * 7 + me) % 11) - 5.0;
  for (int i = 0; i < ROWS; ++i) z[i] = 0.0;

  /* every process registers every piece: its own with its memory, the others' without */
  starpu_data_handle_t *hx = malloc(sizeof *hx * np), *hy = malloc(sizeof *hy * np);
  starpu_data_handle_t *ha = malloc(sizeof *ha * np), *hz = malloc(sizeof *hz * np), hv, hdot;
  int64_t tag = 1;
  for (int r = 0; r < np; ++r) {
    const int mine = r == me;
    starpu_vector_data_register(&hx[r], mine ? STARPU_MAIN_RAM : -1, mine ? (uintptr_t)x : 0, n, sizeof(double));
    starpu_vector_data_register(&hy[r], mine ? STARPU_MAIN_RAM : -1, mine ? (uintptr_t)y : 0, n, sizeof(double));
    starpu_matrix_data_register(&ha[r], mine ? STARPU_MAIN_RAM : -1, mine ? (uintptr_t)panel : 0, ROWS, ROWS, COLS,
                                sizeof(double));
    starpu_vector_data_register(&hz[r], mine ? STARPU_MAIN_RAM : -1, mine ? (uintptr_t)z : 0, ROWS, sizeof(double));
    starpu_mpi_data_register(hx[r], tag++, r);
    starpu_mpi_data_register(hy[r], tag++, r);
    starpu_mpi_data_register(ha[r], tag++, r);
    starpu_mpi_data_register(hz[r], tag++, r);
  }
  starpu_vector_data_register(&hv, me == 0 ? STARPU_MAIN_RAM : -1, me == 0 ? (uintptr_t)v : 0, COLS, sizeof(double));
  starpu_mpi_data_register(hv, tag++, 0);
  starpu_variable_data_register(&hdot, me == 0 ? STARPU_MAIN_RAM : -1, me == 0 ? (uintptr_t)&dot : 0, sizeof(double));
  starpu_mpi_data_register(hdot, tag++, 0);

  /* one graph, no wait in between: StarPU-MPI orders and moves by the data alone */
  int s = exstar_mpi_ddot_insert(MPI_COMM_WORLD, np, hx, hy, hdot);
  if (s != EXSTAR_SUCCESS) fail(me, "exstar_mpi_ddot_insert", exstar_last_error());
  if (s == EXSTAR_SUCCESS) {
    s = exstar_mpi_dgemv_insert(MPI_COMM_WORLD, np, 1.0, ha, hv, 0.0, hz);
    if (s != EXSTAR_SUCCESS) fail(me, "exstar_mpi_dgemv_insert", exstar_last_error());
  }
  if (s == EXSTAR_SUCCESS) {
    /* StarPU's own status: -ENODEV when rank 0 has no CPU worker for the report */
    const int ret = starpu_mpi_task_insert(MPI_COMM_WORLD, &report_cl, STARPU_R, hdot, 0);
    if (ret != 0) s = EXSTAR_ERR_STARPU, fail(me, "starpu_mpi_task_insert (report)", strerror(-ret));
  }
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  for (int r = 0; r < np; ++r) {
    starpu_data_unregister(hx[r]), starpu_data_unregister(hy[r]);
    starpu_data_unregister(ha[r]), starpu_data_unregister(hz[r]);
  }
  starpu_data_unregister(hv);
  starpu_data_unregister(hdot);

  /* rank 0: the same numbers through one process's calls (its own pieces: every process's x
   * and y are equal, so the whole dot is np times its own) */
  int ok = 1;
  if (me == 0) {
    double want = 0.0, zwant[ROWS];
    double *xs = malloc(sizeof(double) * n * np), *ys = malloc(sizeof(double) * n * np);
    for (long i = 0; i < n * np; ++i) xs[i] = x[i % n], ys[i] = 1.0;
    if (exstar_ddot(n * np, xs, 1, ys, 1, &want) != EXSTAR_SUCCESS) ok = 0, fail(me, "exstar_ddot", exstar_last_error());
    if (exstar_dgemv('N', ROWS, COLS, 1.0, panel, ROWS, v, 1, 0.0, zwant, 1) != EXSTAR_SUCCESS)
      ok = 0, fail(me, "exstar_dgemv", exstar_last_error());
    ok = ok && memcmp(&want, &dot, sizeof dot) == 0 && memcmp(zwant, z, sizeof z) == 0 && dot == (double)(triples * np);
    printf("one process: %.17g; z on rank 0 %s; plain double would give 0\n", want,
           memcmp(zwant, z, sizeof z) == 0 ? "equal" : "DIFFERENT");
    free(xs), free(ys);
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  /* a failure on any rank fails every rank */
  int all_ok = s == EXSTAR_SUCCESS && ok, every = 0;
  MPI_Allreduce(&all_ok, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  free(hx), free(hy), free(ha), free(hz), free(x), free(y);
  if (exstar_mpi_shutdown() != EXSTAR_SUCCESS) every = 0, fail(me, "exstar_mpi_shutdown", exstar_last_error());
  if (!every && me == 0) fprintf(stderr, "mpi_example: FAILED (see the messages above)\n");
  return every ? 0 : 1;
}
