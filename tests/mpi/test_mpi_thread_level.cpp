// exstar_mpi_init on an MPI the application started below MPI_THREAD_MULTIPLE: a clear argument
// error, nothing started, and the application's MPI still usable (it finalizes it itself).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <exstar/exstar.h>
#include <exstar/mpi.h>
#include <mpi.h>
#include <cstdio>
#include <string>

TEST_CASE("exstar_mpi_init refuses an MPI started below MPI_THREAD_MULTIPLE", "[mpi][errors]")
{
  CHECK(exstar_mpi_init(nullptr, nullptr, nullptr) == EXSTAR_ERR_ARG);
  CHECK(std::string(exstar_last_error()).find("MPI_THREAD_MULTIPLE") != std::string::npos);
  int size = 0;
  CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size) == MPI_SUCCESS); // the application's MPI is untouched
  CHECK(size >= 1);
}

int main(int argc, char **argv)
{
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  if (provided >= MPI_THREAD_MULTIPLE) { // an MPI that always gives the highest level
    std::printf("SKIP: this MPI gave MPI_THREAD_MULTIPLE when asked for less\n");
    MPI_Finalize();
    return 77;
  }
  const int failed = Catch::Session().run(argc, argv);
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
