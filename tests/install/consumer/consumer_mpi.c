/* Builds against exstar's StarPU-MPI component (find_package(exstar COMPONENTS mpi)). */
#include <exstar/mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  if (exstar_mpi_init(&argc, &argv, NULL) != EXSTAR_SUCCESS) return 1;
  double x[3] = {0x1p60, 1.0, -0x1p60}, y[3] = {1.0, 1.0, 1.0}, dot = 0.0;
  int s = exstar_mpi_ddot(3, x, 1, y, 1, &dot);
  if (exstar_mpi_rank() == 0) printf("dot = %g\n", dot);
  exstar_mpi_shutdown();
  return s;
}
