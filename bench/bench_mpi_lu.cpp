// Strong scaling of the distributed LU over StarPU-MPI: run under `mpirun -np P`, it factors one
// n x n matrix (uniform in [-1, 1), fixed seed, on rank 0) with exstar_mpi_dgetrf (exact) and
// exstar_mpi_dgetrf_plain (the same distributed tiled graph in plain double, LAPACK/BLAS
// kernels), --reps times each, and prints one CSV row per implementation (median seconds,
// including the tiles' way to their owners and back) with the bytes StarPU-MPI sent per rank
// (STARPU_COMM_STATS=1, set here before StarPU starts):
//   ranks,n,nb,implementation,seconds,bytes_sent_max_rank,bytes_sent_total
// bench/mpi_scaling.sh runs it for 1..P processes and plots the CSV.
#include <exstar/exstar.h>
#include <exstar/mpi.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct options {
  int64_t n = 1024, nb = 0;
  int reps = 3;
  int ncpus = 1; // CPU workers per process
  int P = 0, Q = 0; // the process grid (0 x 0: the LU's default, 1 x ranks)
  bool cuda = false; // one CUDA device a process (STARPU_WORKERS_CUDAID picks it), no CPU worker
  bool header = false;
};

options parse(int argc, char **argv)
{
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? argv[++i] : (std::fprintf(stderr, "%s needs a value\n", a.c_str()), std::exit(2), ""); };
    if (a == "--n") o.n = std::atoll(next());
    else if (a == "--nb") o.nb = std::atoll(next());
    else if (a == "--reps") o.reps = std::atoi(next());
    else if (a == "--ncpus") o.ncpus = std::atoi(next());
    else if (a == "--header") o.header = true;
    else if (a == "--cuda") o.cuda = true;
    else if (a == "--grid") {
      const char *g = next();
      if (std::sscanf(g, "%dx%d", &o.P, &o.Q) != 2) o.P = o.Q = -1;
    }
    else {
      std::fprintf(stderr, "usage: mpirun -np P exstar_bench_mpi_lu [--n N] [--nb NB] [--reps R] [--ncpus C] [--grid PxQ] [--cuda] [--header]\n");
      std::exit(2);
    }
  }
  return o;
}

// Bytes this rank has sent through StarPU-MPI so far.
size_t bytes_sent()
{
  std::vector<size_t> to((size_t)exstar_mpi_size(), 0);
  starpu_mpi_comm_amounts_retrieve(to.data());
  size_t s = 0;
  for (size_t b : to) s += b;
  return s;
}

using getrf_fn = int (*)(int64_t, int64_t, double *, int64_t, int32_t *, int64_t *, int64_t, int, int);

// Median seconds of reps factorizations, and the bytes sent per factorization (max over ranks, total).
void measure(const options &o, const char *name, getrf_fn f, const std::vector<double> &A0)
{
  const int me = exstar_mpi_rank();
  std::vector<double> t;
  std::vector<int32_t> ipiv((size_t)o.n);
  size_t sent = 0;
  std::vector<double> last;
  for (int r = 0; r < o.reps; ++r) {
    std::vector<double> A = A0;
    int64_t info = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    const size_t before = bytes_sent();
    const double t0 = MPI_Wtime();
    int s = f(o.n, o.n, me == 0 ? A.data() : nullptr, o.n, ipiv.data(), &info, o.nb, o.P, o.Q);
    const double t1 = MPI_Wtime();
    sent = bytes_sent() - before;
    if (s != EXSTAR_SUCCESS && me == 0) std::fprintf(stderr, "%s: %s\n", name, exstar_last_error());
    t.push_back(t1 - t0);
    if (me == 0) last.swap(A);
  }
  if (me == 0) { // FNV-1a of the last run's factors and pivots: the same bits on any number of ranks
    unsigned long long h = 1469598103934665603ULL;
    auto mix = [&](const void *p, size_t bytes) {
      for (size_t i = 0; i < bytes; ++i) h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ULL;
    };
    mix(last.data(), last.size() * sizeof(double));
    mix(ipiv.data(), ipiv.size() * sizeof(int32_t));
    std::fprintf(stderr, "# %s n=%lld on %d ranks: factors fnv1a %016llx\n", name, (long long)o.n, exstar_mpi_size(), h);
  }
  std::sort(t.begin(), t.end());
  unsigned long long mine = sent, mx = 0, total = 0;
  MPI_Reduce(&mine, &mx, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0)
    std::printf("%d,%lld,%lld,%s,%.6g,%llu,%llu,%dx%d\n", exstar_mpi_size(), (long long)o.n,
                (long long)(o.nb ? o.nb : exstar_default_tile(o.n, o.n)), name, t[t.size() / 2], mx, total,
                o.P ? o.P : 1, o.Q ? o.Q : exstar_mpi_size());
}

} // namespace

int main(int argc, char **argv)
{
  setenv("STARPU_COMM_STATS", "1", 1);
  setenv("STARPU_SILENT", "1", 0);
  const options o = parse(argc, argv);
  exstar_config cfg;
  exstar_config_default(&cfg);
  cfg.backends = o.cuda ? EXSTAR_BACKEND_CUDA : EXSTAR_BACKEND_CPU;
  cfg.ncpus = o.cuda ? 0 : o.ncpus;
  if (o.cuda) cfg.ncuda = 1;
  if (exstar_mpi_init(&argc, &argv, &cfg) != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "exstar_bench_mpi_lu: %s\n", exstar_last_error());
    return 1;
  }
  std::vector<double> A0;
  if (exstar_mpi_rank() == 0) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    A0.resize((size_t)(o.n * o.n));
    for (double &a : A0) a = u(rng);
    if (o.header) std::printf("ranks,n,nb,implementation,seconds,bytes_sent_max_rank,bytes_sent_total,grid\n");
  }
  measure(o, "exact", exstar_mpi_dgetrf, A0);
  measure(o, "plain-tiled", exstar_mpi_dgetrf_plain, A0);
  std::fflush(stdout);
  exstar_mpi_shutdown();
  return 0;
}
