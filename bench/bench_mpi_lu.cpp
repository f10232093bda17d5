// Strong scaling of the distributed LU over StarPU-MPI: run under `mpirun -np P`, it factors one
// n x n matrix (uniform in [-1, 1)) with exstar_mpi_dgetrf (exact) and exstar_mpi_dgetrf_plain
// (the same distributed tiled graph in plain double, LAPACK/BLAS kernels), --reps times each,
// and prints one CSV row per implementation (median seconds) with the bytes StarPU-MPI sent per
// rank (STARPU_COMM_STATS=1, set here before StarPU starts):
//   ranks,n,nb,implementation,seconds,bytes_sent_max_rank,bytes_sent_total,grid,layout
// Layouts:
//   rank0  the matrix on rank 0 (fixed-seed mt19937_64); the times include the tiles' way to
//          their owners and back.
//   tiles  (--tiles) each process generates its own tiles in place, entry (i, j) from a hash of
//          i + j n alone (so the matrix is the same on any grid, tile edge and number of
//          processes), and exstar_mpi_dgetrf_tiles[_plain] factors them where they are: the
//          layout of an application whose matrix never fits one node. The fingerprint is then
//          an FNV-1a over each tile's own FNV-1a (in tile order) and the pivots, the same for
//          every grid and number of processes at one tile edge.
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
  bool cuda = false; // CUDA devices only (STARPU_WORKERS_CUDAID picks them), no CPU worker
  int ncuda = 1;      // CUDA devices a process (--ncuda)
  bool tiles = false; // the tiles layout (see the top)
  std::string only;   // "exact" or "plain-tiled": that implementation alone
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
    else if (a == "--ncuda") o.cuda = true, o.ncuda = std::atoi(next());
    else if (a == "--tiles") o.tiles = true;
    else if (a == "--only") o.only = next();
    else if (a == "--grid") {
      const char *g = next();
      if (std::sscanf(g, "%dx%d", &o.P, &o.Q) != 2) o.P = o.Q = -1;
    }
    else {
      std::fprintf(stderr, "usage: mpirun -np P exstar_bench_mpi_lu [--n N] [--nb NB] [--reps R] [--ncpus C] [--grid PxQ] [--cuda] [--ncuda G] [--tiles] [--only exact|plain-tiled] [--header]\n");
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

unsigned long long fnv1a(const void *p, size_t bytes, unsigned long long h = 1469598103934665603ULL)
{
  for (size_t i = 0; i < bytes; ++i) h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ULL;
  return h;
}

// Entry (i, j) of the tiles layout's matrix: uniform in [-1, 1) from splitmix64 of i + j n.
double entry(int64_t i, int64_t j, int64_t n)
{
  unsigned long long z = (unsigned long long)(i + j * n) + 0x9e3779b97f4a7c15ULL * 43;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

// This process's tiles of the tiles layout (packed, tile (I, J) at ptr[I + J mt]), in memory from
// starpu_malloc (pinned when there are CUDA workers, as a GPU application's would be), generated
// anew by fill().
struct local_tiles {
  int64_t n, nb, mt;
  std::vector<double *> ptr;
  local_tiles(int64_t n_, int64_t nb_, int P, int Q) : n(n_), nb(nb_), mt((n_ + nb_ - 1) / nb_)
  {
    ptr.assign((size_t)(mt * mt), nullptr);
    for (int64_t J = 0; J < mt; ++J)
      for (int64_t I = 0; I < mt; ++I)
        if (exstar_mpi_tile_owner(I, J, P, Q) == exstar_mpi_rank() &&
            starpu_malloc((void **)&ptr[(size_t)(I + J * mt)], bytes(I, J)) != 0) {
          std::fprintf(stderr, "exstar_bench_mpi_lu: starpu_malloc failed\n");
          std::exit(1);
        }
  }
  ~local_tiles()
  {
    for (double *p : ptr)
      if (p) starpu_free(p);
  }
  int64_t rows(int64_t I) const { return std::min(nb, n - I * nb); }
  size_t bytes(int64_t I, int64_t J) const { return (size_t)(rows(I) * rows(J)) * sizeof(double); }
  void fill()
  {
    for (int64_t J = 0; J < mt; ++J)
      for (int64_t I = 0; I < mt; ++I)
        if (double *t = ptr[(size_t)(I + J * mt)])
          for (int64_t j = 0; j < rows(J); ++j)
            for (int64_t i = 0; i < rows(I); ++i) t[i + j * rows(I)] = entry(I * nb + i, J * nb + j, n);
  }
  // FNV-1a over the tiles' own FNV-1a in tile order, then the pivots (on rank 0).
  unsigned long long fingerprint(const std::vector<int32_t> &ipiv) const
  {
    std::vector<unsigned long long> mine((size_t)(mt * mt), 0), all((size_t)(mt * mt), 0);
    for (int64_t J = 0; J < mt; ++J)
      for (int64_t I = 0; I < mt; ++I)
        if (const double *t = ptr[(size_t)(I + J * mt)]) mine[(size_t)(I + J * mt)] = fnv1a(t, bytes(I, J));
    MPI_Reduce(mine.data(), all.data(), (int)all.size(), MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    return fnv1a(ipiv.data(), ipiv.size() * sizeof(int32_t), fnv1a(all.data(), all.size() * sizeof(unsigned long long)));
  }
};

using tiles_fn = int (*)(int64_t, int64_t, int64_t, int, int, double *const *, int64_t, int32_t *, int64_t *);

using getrf_fn = int (*)(int64_t, int64_t, double *, int64_t, int32_t *, int64_t *, int64_t, int, int);

void report(const options &o, const char *name, std::vector<double> &t, size_t sent, const char *layout);

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
    const unsigned long long h =
        fnv1a(ipiv.data(), ipiv.size() * sizeof(int32_t), fnv1a(last.data(), last.size() * sizeof(double)));
    std::fprintf(stderr, "# %s n=%lld on %d ranks: factors fnv1a %016llx\n", name, (long long)o.n, exstar_mpi_size(), h);
  }
  report(o, name, t, sent, "rank0");
}

// Every process generates and factors its own tiles (the tiles layout).
void measure_tiles(const options &o, const char *name, tiles_fn f)
{
  const int me = exstar_mpi_rank();
  int P = o.P, Q = o.Q;
  if (P == 0 && Q == 0) P = 1, Q = exstar_mpi_size();
  const int64_t nb = o.nb ? o.nb : exstar_default_tile(o.n, o.n);
  local_tiles lt(o.n, nb, P, Q);
  std::vector<int32_t> ipiv((size_t)o.n);
  std::vector<double> t;
  size_t sent = 0;
  for (int r = 0; r < o.reps; ++r) {
    lt.fill();
    int64_t info = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    const size_t before = bytes_sent();
    const double t0 = MPI_Wtime();
    int s = f(o.n, o.n, nb, o.P, o.Q, lt.ptr.data(), 0, ipiv.data(), &info);
    const double t1 = MPI_Wtime();
    sent = bytes_sent() - before;
    if (s != EXSTAR_SUCCESS && me == 0) std::fprintf(stderr, "%s: %s\n", name, exstar_last_error());
    t.push_back(t1 - t0);
  }
  const unsigned long long h = lt.fingerprint(ipiv);
  if (me == 0)
    std::fprintf(stderr, "# %s n=%lld nb=%lld on %d ranks (tiles): factors fnv1a of tiles %016llx\n", name,
                 (long long)o.n, (long long)nb, exstar_mpi_size(), h);
  report(o, name, t, sent, "tiles");
}

void report(const options &o, const char *name, std::vector<double> &t, size_t sent, const char *layout)
{
  const int me = exstar_mpi_rank();
  std::sort(t.begin(), t.end());
  unsigned long long mine = sent, mx = 0, total = 0;
  MPI_Reduce(&mine, &mx, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0)
    std::printf("%d,%lld,%lld,%s,%.6g,%llu,%llu,%dx%d,%s\n", exstar_mpi_size(), (long long)o.n,
                (long long)(o.nb ? o.nb : exstar_default_tile(o.n, o.n)), name, t[t.size() / 2], mx, total,
                o.P ? o.P : 1, o.Q ? o.Q : exstar_mpi_size(), layout);
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
  if (o.cuda) cfg.ncuda = o.ncuda;
  if (exstar_mpi_init(&argc, &argv, &cfg) != EXSTAR_SUCCESS) {
    std::fprintf(stderr, "exstar_bench_mpi_lu: %s\n", exstar_last_error());
    return 1;
  }
  std::vector<double> A0;
  if (exstar_mpi_rank() == 0 && o.header)
    std::printf("ranks,n,nb,implementation,seconds,bytes_sent_max_rank,bytes_sent_total,grid,layout\n");
  if (o.tiles) {
    if (o.only != "plain-tiled") measure_tiles(o, "exact", exstar_mpi_dgetrf_tiles);
    if (o.only != "exact") measure_tiles(o, "plain-tiled", exstar_mpi_dgetrf_tiles_plain);
    std::fflush(stdout);
    exstar_mpi_shutdown();
    return 0;
  }
  if (exstar_mpi_rank() == 0) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    A0.resize((size_t)(o.n * o.n));
    for (double &a : A0) a = u(rng);
  }
  if (o.only != "plain-tiled") measure(o, "exact", exstar_mpi_dgetrf, A0);
  if (o.only != "exact") measure(o, "plain-tiled", exstar_mpi_dgetrf_plain, A0);
  std::fflush(stdout);
  exstar_mpi_shutdown();
  return 0;
}
